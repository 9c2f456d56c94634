/*
 * {{name}}: a CardJitsu bot in C. It plays a random card; make it smarter
 * in choose().
 *
 * The protocol (docs/protocols.md), one line per message on stdin:
 *   1. the player number, `1` or `2`;
 *   2. each round, the hand: cards separated by commas, `FyA,Fr6,WoA,Sg6,Wo5`
 *      (element F/W/S, colour r/b/g/y/o/p, number 2-9 or A=10, B=11, C=12).
 *      When Reverse is active (the previous round was won with a power card,
 *      numbered A) the line starts with a star, `* FyA,...` (or `*FyA,...`):
 *      the lower number then wins within an element. Answer with the index
 *      (0 for the first card) of the card to play, on a line of its own;
 *   3. after both players chose: `P1CARD vs. P2CARD: N wins!` (N = 0: a tie);
 *   4. at the end: `Player N wins!` or `Draw!`, then stdin is closed.
 * A late, malformed or out-of-range answer plays a random card and counts as
 * a fault. stderr is yours for logging.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CARDS 16

/* xorshift64: seeded from DOJO_SEED (different per game and seat), so a
 * seeded match replays exactly. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* The index of the card to play among the n cards of hand (each a
 * three-character string such as "FyA"). */
static int choose(char hand[][4], int n, int reverse) {
    (void)hand;
    (void)reverse;
    return (int)(next_random() % (uint64_t)n);
}

int main(void) {
    const char *seed = getenv("DOJO_SEED");
    if (seed != NULL && *seed != '\0') {
        rng_state ^= strtoull(seed, NULL, 10);
        if (rng_state == 0) {
            rng_state = 1; /* xorshift never leaves 0 */
        }
    }

    char line[4096];
    int me = 0;
    while (fgets(line, sizeof line, stdin) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (me == 0) {
            me = atoi(line); /* our player number, 1 or 2 */
            continue;
        }
        if (strchr(line, ',') != NULL) {
            /* A hand: the only line that wants an answer. */
            char *p = line;
            int reverse = *p == '*';
            while (*p == '*' || *p == ' ') {
                p++;
            }
            char hand[MAX_CARDS][4];
            int n = 0;
            for (char *card = strtok(p, ","); card != NULL && n < MAX_CARDS;
                 card = strtok(NULL, ",")) {
                snprintf(hand[n++], sizeof hand[0], "%s", card);
            }
            printf("%d\n", choose(hand, n, reverse));
            /* stdout is a pipe, so fully buffered: without the flush the
             * answer would wait in the buffer and time out. */
            fflush(stdout);
        } else if (strncmp(line, "Player ", 7) == 0 || strcmp(line, "Draw!") == 0) {
            return 0; /* the game is over */
        }
        /* Anything else is a round's result (`WoA vs. Fr6: 1 wins!`). */
    }
    return 0;
}
