#!/usr/bin/env python3
"""Makes system calls no bot needs, through the C library:
ptrace(PTRACE_TRACEME), unshare(CLONE_NEWUSER), a mount on a path that
does not exist (so that, unfiltered, it fails harmlessly with ENOENT
instead of mounting anything) and io_setup(1, ...), whose context is
counted in the machine-wide /proc/sys/fs/aio-nr every box can read (two
bots could talk through the count); and calls on no list of the filter,
which answer ENOSYS: personality(0xffffffff) (a harmless query that
works unfiltered) and kcmp. Answers 0 when each denied call failed with
EPERM and each unlisted one with ENOSYS (the filters' answers), 1
otherwise. Results go to stderr."""
import ctypes
import ctypes.util
import platform
import sys

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
EPERM = 1
ENOSYS = 38
CLONE_NEWUSER = 0x10000000
PTRACE_TRACEME = 0

calls = {
    "ptrace": lambda: libc.ptrace(PTRACE_TRACEME, 0, None, None),
    "unshare": lambda: libc.unshare(CLONE_NEWUSER),
    "mount": lambda: libc.mount(b"none", b"/nonexistent-dojo-test", b"tmpfs", 0, None),
}
# io_setup has no C library wrapper: its number on the architectures dojo
# runs on.
SYS_IO_SETUP = {"x86_64": 206, "aarch64": 0}.get(platform.machine())
if SYS_IO_SETUP is not None:
    aio_context = ctypes.c_ulong(0)
    calls["io_setup"] = lambda: libc.syscall(SYS_IO_SETUP, 1, ctypes.byref(aio_context))
# Calls on no list of the filter (ENOSYS).
unlisted = {
    "personality": lambda: libc.personality(0xFFFFFFFF),
}
SYS_KCMP = {"x86_64": 312, "aarch64": 272}.get(platform.machine())
if SYS_KCMP is not None:
    unlisted["kcmp"] = lambda: libc.syscall(SYS_KCMP, 0, 0, 0, 0, 0)
results = {}
for name, call in calls.items():
    rc = call()
    results[name] = 0 if rc == 0 else ctypes.get_errno()
unlisted_results = {}
for name, call in unlisted.items():
    rc = call()
    unlisted_results[name] = 0 if rc != -1 else ctypes.get_errno()
print(f"errno by call (0: it worked): {results} {unlisted_results}", file=sys.stderr, flush=True)
denied = all(e == EPERM for e in results.values())
answer = 0 if denied and all(e == ENOSYS for e in unlisted_results.values()) else 1
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(answer, flush=True)
