#!/usr/bin/env python3
"""Answers every hand after 1.5 s (LATE_DELAY_MS overrides), i.e. after
the default deadline, to check a stale answer is never used later."""
import os
import sys
import time

delay = int(os.environ.get("LATE_DELAY_MS", "1500")) / 1000.0
while True:
    line = sys.stdin.readline()
    if not line or line.startswith("Player ") or line.strip() == "Draw!":
        sys.exit(0)
    if "," in line and " vs. " not in line:
        time.sleep(delay)
        print(4, flush=True)
