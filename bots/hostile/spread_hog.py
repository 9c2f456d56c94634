#!/usr/bin/env python3
"""Holds most of its memory cap in many small processes: CHILDREN
(default 5) children of MIB (default 60) MiB each, then plays card 0 after
0.3 s a hand. Under its cap, and no single process of it is large: when
the memory of several games runs out together, the OOM killer takes the
largest process there is, an honest bot of another game."""
import os
import sys
import time

children = int(sys.argv[1]) if len(sys.argv) > 1 else 5
mib = int(sys.argv[2]) if len(sys.argv) > 2 else 60
for _ in range(children):
    if os.fork() == 0:
        block = bytearray(mib << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        time.sleep(600)
        os._exit(0)
while True:
    line = sys.stdin.readline()
    if not line or line.startswith("Player ") or line.strip() == "Draw!":
        break
    if "," in line and " vs. " not in line:
        time.sleep(0.3)
        print(0, flush=True)
