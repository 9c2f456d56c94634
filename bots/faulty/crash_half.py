#!/usr/bin/env python3
"""Answers one hand, then exits with status 1 on the next: restarted after
each crash, it crashes on every other move."""
import sys

answered = False
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        if answered:
            print("crash_half: giving up", file=sys.stderr, flush=True)
            sys.exit(1)
        print(0, flush=True)
        answered = True
