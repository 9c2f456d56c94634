#!/bin/sh
# {{name}}: a CardJitsu bot in POSIX sh. It plays a pseudo-random card; make
# it smarter where it chooses.
#
# The protocol (docs/protocols.md), one line per message on stdin:
#   1. the player number, `1` or `2`;
#   2. each round, the hand: cards separated by commas, `FyA,Fr6,WoA,Sg6,Wo5`
#      (element F/W/S, colour r/b/g/y/o/p, number 2-9 or A=10, B=11, C=12).
#      When Reverse is active (the previous round was won with a power card,
#      numbered A) the line starts with a star, `* FyA,...` (or `*FyA,...`):
#      the lower number then wins within an element. Answer with the index
#      (0 for the first card) of the card to play, on a line of its own;
#   3. after both players chose: `P1CARD vs. P2CARD: N wins!` (N = 0: a tie);
#   4. at the end: `Player N wins!` or `Draw!`, then stdin is closed.
# A late, malformed or out-of-range answer plays a random card and counts as
# a fault. stderr is yours for logging.

# A 31-bit linear congruential generator seeded from DOJO_SEED (different
# per game and seat), so a seeded match replays exactly.
# The LCG starts from all of DOJO_SEED, taken in two parts that each fit
# sh's arithmetic: the seed uses all 64 bits, and sh's arithmetic
# saturates above 2^63 - 1 (dash), so the seed as one number would give
# half of all seeds one and the same game.
seed=${DOJO_SEED:-12345}
low=$seed
high=
if [ ${#seed} -gt 9 ]; then
    low=${seed#"${seed%?????????}"}    # the last nine digits
    high=${seed%"$low"}                # the (at most eleven) before them
fi
# No leading zeros: sh's arithmetic would read the digits as octal.
while [ "${low#0}" != "$low" ]; do low=${low#0}; done
while [ "${high#0}" != "$high" ]; do high=${high#0}; done
# Mixed by the generator's multiplier: the digits before the last nine count.
state=$(( ((${high:-0} % 2147483648) * 1103515245 + ${low:-0}) % 2147483648 ))

cr=$(printf '\r')
me=
while IFS= read -r line; do
    line=${line%"$cr"}    # a trailing CR, should one come
    if [ -z "$me" ]; then
        me=$line    # our player number, 1 or 2
        continue
    fi
    case "$line" in
        *,*)
            # A hand: the only line that wants an answer.
            reverse=no
            case "$line" in '*'*) reverse=yes ;; esac
            cards=${line#'*'}
            cards=${cards# }
            # Count the cards: the commas, plus one.
            rest=$cards
            count=1
            while [ "$rest" != "${rest#*,}" ]; do
                rest=${rest#*,}
                count=$((count + 1))
            done
            state=$(( (state * 1103515245 + 12345) % 2147483648 ))
            # echo writes a whole line at once: nothing waits in a buffer.
            echo $(( (state / 65536) % count ))
            ;;
        Player*|Draw!)
            exit 0    # the game is over
            ;;
        # Anything else is a round's result (`WoA vs. Fr6: 1 wins!`).
    esac
done
