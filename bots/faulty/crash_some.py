#!/usr/bin/env python3
"""Relays every line to the bot run by its arguments (a strong one, say
sensei; a relative program is taken from this script's directory, as a
sandboxed bot sees only its own) and answers with its answers, but in one game of four (by the
game's DOJO_SEED) writes `crash_some: the bug` to stderr and exits 1 at
its fifth move, as a bug on some deals would; started again, it relays
the rest of the game."""
import hashlib
import os
import subprocess
import sys

seed = os.environ.get("DOJO_SEED", "")
bad = int(hashlib.sha256(seed.encode()).hexdigest(), 16) % 4 == 0
crashed = os.path.join(os.environ.get("HOME", "."), "crashed")
command = sys.argv[1:]
command[0] = os.path.join(os.path.dirname(os.path.abspath(__file__)), command[0])
inner = subprocess.Popen(
    command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
)
moves = 0
for line in sys.stdin:
    inner.stdin.write(line)
    inner.stdin.flush()
    s = line.strip()
    if "," in s and " vs. " not in s:
        moves += 1
        if bad and moves == 5 and not os.path.exists(crashed):
            open(crashed, "w").close()
            print("crash_some: the bug", file=sys.stderr, flush=True)
            sys.exit(1)
        print(inner.stdout.readline().strip(), flush=True)
    elif s.startswith("Player") or s == "Draw!":
        break
