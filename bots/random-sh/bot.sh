#!/bin/sh
# CardJitsu random bot in POSIX shell. Answers every hand line with an
# index 0..4 drawn from a 31-bit LCG, so it needs nothing beyond sh.
state=$(( ${DOJO_SEED:-12345} % 2147483648 ))
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
