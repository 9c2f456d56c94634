#!/usr/bin/env python3
"""Makes system calls no bot needs, through the C library:
ptrace(PTRACE_TRACEME), unshare(CLONE_NEWUSER), a mount on a path that
does not exist (so that, unfiltered, it fails harmlessly with ENOENT
instead of mounting anything) and io_setup(1, ...), whose context is
counted in the machine-wide /proc/sys/fs/aio-nr every box can read (two
bots could talk through the count), an Internet socket (a box's network
namespace has no interface up, but a send that finds no route still
counts in its /proc/net/snmp, which the box keeps for its next game),
and the page cache's ways to tell or clear whether a page of a file is
cached (a note that outlives any box): a read with RWF_NOWAIT, and
POSIX_FADV_DONTNEED and MADV_PAGEOUT on its own script; and calls on no
list of the filter,
which answer ENOSYS: personality(0xffffffff) (a harmless query that
works unfiltered) and kcmp. Answers 0 when each denied call failed with
EPERM and each unlisted one with ENOSYS (the filters' answers), 1
otherwise. Results go to stderr."""
import ctypes
import ctypes.util
import mmap
import os
import platform
import sys

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
EPERM = 1
ENOSYS = 38
CLONE_NEWUSER = 0x10000000
PTRACE_TRACEME = 0

def internet_socket():
    fd = libc.socket(2, 2, 0)  # AF_INET, SOCK_DGRAM
    if fd >= 0:
        os.close(fd)
        return 0
    return -1


own = os.open(__file__, os.O_RDONLY)


def errno_of(call):
    """A call of Python's own as the C library's: 0, or -1 and errno."""
    try:
        call()
        return 0
    except OSError as e:
        ctypes.set_errno(e.errno)
        return -1


def read_nowait():
    buf = bytearray(1)
    os.preadv(own, [buf], 0, os.RWF_NOWAIT)


def page_out():
    with mmap.mmap(own, 0, prot=mmap.PROT_READ) as m:
        m.madvise(21)  # MADV_PAGEOUT (Linux 5.4)


calls = {
    "ptrace": lambda: libc.ptrace(PTRACE_TRACEME, 0, None, None),
    "socket": internet_socket,
    "preadv2-nowait": lambda: errno_of(read_nowait),
    "madvise-pageout": lambda: errno_of(page_out),
    "unshare": lambda: libc.unshare(CLONE_NEWUSER),
    "mount": lambda: libc.mount(b"none", b"/nonexistent-dojo-test", b"tmpfs", 0, None),
}
# io_setup has no C library wrapper: its number on the architectures dojo
# runs on.
SYS_IO_SETUP = {"x86_64": 206, "aarch64": 0}.get(platform.machine())
SYS_FADVISE64 = {"x86_64": 221, "aarch64": 223}.get(platform.machine())
if SYS_FADVISE64 is not None:
    calls["fadvise-dontneed"] = lambda: libc.syscall(SYS_FADVISE64, own, 0, 0, 4)
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
