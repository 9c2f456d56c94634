#!/usr/bin/env python3
"""Royale random bot: reads one turn (board rows, a blank line, x, y), prints
one random action and exits; the harness starts it again for its next turn.

It picks among the actions that change something: an instigation that
changes a tile (the neighbour is on the board, not `#`, and of another
type than the tile it stands on) two times in three when there is one,
otherwise a move onto a tile it may stand on; it passes only when it can do
neither. A process that lives one turn remembers nothing, so its random
generator is seeded from DOJO_SEED and the turn's input: a seeded game
replays exactly, and since every action it takes changes the board or its
own position, its next input (and so its next draw) is a new one instead
of the same action again on an unchanged board.
"""
import os
import random
import sys

STEPS = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}


def read_turn():
    rows = []
    for line in sys.stdin:
        line = line.rstrip("\r\n")
        if line == "":
            break
        rows.append(line)
    x = int(sys.stdin.readline())
    y = int(sys.stdin.readline())
    return rows, x, y


def tile(rows, x, y):
    """The tile at (x, y), or None off the board."""
    if 0 <= y < len(rows) and 0 <= x < len(rows[y]):
        return rows[y][x]
    return None


def legal_actions(rows, x, y):
    """(instigations that change a tile, moves onto a tile one may stand on)."""
    here = tile(rows, x, y)
    instigate, move = [], []
    for d, (dx, dy) in STEPS.items():
        there = tile(rows, x + dx, y + dy)
        if there is None or there == "#":
            continue
        move.append("M\n" + d)
        if there != here:
            instigate.append("I\n" + d)
    return instigate, move


def main() -> None:
    rows, x, y = read_turn()
    rng = random.Random(f"{os.environ.get('DOJO_SEED', '')}|{'/'.join(rows)}|{x}|{y}")
    instigate, move = legal_actions(rows, x, y)
    if instigate and (not move or rng.random() < 2 / 3):
        action = rng.choice(instigate)
    elif move:
        action = rng.choice(move)
    else:
        action = "P"
    print(action, flush=True)


if __name__ == "__main__":
    main()
