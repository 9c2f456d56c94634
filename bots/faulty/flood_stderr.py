#!/usr/bin/env python3
"""Writes megabytes to stderr every turn and still answers correctly."""
import sys

chunk = ("debug " * 1000 + "\n") * 350  # about 2 MB
while True:
    line = sys.stdin.readline()
    if not line or line.startswith("Player ") or line.strip() == "Draw!":
        sys.exit(0)
    if "," in line and " vs. " not in line:
        sys.stderr.write(chunk)
        sys.stderr.flush()
        print(3, flush=True)
