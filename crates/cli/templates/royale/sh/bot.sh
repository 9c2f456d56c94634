#!/bin/sh
# {{name}}: a rock-paper-scissors royale bot in POSIX sh. It plays a
# pseudo-random action that changes something; make it smarter in choose.
#
# The protocol (docs/protocols.md), on stdin, every turn:
#   - the whole board, one line per row: `R`, `P`, `S` (a tile of that sign),
#     `#` (a wall) and `.` (unclaimed);
#   - an empty line;
#   - our x, then our y, each on a line of its own (0-based, y grows downwards).
# Answer `P` (pass), or `M` (move) or `I` (instigate a fight with a
# neighbouring tile) on one line and the direction `U`, `D`, `L` or `R` on
# the next. A move or instigation off the board or into `#` is played as a
# pass and recorded as illegal; a malformed answer is a pass and a fault.
# After the last turn stdin is closed. Our team (`R`, `P` or `S`) is in
# DOJO_TEAM; the other players' positions are not shown. stderr is yours
# for logging.

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
# `random N` sets r to a number in 0..N-1.
random() {
    state=$(( (state * 1103515245 + 12345) % 2147483648 ))
    r=$(( (state / 65536) % $1 ))
}

cr=$(printf '\r')

# `tile X Y` sets t to the tile at (X, Y), or to nothing off the board.
# Rows are kept in row_0, row_1, ...
tile() {
    t=
    if [ "$1" -lt 0 ] || [ "$2" -lt 0 ] || [ "$2" -ge "$rows" ]; then
        return
    fi
    eval "t=\$row_$2"
    i=0
    while [ "$i" -lt "$1" ] && [ -n "$t" ]; do
        t=${t#?}
        i=$((i + 1))
    done
    t=${t%"${t#?}"}    # its first character
}

# Sets answer to the lines to send, for a bot at (x, y).
choose() {
    tile "$x" "$y"
    here=$t
    fights=
    moves=
    for d in U D L R; do
        case $d in
            U) tile "$x" $((y - 1)) ;;
            D) tile "$x" $((y + 1)) ;;
            L) tile $((x - 1)) "$y" ;;
            R) tile $((x + 1)) "$y" ;;
        esac
        # Off the board or a wall: illegal.
        if [ -z "$t" ] || [ "$t" = "#" ]; then
            continue
        fi
        moves="$moves $d"
        # A fight between equal tiles changes nothing.
        if [ "$t" != "$here" ]; then
            fights="$fights $d"
        fi
    done
    random 3
    if [ -n "$fights" ] && [ "$r" -lt 2 ]; then
        answer="I"
        pick $fights
    elif [ -n "$moves" ]; then
        answer="M"
        pick $moves
    else
        answer="P"
        return
    fi
    answer="$answer
$picked"
}

# `pick WORD..` sets picked to one of its arguments, at random.
pick() {
    random $#
    shift "$r"
    picked=$1
}

rows=0
while IFS= read -r line; do
    line=${line%"$cr"}
    if [ -n "$line" ]; then
        eval "row_$rows=\$line"
        rows=$((rows + 1))
        continue
    fi
    # The empty line ends the board; our x and y follow.
    IFS= read -r x || exit 0
    IFS= read -r y || exit 0
    x=${x%"$cr"}
    y=${y%"$cr"}
    choose
    # printf writes the whole answer at once: nothing waits in a buffer.
    printf '%s\n' "$answer"
    rows=0
done
