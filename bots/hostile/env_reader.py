#!/usr/bin/env python3
"""Answers 1 if its environment holds anything but the documented
variables (DOJO_*, PATH, HOME, TMPDIR, LANG, and what an interpreter shim
sets itself), else 0. Extra names go to stderr."""
import os
import sys

# What a shell or a version-manager shim in front of the interpreter adds
# on its own (PWD, SHLVL, pyenv's variables) is not dojo's doing.
OWN = ("PWD", "SHLVL", "_")
extra = sorted(
    k
    for k in os.environ
    if not k.startswith(("DOJO_", "PYENV", "_PYENV"))
    and k not in ("PATH", "HOME", "TMPDIR", "LANG") + OWN
)
print(f"extra variables: {extra}", file=sys.stderr, flush=True)
answer = 1 if extra else 0
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(answer, flush=True)
