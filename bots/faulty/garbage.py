#!/usr/bin/env python3
"""Answers every hand with text that is not a card index."""
import sys

while True:
    line = sys.stdin.readline()
    if not line or line.startswith("Player ") or line.strip() == "Draw!":
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print("I choose the fire card, obviously", flush=True)
