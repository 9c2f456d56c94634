#!/usr/bin/env python3
"""An honest bot that thinks: it spends SECONDS (default 0.1) of its own
CPU time on every hand before answering with card 0. The fair-time test
sets it beside cpu_burner.py. With a second argument `exit` it exits after
each answer (a per-turn bot), as a bot would that hoped to think on the
start-up allowance of every new process."""
import sys
import time


def think(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 0.1
    exits = sys.argv[2:3] == ["exit"]
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        line = line.strip()
        if line.startswith("Player ") or line == "Draw!":
            return
        if "," in line and " vs. " not in line:
            think(seconds)
            print(0, flush=True)
            if exits:
                return


main()
