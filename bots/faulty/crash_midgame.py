#!/usr/bin/env python3
"""Answers three hands, then exits with status 1 on the fourth."""
import sys

answered = 0
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        if answered == 3:
            print("crash_midgame: giving up", file=sys.stderr, flush=True)
            sys.exit(1)
        print(answered % 5, flush=True)
        answered += 1
