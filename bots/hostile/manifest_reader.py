#!/usr/bin/env python3
"""Reads the file named by its first argument, which its bot.toml names
outside its own directory as if it were the script of `python3 -c...`:

    command = ["python3", "-cexec(open('manifest_reader.py').read())", "../victim/secret.txt"]

Answers 1 on every hand if it could read the file, 0 if not."""
import sys

try:
    with open(sys.argv[1]) as f:
        f.read()
    answer = 1
except OSError as e:
    print(f"read {sys.argv[1]}: {e}", file=sys.stderr, flush=True)
    answer = 0
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(answer, flush=True)
