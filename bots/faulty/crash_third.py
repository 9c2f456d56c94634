#!/usr/bin/env python3
"""Answers two hands, then writes a known line to stderr and exits with
status 1 on the third: restarted after each crash, it crashes on every
third move."""
import sys

answered = 0
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(f"crash_third: move {answered + 1}", file=sys.stderr, flush=True)
        if answered == 2:
            print("crash_third: no third move", file=sys.stderr, flush=True)
            sys.exit(1)
        print(answered, flush=True)
        answered += 1
