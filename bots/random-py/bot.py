#!/usr/bin/env python3
"""CardJitsu random bot: plays a uniformly random card from its hand.

Protocol (one line per message): the player number, then per round a hand
line (preceded by `* ` when Reverse is active; a bare `*` is read too) which
we answer with an index 0..4,
then a round result line; the game ends with `Player N wins!` or `Draw!`.
"""
import os
import random
import sys


def main() -> None:
    rng = random.Random(os.environ.get("DOJO_SEED"))
    for line in sys.stdin:
        line = line.strip()
        if "," in line:  # a hand: the only line that wants an answer
            hand = line.lstrip("*").strip().split(",")
            print(rng.randrange(len(hand)), flush=True)
        elif line.startswith("Player") or line == "Draw!":
            return


if __name__ == "__main__":
    main()
