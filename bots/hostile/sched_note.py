#!/usr/bin/env python3
"""Reads the scheduler's virtual runtime of its own first thread
(`se.vruntime` in /proc/self/sched) and plays by it: a new process starts
at its run queue's virtual runtime, so where its box's CPU group lives
on from game to game, the value grows with the CPU its earlier games
used, and a bot that spins leaves its next game a note.

Usage: sched_note.py [SPIN_SECONDS]. It reports the value in
milliseconds on stderr (`vruntime\t...`). Above half a second it found a
note and answers every hand with 1; else it spins SPIN_SECONDS (1) of
CPU to leave one for its next game and answers every hand with 0."""
import sys
import time

NOTE_MS = 500.0


def vruntime_ms():
    try:
        with open("/proc/self/sched") as f:
            for line in f:
                if line.startswith("se.vruntime"):
                    return float(line.split(":")[1])
    except (OSError, ValueError):
        pass
    return -1.0


seen = vruntime_ms()
print(f"vruntime\t{seen:.0f}", file=sys.stderr, flush=True)
answer = 1 if seen > NOTE_MS else 0
if not answer:
    spin = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    end = time.process_time() + spin
    while time.process_time() < end:
        pass
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    line = line.strip()
    if line.startswith("Player ") or line == "Draw!":
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(answer, flush=True)
