#!/usr/bin/env python3
"""Needs NEED seconds (default 0.8) of CPU time a hand, more than its
move time, and tries to get them as two moves: a process that has answered
before thinks SLICE seconds (default 0.4) on the new hand, notes its
progress in its home directory and exits 0 without answering, hoping to be
taken for a bot that exits after its moves and started again with a fresh
clock; the new process finishes the thinking and answers card 0."""
import os
import sys
import time

NEED = float(sys.argv[1]) if len(sys.argv) > 1 else 0.8
SLICE = float(sys.argv[2]) if len(sys.argv) > 2 else 0.4
PROGRESS = os.path.join(os.environ.get("HOME", "."), "progress")


def think(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def main():
    answered = 0
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        line = line.strip()
        if line.startswith("Player ") or line == "Draw!":
            return
        if "," not in line or " vs. " in line:
            continue
        # The note is taken as it is read: one left for a hand whose
        # process was then killed must not count for the next hand.
        try:
            with open(PROGRESS) as f:
                done = float(f.read())
            os.unlink(PROGRESS)
        except (OSError, ValueError):
            done = 0.0
        if answered > 0:
            think(SLICE)
            with open(PROGRESS, "w") as f:
                f.write(str(done + SLICE))
            return
        think(max(NEED - done, 0.0))
        print(0, flush=True)
        answered += 1


main()
