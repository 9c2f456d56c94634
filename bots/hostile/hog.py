#!/usr/bin/env python3
"""Runs into a resource limit, then plays (answers 0) if it survived.

hog.py fork TAG: forks until fork fails (at most 5000 times), the children
sleeping with TAG in their command line; stderr says how many it made.
hog.py memory TAG: allocates and touches 16 MiB blocks, up to 4 GiB.
hog.py cpu TAG: spins on the CPU for up to 10 minutes before reading.
"""
import os
import sys
import time

kind = sys.argv[1]
if kind == "fork":
    made = 0
    for _ in range(5000):
        try:
            pid = os.fork()
        except OSError as e:
            print(f"fork failed after {made}: {e}", file=sys.stderr, flush=True)
            break
        if pid == 0:
            time.sleep(600)
            os._exit(0)
        made += 1
elif kind == "memory":
    blocks = []
    for _ in range(256):
        blocks.append(bytearray(16 << 20))
        blocks[-1][:: 4096] = b"x" * len(blocks[-1][:: 4096])
    print(f"allocated {len(blocks) * 16} MiB", file=sys.stderr, flush=True)
elif kind == "cpu":
    end = time.monotonic() + 600
    while time.monotonic() < end:
        pass
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(0, flush=True)
