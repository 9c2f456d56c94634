#!/usr/bin/env python3
"""A nondeterministic CardJitsu bot: picks its card from the clock
(time.time_ns()), so two plays of the same seeded game differ. Used by
`dojo replay --rerun` tests."""
import sys
import time


def main():
    for line in sys.stdin:
        line = line.strip()
        if line.startswith("Player ") or line == "Draw!":
            return
        if "," in line and " vs. " not in line:
            print(time.time_ns() // 1000 % 5, flush=True)


main()
