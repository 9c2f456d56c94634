#!/bin/sh
# CardJitsu random bot in POSIX shell. Answers every hand line with an
# index 0..4 drawn from a 31-bit LCG, so it needs nothing beyond sh.
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
while IFS= read -r line; do
    case "$line" in
        *,*)
            state=$(( (state * 1103515245 + 12345) % 2147483648 ))
            echo $(( (state / 65536) % 5 ))
            ;;
        Player*|Draw!)
            exit 0
            ;;
    esac
done
