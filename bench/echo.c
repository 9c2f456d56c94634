/* A CardJitsu bot that costs next to nothing: it answers `0` to every hand
 * line, so a benchmark that plays it measures the harness and the kernel,
 * not a bot. Built by the benchmarks themselves with `cc -O2`.
 *
 *   echo             persistent: answers until `Player N wins!`, `Draw!` or EOF
 *   echo once        per-turn: answers the first hand line, then exits
 *   echo sleep MS    persistent, sleeps MS milliseconds before each answer
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char buf[1 << 16];
static size_t len;

/* The next line without its newline, or NULL at end of input. */
static char *next_line(size_t *start) {
    for (;;) {
        char *nl = memchr(buf + *start, '\n', len - *start);
        if (nl) {
            char *line = buf + *start;
            *nl = 0;
            *start = (size_t)(nl - buf) + 1;
            return line;
        }
        memmove(buf, buf + *start, len - *start);
        len -= *start;
        *start = 0;
        if (len == sizeof buf) len = 0; /* an over-long line: drop it */
        ssize_t n = read(0, buf + len, sizeof buf - len);
        if (n <= 0) return NULL;
        len += (size_t)n;
    }
}

int main(int argc, char **argv) {
    int once = argc > 1 && strcmp(argv[1], "once") == 0;
    long sleep_ms = argc > 2 && strcmp(argv[1], "sleep") == 0 ? atol(argv[2]) : 0;
    size_t start = 0;
    char *line;
    while ((line = next_line(&start)) != NULL) {
        if (strncmp(line, "Player ", 7) == 0 || strcmp(line, "Draw!") == 0) return 0;
        if (strchr(line, ',') == NULL || strstr(line, " vs. ") != NULL) continue;
        if (sleep_ms > 0) {
            struct timespec ts = {sleep_ms / 1000, (sleep_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        }
        if (write(1, "0\n", 2) != 2) return 1;
        if (once) return 0;
    }
    return 0;
}
