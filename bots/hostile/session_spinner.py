#!/usr/bin/env python3
"""Crowds its opponent out of the CPU: starts N (120) children, each in a
session of its own (`setsid`, so the scheduler's autogroups give each a
share of the CPU as large as a whole session's), and after answering
every hand (with card 0, at once) has each of them spin for SECONDS (5)
while the opponent thinks. A bot given a long move time of its own
(`[time] timeout_ms`) pays for the spinning within it, while its
opponent, charged only its own CPU under `--time cpu`, still meets the
wall-clock backstop."""
import os
import sys
import time


def spinner(wake, seconds):
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.setsid()
    # A byte per round to spin for; end of file once the bot is gone.
    while os.read(wake, 1):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            pass
    os._exit(0)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 120
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
    wake, kick = os.pipe()
    for _ in range(n):
        if os.fork() == 0:
            os.close(kick)
            spinner(wake, seconds)
    os.close(wake)
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        line = line.strip()
        if line.startswith("Player ") or line == "Draw!":
            return
        if "," in line and " vs. " not in line:
            print(0, flush=True)
            os.write(kick, b"x" * n)


main()
