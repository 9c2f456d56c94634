#!/bin/sh
# CardJitsu random bot in POSIX shell. Answers every hand line with an
# index 0..4 drawn from a 31-bit LCG, so it needs nothing beyond sh.
# The LCG starts from DOJO_SEED's last nine digits: the seed uses all 64
# bits, and sh's arithmetic saturates above 2^63 - 1 (dash), which gave
# half of all seeds one and the same game.
seed=${DOJO_SEED:-12345}
digits=$seed
if [ ${#seed} -gt 9 ]; then digits=${seed#"${seed%?????????}"}; fi
# No leading zeros: sh's arithmetic would read the digits as octal.
while [ "${digits#0}" != "$digits" ]; do digits=${digits#0}; done
state=$(( ${digits:-0} % 2147483648 ))
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
