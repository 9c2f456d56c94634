#!/usr/bin/env python3
"""A well-behaved persistent CardJitsu bot: plays a random card index."""
import random
import sys


def main():
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        line = line.strip()
        if line.startswith("Player ") or line == "Draw!":
            return
        if "," in line and " vs. " not in line:
            print(random.randrange(5), flush=True)


main()
