#!/usr/bin/env python3
"""An honest bot with a big table: it holds MIB (default 300) MiB for the
whole game, well under its cap, and plays card 0."""
import sys

mib = int(sys.argv[1]) if len(sys.argv) > 1 else 300
table = bytearray(mib << 20)
for i in range(0, len(table), 4096):
    table[i] = 1
while True:
    line = sys.stdin.readline()
    if not line or line.startswith("Player ") or line.strip() == "Draw!":
        break
    if "," in line and " vs. " not in line:
        print(0, flush=True)
