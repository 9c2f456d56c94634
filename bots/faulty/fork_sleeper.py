#!/usr/bin/env python3
"""Starts a `sleep 1000` child (in the same process group), then hangs.

Checks that the harness kills the whole group, not just the bot. The
child's pid goes to stderr so tests can check it is gone.
"""
import subprocess
import sys
import time

child = subprocess.Popen(["sleep", "1000"])
print(f"sleeper pid {child.pid}", file=sys.stderr, flush=True)
while True:
    time.sleep(1000)
