#!/usr/bin/env python3
"""Tries to reach what a confined bot must not: reads each path given as
an argument (a file, or a directory to list), writes a file beside each,
overwrites each file, and writes into its own directory; also writes into
$TMPDIR (its scratch directory), which must work. Answers 0 when nothing
outside was reached and the scratch write worked, 1 when anything outside
was reached, 2 when even the scratch write failed. What it managed goes
to stderr."""
import os
import sys

reached = []


def attempt(what, action):
    try:
        action()
        reached.append(what)
    except OSError as e:
        print(f"{what}: {e.strerror}", file=sys.stderr, flush=True)


def read(path):
    if os.path.isdir(path):
        os.listdir(path)
    else:
        with open(path, "rb") as f:
            f.read()


def write(path):
    with open(path, "w") as f:
        f.write("snooped\n")


targets = sys.argv[1:]
for path in targets:
    attempt(f"read {path}", lambda: read(path))
    if not os.path.isdir(path):
        attempt(f"overwrite {path}", lambda: write(path))
    beside = os.path.join(os.path.dirname(os.path.abspath(path)), "snooped.txt")
    attempt(f"write {beside}", lambda: write(beside))
own = os.path.join(os.path.dirname(os.path.abspath(__file__)), "snooped.txt")
attempt(f"write {own}", lambda: write(own))
try:
    write(os.path.join(os.environ["TMPDIR"], "mine.txt"))
    scratch_ok = True
except (OSError, KeyError) as e:
    print(f"scratch: {e}", file=sys.stderr, flush=True)
    scratch_ok = False
print(f"reached: {reached}", file=sys.stderr, flush=True)
answer = 1 if reached else (0 if scratch_ok else 2)
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(answer, flush=True)
