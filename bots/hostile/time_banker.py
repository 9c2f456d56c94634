#!/usr/bin/env python3
"""Buys a long move with a deliberate timeout: its first process never
answers its first hand (it spins until it is killed, after noting in
$HOME, the game's scratch directory, that it did); the process started
again after that thinks THINK seconds (default 1.0) of CPU time on its
first hand, more than the move time, hoping the start-up allowance covers
it. Every other hand, and every later process's, it answers at once."""
import os
import sys
import time

NOTE = os.path.join(os.environ.get("HOME", "."), "banked")
THINK = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0


def think(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def main():
    restarted = os.path.exists(NOTE)
    # Only the first process started again thinks long.
    long_move = restarted and not os.path.exists(NOTE + ".spent")
    if long_move:
        open(NOTE + ".spent", "w").close()
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
        if not restarted:
            with open(NOTE, "w") as f:
                f.write("killed on purpose")
            while True:
                think(1.0)
        if long_move and answered == 0:
            think(THINK)
        print(0, flush=True)
        answered += 1


main()
