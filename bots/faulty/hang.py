#!/usr/bin/env python3
"""Answers two hands, then stops answering and sleeps forever."""
import sys
import time

answered = 0
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        if answered == 2:
            while True:
                time.sleep(1000)
        print(0, flush=True)
        answered += 1
