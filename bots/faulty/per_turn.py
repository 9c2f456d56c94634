#!/usr/bin/env python3
"""The legitimate per-turn mode: answers one hand, then exits 0.

Every start gets the player number and then the current hand.
"""
import random
import sys

player = sys.stdin.readline().strip()
if player not in ("1", "2"):
    sys.exit(2)
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(random.randrange(5), flush=True)
        sys.exit(0)
