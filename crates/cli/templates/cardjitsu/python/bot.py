#!/usr/bin/env python3
"""{{name}}: a CardJitsu bot. It plays a random card; make it smarter in choose().

The protocol (docs/protocols.md), one line per message on stdin:
  1. the player number, `1` or `2`;
  2. each round, the hand: cards separated by commas, `FyA,Fr6,WoA,Sg6,Wo5`
     (element F/W/S, colour r/b/g/y/o/p, number 2-9 or A=10, B=11, C=12).
     When Reverse is active (the previous round was won with a power card,
     numbered A) the line starts with a star, `* FyA,...` (or `*FyA,...`):
     the lower number then wins within an element. Answer with the index
     (0 for the first card) of the card to play, on a line of its own;
  3. after both players chose: `P1CARD vs. P2CARD: N wins!` (N = 0: a tie);
  4. at the end: `Player N wins!` or `Draw!`, then stdin is closed.
A late, malformed or out-of-range answer plays a random card and counts as
a fault. stderr is yours for logging.
"""
import os
import random
import sys


def choose(hand, reverse, rng):
    """The index of the card to play from `hand` (a list like ['FyA', 'Wo5'])."""
    return rng.randrange(len(hand))


def main():
    # DOJO_SEED differs per game and seat: seeding from it makes a seeded
    # match replay exactly (`dojo replay --rerun`).
    rng = random.Random(os.environ.get("DOJO_SEED"))
    me = None
    for line in sys.stdin:
        line = line.strip()
        if me is None:
            me = int(line)  # our player number, 1 or 2
        elif "," in line:
            # A hand: the only line that wants an answer.
            reverse = line.startswith("*")
            hand = line.lstrip("*").strip().split(",")
            # flush=True: an answer left in the buffer never reaches dojo.
            print(choose(hand, reverse, rng), flush=True)
        elif line.startswith("Player ") or line == "Draw!":
            return  # the game is over
        # Anything else is a round's result (`WoA vs. Fr6: 1 wins!`).


if __name__ == "__main__":
    main()
