#!/usr/bin/env python3
"""Answers two hands, then removes its own execute bit and exits 1, so it
cannot be started again."""
import os
import sys

answered = 0
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        if answered == 2:
            os.chmod(os.path.abspath(sys.argv[0]), 0o644)
            sys.exit(1)
        print(0, flush=True)
        answered += 1
