#!/usr/bin/env python3
"""A well-behaved royale bot that stays alive: answers every turn (board
rows, a blank line, x, y) with a random action until its input ends.

Seeded from DOJO_SEED, so a seeded game replays exactly.
"""
import os
import random
import sys


def read_turn():
    """The board rows and position of the next turn; None at end of input."""
    rows = []
    while True:
        line = sys.stdin.readline()
        if not line:
            return None
        line = line.rstrip("\r\n")
        if line == "":
            break
        rows.append(line)
    x = sys.stdin.readline()
    y = sys.stdin.readline()
    if not y:
        return None
    return rows, int(x), int(y)


def main():
    rng = random.Random(os.environ.get("DOJO_SEED"))
    while read_turn() is not None:
        kind = rng.choice("PMMII")
        if kind == "P":
            sys.stdout.write("P\n")
        else:
            sys.stdout.write(f"{kind}\n{rng.choice('UDLR')}\n")
        sys.stdout.flush()


main()
