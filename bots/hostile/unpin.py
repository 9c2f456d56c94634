#!/usr/bin/env python3
"""Tries to undo its CPU pinning, then plays.

On start it asks for every CPU of the machine (`sched_setaffinity`) and
reports on stderr the CPUs it may run on before and after, and what the
call answered. It answers every hand with 0 if it is still on one CPU
(its pinning held) and with 1 if it widened its affinity.
"""
import os
import sys

before = sorted(os.sched_getaffinity(0))
try:
    os.sched_setaffinity(0, range(os.cpu_count() or 1))
    result = "allowed"
except OSError as error:
    result = f"refused: {error.strerror}"
after = sorted(os.sched_getaffinity(0))
print(f"unpin: before {before} after {after} ({result})", file=sys.stderr, flush=True)
answer = 0 if len(after) == 1 else 1
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(answer, flush=True)
