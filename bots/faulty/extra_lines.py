#!/usr/bin/env python3
"""Answers every hand, then writes an extra line nobody asked for."""
import sys

while True:
    line = sys.stdin.readline()
    if not line or line.startswith("Player ") or line.strip() == "Draw!":
        sys.exit(0)
    if "," in line and " vs. " not in line:
        # One write, so the answer and the chatter arrive together.
        sys.stdout.write("1\nby the way, nice hand\n")
        sys.stdout.flush()
