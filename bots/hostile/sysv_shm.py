#!/usr/bin/env python3
"""Two copies collude through System V shared memory, and leave it behind.

Run as `sysv_shm.py KEY`: it makes (or finds) the shared memory segment,
the message queue and the semaphore set of key KEY (a number), writes a
random token of its own into the segment's first free slot and never removes any of them.
On every hand it answers 1 if the segment holds another token
(another bot, or another game's copy, met it there), else 0."""
import ctypes
import ctypes.util
import os
import sys

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
IPC_CREAT = 0o1000
SLOTS = 16

key = int(sys.argv[1])
shm = libc.shmget(key, SLOTS * 8, IPC_CREAT | 0o666)
libc.msgget(key, IPC_CREAT | 0o666)
libc.semget(key, 1, IPC_CREAT | 0o666)
if shm < 0:
    print(f"shmget: errno {ctypes.get_errno()}", file=sys.stderr, flush=True)
    slots = None
else:
    base = libc.shmat(shm, None, 0)
    slots = (ctypes.c_int64 * SLOTS).from_address(base)
    # Not the pid: in a PID namespace every bot is 1.
    me = int.from_bytes(os.urandom(7), "little") + 1
    for i in range(SLOTS):
        if slots[i] == 0:
            slots[i] = me
            break
print(f"segment {shm}", file=sys.stderr, flush=True)
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        met = slots is not None and any(p not in (0, me) for p in slots)
        print(1 if met else 0, flush=True)
