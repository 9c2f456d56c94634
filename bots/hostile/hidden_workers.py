#!/usr/bin/env python3
"""Hides its CPU time from a clock that reads the process tree: on every
hand it runs N (60) workers one after the other, each burning SECONDS
(0.025) of CPU and exiting, with SIGCHLD ignored so the kernel reaps them
at once and their time never reaches the bot's cutime (and a look at the
live tree finds at most one short worker); then it answers 0."""
import os
import signal
import sys
import time

workers = int(sys.argv[1]) if len(sys.argv) > 1 else 60
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 0.025
signal.signal(signal.SIGCHLD, signal.SIG_IGN)


def burn():
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    os._exit(0)


while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        for _ in range(workers):
            if os.fork() == 0:
                burn()
            # With SIGCHLD ignored, wait returns (ECHILD) once it is gone.
            try:
                os.wait()
            except ChildProcessError:
                pass
        print(0, flush=True)
