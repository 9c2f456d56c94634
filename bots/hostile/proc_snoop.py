#!/usr/bin/env python3
"""Looks through /proc for other processes: reads each one's environment
(looking for the test harness's CARGO_* variables, which no bot is given)
and opens its stdin/stdout (another bot's pipes). Answers 1 if it read a
foreign environment or opened a foreign descriptor, else 0. Findings go to
stderr."""
import os
import sys

mine = {os.getpid()}
found = []
for name in os.listdir("/proc"):
    if not name.isdigit() or int(name) in mine:
        continue
    try:
        with open(f"/proc/{name}/environ", "rb") as f:
            if b"CARGO" in f.read():
                found.append(f"{name}: environ")
    except OSError:
        pass
    for fd in ("0", "1"):
        try:
            os.close(os.open(f"/proc/{name}/fd/{fd}", os.O_RDONLY | os.O_NONBLOCK))
            found.append(f"{name}: fd {fd}")
        except OSError:
            pass
print(f"reached: {found[:10]}", file=sys.stderr, flush=True)
answer = 1 if found else 0
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(answer, flush=True)
