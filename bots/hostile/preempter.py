#!/usr/bin/env python3
"""Does to its job what a scheduler that preempts it does (Slurm's
`scancel --full`, systemd stopping a unit): at the first hand of its
process number SKIP + 1 (its second argument, 2 by default: the first
two play a league's smoke start, a game against itself), unless the file MARK (its first argument, `mark:MARK`) says it did
already,
notes in MARK that it did and sends SIGTERM to its parent (dojo, under
`--sandbox off`) and to itself, back to back, so it dies of the signal
as dojo is told to stop. Plays card 0 every hand. Its crash must not be
stored: the game is played again when the league resumes."""
import os
import signal
import sys

# Given as `mark:PATH`, so that dojo does not take it for one of the
# bot's files (whose contents a league fixes when it starts).
MARK = sys.argv[1].removeprefix("mark:")
# How many processes play before the one that stops the job.
SKIP = int(sys.argv[2]) if len(sys.argv) > 2 else 2


def lines():
    try:
        with open(MARK) as f:
            return f.read().split()
    except OSError:
        return []


first = True
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        if first:
            first = False
            seen = lines()
            with open(MARK, "a") as f:
                f.write("started\n")
            if len(seen) >= SKIP and "preempted" not in seen:
                with open(MARK, "a") as f:
                    f.write("preempted\n")
                os.kill(os.getppid(), signal.SIGTERM)
                os.kill(os.getpid(), signal.SIGTERM)
        print(0, flush=True)
