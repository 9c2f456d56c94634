#!/usr/bin/env python3
"""Leaves itself notes in what its box keeps between games, and plays
differently when it finds one: a bot that could carry its last game's
deal (its opponent's hand in the seat-swapped twin game) into the next.

At start it looks for the notes a previous game of its own would have
left on its scratch directory (HOME): an extended attribute, a file, the
directory's mode and its modification time; and in its network
namespace's counters (sends that found no route, in /proc/net/snmp); and it notes the System V
and PID counters as it finds them (its own pid, the ids of two fresh
shared memory segments). It reports the notes and its pid on stderr in
one line (`notes\t...`), the segments' ids in another (`ipc\t...`), then leaves each note and moves the counters on (forks
five children, makes and removes five segments). It answers every hand
with 1 if it found any note, else 0: deterministic, so a game in a
reused box plays and reports exactly as one in a fresh box, or it met
its notes."""
import ctypes
import ctypes.util
import os
import socket
import sys

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
IPC_PRIVATE = 0
IPC_CREAT = 0o1000
IPC_RMID = 0
MARK_MODE = 0o751
MARK_TIME = 1_000_000_000

home = os.environ["HOME"]
found = []
try:
    if os.getxattr(home, "user.dojo-note"):
        found.append("xattr")
except OSError:
    pass
if os.path.exists(os.path.join(home, "note.txt")):
    found.append("file")
st = os.stat(home)
if st.st_mode & 0o777 == MARK_MODE:
    found.append("mode")
if int(st.st_mtime) == MARK_TIME:
    found.append("mtime")


def no_routes():
    """Ip OutNoRoutes of this network namespace (0 if unreadable)."""
    try:
        with open("/proc/net/snmp") as f:
            lines = [line.split() for line in f if line.startswith("Ip:")]
        return int(dict(zip(lines[0][1:], lines[1][1:]))["OutNoRoutes"])
    except (OSError, IndexError, KeyError, ValueError):
        return 0


if no_routes() > 0:
    found.append("netns")


def segment():
    return libc.shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0o600)


ids = [segment(), segment()]
for i in ids:
    if i >= 0:
        libc.shmctl(i, IPC_RMID, None)
print(f"notes\t{','.join(found) or 'none'}\tpid {os.getpid()}", file=sys.stderr, flush=True)
# Not a note, but what a bot could play by: its control groups' names
# (their paths name dojo's pid and the box's number, which differ between
# a fresh box and a reused one, unless a cgroup namespace hides them).
with open("/proc/self/cgroup") as f:
    groups = "|".join(sorted({line.strip().split(":", 2)[2] for line in f}))
print(f"cgroup\t{groups}", file=sys.stderr, flush=True)
# Not a note it plays by: a reused box's System V ids go on from where
# the last game left them (see docs/sandbox.md).
print(f"ipc\tshm {ids[0]} {ids[1]}", file=sys.stderr, flush=True)

# Notes for the next game.
left = []
try:
    os.setxattr(home, "user.dojo-note", b"the deal")
    left.append("xattr")
except OSError as e:
    left.append(f"xattr:{e.errno}")
with open(os.path.join(home, "note.txt"), "w") as f:
    f.write("the deal\n")
try:
    # No interface is up: each send finds no route, and counts.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _ in range(3):
            try:
                s.sendto(b"the deal", ("127.0.0.1", 9))
            except OSError:
                pass
    left.append("netns")
except OSError as e:
    left.append(f"netns:{e.errno}")
for _ in range(5):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
for _ in range(5):
    i = segment()
    if i >= 0:
        libc.shmctl(i, IPC_RMID, None)
os.chmod(home, MARK_MODE)
os.utime(home, (MARK_TIME, MARK_TIME))
print(f"left\t{','.join(left)}", file=sys.stderr, flush=True)

answer = 1 if found else 0
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    line = line.strip()
    if line.startswith("Player ") or line == "Draw!":
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(answer, flush=True)
