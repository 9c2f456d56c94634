#!/usr/bin/env python3
"""Royale: reads a turn, answers `M` and never sends the direction."""
import sys
import time

for line in sys.stdin:
    if line.strip() == "":
        sys.stdin.readline()
        sys.stdin.readline()
        print("M", flush=True)
        while True:
            time.sleep(1000)
