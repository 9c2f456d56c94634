#!/usr/bin/env python3
"""Starts N children (default 4) that busy-loop on the CPU for as long as
they live, then answers every hand at once with card 0: a neighbour that
takes the CPU from whoever shares its core."""
import os
import sys


def main():
    burners = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    for _ in range(burners):
        if os.fork() == 0:
            while True:
                pass
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        line = line.strip()
        if line.startswith("Player ") or line == "Draw!":
            return
        if "," in line and " vs. " not in line:
            print(0, flush=True)


main()
