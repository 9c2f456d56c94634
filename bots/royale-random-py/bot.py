#!/usr/bin/env python3
"""Royale random bot: reads one turn (board rows, a blank line, x, y), prints
one random action and exits; the harness starts it again for its next turn.

The choice is seeded from DOJO_SEED and the turn's input, so a seeded game
replays exactly even though every turn is a fresh process.
"""
import os
import random
import sys


def read_turn():
    rows = []
    for line in sys.stdin:
        line = line.rstrip("\n")
        if line == "":
            break
        rows.append(line)
    x = int(sys.stdin.readline())
    y = int(sys.stdin.readline())
    return rows, x, y


def main() -> None:
    rows, x, y = read_turn()
    rng = random.Random(f"{os.environ.get('DOJO_SEED', '')}|{'/'.join(rows)}|{x}|{y}")
    kind = rng.choice("PMMII")
    if kind == "P":
        print("P", flush=True)
    else:
        print(kind, rng.choice("UDLR"), sep="\n", flush=True)


if __name__ == "__main__":
    main()
