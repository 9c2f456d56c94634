/*
 * {{name}}: a rock-paper-scissors royale bot in C. It plays a random action
 * that changes something; make it smarter in choose().
 *
 * The protocol (docs/protocols.md), on stdin, every turn:
 *   - the whole board, one line per row: `R`, `P`, `S` (a tile of that sign),
 *     `#` (a wall) and `.` (unclaimed);
 *   - an empty line;
 *   - our x, then our y, each on a line of its own (0-based, y grows
 *     downwards).
 * Answer `P` (pass), or `M` (move) or `I` (instigate a fight with a
 * neighbouring tile) on one line and the direction `U`, `D`, `L` or `R` on
 * the next. A move or instigation off the board or into `#` is played as a
 * pass and recorded as illegal; a malformed answer is a pass and a fault.
 * After the last turn stdin is closed. Our team (`R`, `P` or `S`) is in
 * DOJO_TEAM; the other players' positions are not shown. stderr is yours
 * for logging.
 */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* xorshift64: seeded from DOJO_SEED (different per game and seat), so a
 * seeded match replays exactly. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* The board: rows[y][x], height rows (each its own length). */
static char **rows = NULL;
static size_t height = 0, capacity = 0;

/* The tile at (x, y), or 0 off the board. */
static char tile(long x, long y) {
    if (x < 0 || y < 0 || (size_t)y >= height || (size_t)x >= strlen(rows[y])) {
        return 0;
    }
    return rows[y][x];
}

static const char DIRS[4] = {'U', 'D', 'L', 'R'};
static const int DX[4] = {0, 0, -1, 1};
static const int DY[4] = {-1, 1, 0, 0};

/* Writes the answer for a bot at (x, y). */
static void choose(long x, long y, char team) {
    (void)team;
    char here = tile(x, y);
    char fights[4], moves[4];
    int nf = 0, nm = 0;
    for (int d = 0; d < 4; d++) {
        char there = tile(x + DX[d], y + DY[d]);
        if (there == 0 || there == '#') {
            continue; /* off the board or a wall: illegal */
        }
        moves[nm++] = DIRS[d];
        if (there != here) {
            fights[nf++] = DIRS[d]; /* a fight between equal tiles changes nothing */
        }
    }
    if (nf > 0 && next_random() % 3 < 2) {
        printf("I\n%c\n", fights[next_random() % (uint64_t)nf]);
    } else if (nm > 0) {
        printf("M\n%c\n", moves[next_random() % (uint64_t)nm]);
    } else {
        printf("P\n");
    }
}

/* The next line of stdin without its line ending, or NULL at its end. */
static char *read_line(void) {
    char *line = NULL;
    size_t size = 0;
    if (getline(&line, &size, stdin) < 0) {
        free(line);
        return NULL;
    }
    line[strcspn(line, "\r\n")] = '\0';
    return line;
}

int main(void) {
    const char *seed = getenv("DOJO_SEED");
    if (seed != NULL && *seed != '\0') {
        rng_state ^= strtoull(seed, NULL, 10);
        if (rng_state == 0) {
            rng_state = 1; /* xorshift never leaves 0 */
        }
    }
    const char *team = getenv("DOJO_TEAM");

    char *line;
    while ((line = read_line()) != NULL) {
        if (*line != '\0') {
            /* A row of the board. */
            if (height == capacity) {
                capacity = capacity ? 2 * capacity : 64;
                rows = realloc(rows, capacity * sizeof *rows);
                if (rows == NULL) {
                    return 1;
                }
            }
            rows[height++] = line;
            continue;
        }
        free(line);
        /* The empty line ends the board; our x and y follow. */
        char *xs = read_line(), *ys = read_line();
        if (xs == NULL || ys == NULL) {
            return 0;
        }
        choose(atol(xs), atol(ys), team ? team[0] : '?');
        /* stdout is a pipe, so fully buffered: without the flush the
         * answer would wait in the buffer and time out. */
        fflush(stdout);
        free(xs);
        free(ys);
        for (size_t i = 0; i < height; i++) {
            free(rows[i]);
        }
        height = 0;
    }
    return 0;
}
