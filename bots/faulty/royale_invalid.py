#!/usr/bin/env python3
"""Royale: answers every turn with `X`, which is no action, and stays alive."""
import sys

for line in sys.stdin:
    if line.strip() == "":
        sys.stdin.readline()
        sys.stdin.readline()
        print("X", flush=True)
