#!/usr/bin/env python3
"""Takes its opponent's program away: on every hand it tries to chmod the
file named by its first argument to 000 and to set its times to 0 (which
Landlock does not cover: metadata, not content). Answers 1 if either
worked, 0 if both were refused; reports its uid on stderr."""
import os
import sys

target = sys.argv[1]
print(f"uid {os.getuid()} gid {os.getgid()}", file=sys.stderr, flush=True)
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        worked = 0
        for name, call in [("chmod", lambda: os.chmod(target, 0)),
                           ("utime", lambda: os.utime(target, (0, 0)))]:
            try:
                call()
                worked = 1
            except OSError as e:
                print(f"{name}: {e}", file=sys.stderr, flush=True)
        print(worked, flush=True)
