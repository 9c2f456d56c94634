#!/bin/sh
# Reports its resource limits on stderr (core dump size, open files), then,
# on each hand, writes a 2 MiB file in its scratch directory ($TMPDIR) with
# the shell's own writes: past a smaller file-size limit the kernel kills it
# with SIGXFSZ (also in a box, whose init is PID 1, not the bot). Says how
# many bytes it wrote and answers 0.
echo "limits: core $(ulimit -c) files $(ulimit -n)" >&2
while read -r line; do
    case "$line" in
    *" vs. "*) continue ;;
    *,*) ;;
    *) continue ;;
    esac
    i=0
    while [ "$i" -lt 2048 ]; do
        printf '%01023d\n' 0 || break
        i=$((i + 1))
    done 2>/dev/null >"$TMPDIR/big"
    echo "wrote $(wc -c <"$TMPDIR/big") bytes" >&2
    echo 0
done
