#!/usr/bin/env python3
"""Answers its first hand with a 1 MiB line, then plays normally."""
import sys

first = True
while True:
    line = sys.stdin.readline()
    if not line or line.startswith("Player ") or line.strip() == "Draw!":
        sys.exit(0)
    if "," in line and " vs. " not in line:
        if first:
            sys.stdout.write("1" * (1024 * 1024) + "\n")
            sys.stdout.flush()
            first = False
        else:
            print(2, flush=True)
