#!/usr/bin/env python3
"""Every hand, goes for PID 1 (in a box, the box's init, which starts
every later process of the seat): reads its command line and the
signals it has handlers for (`SigCgt`, in hex), sets its
open-files limit to 4 (an init that can hold no descriptor starts no bot
again), renices it, makes it SCHED_IDLE, and sends it signals 1 to 8 and
10 to 18 back to back (a handler dojo left in it would run). Reports each
on stderr (`init\\tWHAT\\tRESULT`: `ok` or the errno's name), and its own
capability sets, no-new-privileges and seccomp mode as the kernel shows
them (`init\\tself\\tCapPrm=... Seccomp=...`: what the init keeps for its
own work must not reach a bot), then answers 0. The next hand, game or
process of the seat starts only if the init took none of it."""
import errno
import os
import resource
import signal
import sys


def result(call):
    try:
        call()
        return "ok"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))


def report(what, outcome):
    print(f"init\t{what}\t{outcome}", file=sys.stderr, flush=True)


def cmdline():
    with open("/proc/1/cmdline", "rb") as f:
        report("cmdline", f.read().replace(b"\0", b" ").decode(errors="replace").strip())


def caught():
    with open("/proc/1/status") as f:
        for line in f:
            if line.startswith("SigCgt:"):
                report("caught", line.split()[1])


def own_status():
    wanted = ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp")
    with open("/proc/self/status") as f:
        fields = [line.split(":") for line in f]
    report("self", " ".join(f"{k}={v.strip()}" for k, v in fields if k in wanted))


def attack():
    own_status()
    report("cmdline-read", result(cmdline))
    report("status-read", result(caught))
    limit = (4, 4)
    report("prlimit", result(lambda: resource.prlimit(1, resource.RLIMIT_NOFILE, limit)))
    report("setpriority", result(lambda: os.setpriority(os.PRIO_PROCESS, 1, 19)))
    idle = os.sched_param(0)
    report("sched_setscheduler", result(lambda: os.sched_setscheduler(1, os.SCHED_IDLE, idle)))
    signals = [s for s in range(1, 19) if s not in (signal.SIGKILL,)]
    report("signals", ",".join(f"{s}:{result(lambda s=s: os.kill(1, s))}" for s in signals))


while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        attack()
        print(0, flush=True)
