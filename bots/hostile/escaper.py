#!/usr/bin/env python3
"""Leaves processes behind in every way a bot can, then plays normally.

On start it creates: a `setsid` + double-fork grandchild that keeps the
bot's stdout and stderr open; a child that moves to its own process group
(`setpgid`); and a classic daemon (double fork, `setsid`, chdir /, all
descriptors closed). All of them sleep forever, some busy-looping. They
keep the bot's command line, so a test finds them by the tag it passed as
the first argument. Then it answers every hand with card 0.
"""
import os
import sys
import time


def sleep_forever(busy=False):
    while True:
        if busy:
            for _ in range(10**6):
                pass
        else:
            time.sleep(1000)


def escape_setsid_double_fork():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            sleep_forever()  # holds stdout/stderr of the bot
        os._exit(0)


def escape_setpgid():
    if os.fork() == 0:
        os.setpgid(0, 0)
        sleep_forever(busy=True)


def daemon():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.chdir("/")
            os.closerange(0, 1024)
            sleep_forever(busy=True)
        os._exit(0)


sys.stdout.flush()
escape_setsid_double_fork()
escape_setpgid()
daemon()
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(0, flush=True)
