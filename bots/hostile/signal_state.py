#!/usr/bin/env python3
"""Answers 1 if it started with a signal blocked (its mask, SigBlk in
/proc/self/status, not empty: a bot started by a box's init must get an
empty mask, whatever the init itself blocks), else 0. The mask goes to
stderr."""
import sys

blocked = "?"
with open("/proc/self/status") as status:
    for line in status:
        if line.startswith("SigBlk:"):
            blocked = line.split()[1]
print(f"blocked signals: {blocked}", file=sys.stderr, flush=True)
answer = 0 if blocked != "?" and int(blocked, 16) == 0 else 1
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(answer, flush=True)
