#!/usr/bin/env python3
"""Reaches for kernel interfaces no bot needs, and for a host service:
inotify (machine-wide watches), io_uring, vsock, netlink, packet and raw
sockets, a datagram socket pair, and `connect` to the pathname Unix socket
given as its first argument (answering it with "hello" if it connects).
Answers 0 when every one failed with EPERM, 1 otherwise. Results go to
stderr."""
import ctypes
import ctypes.util
import errno
import socket
import sys

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
path = sys.argv[1]


def c_call(fn, *args):
    rc = fn(*args)
    return 0 if rc >= 0 else ctypes.get_errno()


def sock(family, kind):
    try:
        socket.socket(family, kind).close()
        return 0
    except OSError as e:
        return e.errno


def pair():
    try:
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        a.close()
        b.close()
        return 0
    except OSError as e:
        return e.errno


def unix_connect():
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(path)
            s.sendall(b"hello\n")
        return 0
    except OSError as e:
        return e.errno


# io_uring_setup(entries, params): number 425 on every architecture.
params = ctypes.create_string_buffer(120)
results = {
    "inotify_init1": c_call(libc.inotify_init1, 0),
    "io_uring_setup": c_call(libc.syscall, 425, 4, params),
    "vsock": sock(40, socket.SOCK_STREAM),
    "netlink": sock(16, socket.SOCK_RAW),
    "packet": sock(17, socket.SOCK_DGRAM),
    "raw": sock(socket.AF_INET, socket.SOCK_RAW),
    "dgram_pair": pair(),
    "unix_connect": unix_connect(),
}
print(f"errno by call (0: it worked): {results}", file=sys.stderr, flush=True)
answer = 0 if all(e == errno.EPERM for e in results.values()) else 1
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(answer, flush=True)
