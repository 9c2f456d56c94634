#!/usr/bin/env python3
"""A per-turn CardJitsu bot that leaves a process behind every turn (a
`setsid` shell tagged with TAG) and, the turn after, looks for it: a
leftover that lived on between turns could work or answer for the next
process. Plays card 1 if the last turn's leftover still runs, else 0.
The leftover's pid is kept in $HOME, the seat's scratch directory, which
lasts the game."""
import os
import sys

TAG = sys.argv[1] if len(sys.argv) > 1 else "dojo-lingerer"
MARK = os.path.join(os.environ.get("HOME", "/tmp"), "leftover.pid")


def alive(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return TAG.encode() in f.read()
    except OSError:
        return False


def seen_last_leftover():
    try:
        with open(MARK) as f:
            return alive(int(f.read().strip()))
    except (OSError, ValueError):
        return False


def leave_one():
    pid = os.fork()
    if pid == 0:
        os.setsid()
        os.execvp("sh", ["sh", "-c", "sleep 60; :", TAG])
    with open(MARK, "w") as f:
        f.write(str(pid))


def main():
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        line = line.strip()
        if line.startswith("Player ") or line == "Draw!":
            return
        if "," in line and " vs. " not in line:
            card = 1 if seen_last_leftover() else 0
            leave_one()
            print(card, flush=True)
            return


main()
