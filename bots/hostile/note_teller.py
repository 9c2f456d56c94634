#!/usr/bin/env python3
"""note_keeper.py's notes, told in its moves: it leaves itself notes in
what its box keeps between games and plays by what it finds, so a note
that reaches a later game changes that game's record (its cards, and with
them the game), not only its stderr.

At start it looks for the notes an earlier game of its own would have
left on its notes directory (its scratch directory, HOME): an extended
attribute, a file (which counts the games that left it), the directory's
mode and its modification time. Words:

- `pid`: it also plays by its own pid (a box sets the PID counter back
  for every game, so it is the same in each; without a PID namespace it
  is the host's, any number);
- `ipc`: and by the ids of two fresh System V shared memory segments (a
  box's IPC namespace gives out its ids from where its last game left
  them, see docs/sandbox.md);
- `keep-in:DIR`: its notes directory is DIR, which nothing empties
  between games (a bot without a box writes where it likes): the leak
  turned on, for a test to show that a note does change the record.

It reports what it found on stderr (`notes\t...`), leaves each note and
moves the counters on (forks five children, with `ipc` makes and removes
five segments). It answers the k-th hand of a game with byte k of the
SHA-256 of what it found, modulo the hand's five cards: deterministic, so
two games with the same seed and the same findings are the same game."""
import ctypes
import ctypes.util
import hashlib
import os
import sys

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
IPC_PRIVATE = 0
IPC_CREAT = 0o1000
IPC_RMID = 0
MARK_MODE = 0o751
MARK_TIME = 1_000_000_000

words = sys.argv[1:]
notes = os.environ["HOME"]
for w in words:
    if w.startswith("keep-in:"):
        notes = w[len("keep-in:"):]

found = []
try:
    if os.getxattr(notes, "user.dojo-note"):
        found.append("xattr")
except OSError:
    pass
# The file counts the games that left it: a note that changes from game
# to game, as a deal would.
games = 0
try:
    with open(os.path.join(notes, "note.txt")) as f:
        games = int(f.read().strip() or 0)
    found.append(f"file {games}")
except (OSError, ValueError):
    pass
st = os.stat(notes)
if st.st_mode & 0o777 == MARK_MODE:
    found.append("mode")
if int(st.st_mtime) == MARK_TIME:
    found.append("mtime")
if "pid" in words:
    found.append(f"pid {os.getpid()}")


def segment():
    return libc.shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0o600)


if "ipc" in words:
    ids = [segment(), segment()]
    for i in ids:
        if i >= 0:
            libc.shmctl(i, IPC_RMID, None)
    found.append(f"shm {ids[0]} {ids[1]}")
told = ",".join(found) or "none"
print(f"notes\t{told}", file=sys.stderr, flush=True)

# Notes for the next game (the extended attribute may be refused: a
# filesystem without user attributes).
try:
    os.setxattr(notes, "user.dojo-note", b"the deal")
except OSError:
    pass
with open(os.path.join(notes, "note.txt"), "w") as f:
    f.write(f"{games + 1}\n")
for _ in range(5):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
if "ipc" in words:
    for _ in range(5):
        i = segment()
        if i >= 0:
            libc.shmctl(i, IPC_RMID, None)
os.chmod(notes, MARK_MODE)
os.utime(notes, (MARK_TIME, MARK_TIME))

digest = hashlib.sha256(told.encode()).digest()
hand = 0
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    line = line.strip()
    if line.startswith("Player ") or line == "Draw!":
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(digest[hand % len(digest)] % 5, flush=True)
        hand += 1
