#!/usr/bin/env python3
"""File locks as a channel between bots. A lock belongs to the file's inode,
and every box binds the same host files read-only, so two bots (of one
game, of concurrent games, of two dojo processes) that lock and probe the
same system files talk, whatever their boxes.

`lock_channel.py probe`: tries every way to lock a file or watch one, on
a system file (and its directory) and on a file of its own scratch
directory: flock, fcntl's F_SETLK, F_SETLKW, F_GETLK, the open file
description locks F_OFD_SETLK, F_OFD_SETLKW, F_OFD_GETLK, leases
(F_SETLEASE, F_GETLEASE) and dnotify (F_NOTIFY); then the fcntl commands
an honest bot needs (file status and descriptor flags, duplicating, pipe
size, seals). Reports each on stderr, `lock\\tWHERE\\tCALL\\tRESULT` and
`needs\\tCALL\\tRESULT` (RESULT `ok` or the errno's name); answers 0 if
every lock failed with EPERM and every needed command worked, else 1.

`lock_channel.py channel TAG`: two copies, one per seat, each put a
random secret of their own every round into locks on system files (a
file locked or not per bit, the files chosen by TAG) and read the
other's by non-blocking lock attempts, waiting for it as long as the
move's time allows. Reports `round\\tN\\tmine SECRET\\ttheirs SECRET`
(`theirs ?` when no lock could be taken or seen, with the reason) on
stderr; answers 1 once it read a secret, else 0."""
import errno
import fcntl
import os
import random
import signal
import struct
import sys
import time

# fcntl's commands, by their numbers on Linux (every architecture dojo
# runs on), so that an older Python's missing names do not matter.
F_GETLK, F_SETLK, F_SETLKW = 5, 6, 7
F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW = 36, 37, 38
F_SETLEASE, F_GETLEASE, F_NOTIFY = 1024, 1025, 1026
F_DUPFD_CLOEXEC = 1030
F_SETPIPE_SZ, F_GETPIPE_SZ = 1031, 1032
F_ADD_SEALS, F_GET_SEALS = 1033, 1034
F_SEAL_WRITE = 0x8
DN_CREATE = 0x4


def errname(e):
    return errno.errorcode.get(e, str(e))


def flock_struct(kind):
    """`struct flock` (type, whence, start, len, pid; the same layout on
    x86-64 and arm64) over the whole file, pid 0 as OFD locks want."""
    return struct.pack("hhxxxxqqixxxx", kind, os.SEEK_SET, 0, 0, 0)


def system_files(limit):
    """Up to `limit` regular files under /usr/lib that this process can
    read, in an order every bot on the machine finds alike."""
    found = []
    for top, dirs, files in os.walk("/usr/lib"):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(top, name)
            if os.path.isfile(path) and not os.path.islink(path) and os.access(path, os.R_OK):
                found.append(path)
                if len(found) == limit:
                    return found
    return found


def attempt(call):
    try:
        call()
        return "ok"
    except OSError as e:
        return errname(e.errno)


def probe():
    signal.signal(signal.SIGIO, signal.SIG_IGN)  # what a dnotify event sends
    system = system_files(1)[0]
    scratch = os.path.join(os.environ.get("TMPDIR", "/tmp"), "lock_channel.db")
    with open(scratch, "w") as f:
        f.write("a file of the bot's own, as sqlite would lock it\n")
    results = []
    for where, path in [("system", system), ("scratch", scratch)]:
        fd = os.open(path, os.O_RDONLY)
        folder = os.open(os.path.dirname(path), os.O_RDONLY | os.O_DIRECTORY)
        read_lock = flock_struct(fcntl.F_RDLCK)
        write_lock = flock_struct(fcntl.F_WRLCK)
        unlock = flock_struct(fcntl.F_UNLCK)
        calls = {
            "flock": lambda: (fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB), fcntl.flock(fd, fcntl.LOCK_UN)),
            "F_SETLK": lambda: (fcntl.fcntl(fd, F_SETLK, read_lock), fcntl.fcntl(fd, F_SETLK, unlock)),
            "F_SETLKW": lambda: (fcntl.fcntl(fd, F_SETLKW, read_lock), fcntl.fcntl(fd, F_SETLK, unlock)),
            "F_GETLK": lambda: fcntl.fcntl(fd, F_GETLK, write_lock),
            "F_OFD_SETLK": lambda: (fcntl.fcntl(fd, F_OFD_SETLK, read_lock), fcntl.fcntl(fd, F_OFD_SETLK, unlock)),
            "F_OFD_SETLKW": lambda: (fcntl.fcntl(fd, F_OFD_SETLKW, read_lock), fcntl.fcntl(fd, F_OFD_SETLK, unlock)),
            "F_OFD_GETLK": lambda: fcntl.fcntl(fd, F_OFD_GETLK, write_lock),
            "F_SETLEASE": lambda: (fcntl.fcntl(fd, F_SETLEASE, fcntl.F_RDLCK), fcntl.fcntl(fd, F_SETLEASE, fcntl.F_UNLCK)),
            "F_GETLEASE": lambda: fcntl.fcntl(fd, F_GETLEASE),
            "F_NOTIFY": lambda: (fcntl.fcntl(folder, F_NOTIFY, DN_CREATE), fcntl.fcntl(folder, F_NOTIFY, 0)),
        }
        for name, call in calls.items():
            result = attempt(call)
            results.append(result)
            print(f"lock\t{where}\t{name}\t{result}", file=sys.stderr, flush=True)
        os.close(fd)
        os.close(folder)
    needed = needed_commands()
    for name, result in needed.items():
        print(f"needs\t{name}\t{result}", file=sys.stderr, flush=True)
    ok = all(r == "EPERM" for r in results) and all(r == "ok" for r in needed.values())
    return 0 if ok else 1


def needed_commands():
    """The fcntl commands runtimes and honest bots use: each `ok`, or what
    went wrong."""
    r, w = os.pipe()
    out = {}

    def check(name, call, expect):
        try:
            got = call()
            out[name] = "ok" if expect(got) else f"wrong: {got!r}"
        except OSError as e:
            out[name] = errname(e.errno)

    check("F_GETFL", lambda: fcntl.fcntl(r, fcntl.F_GETFL), lambda v: v & os.O_ACCMODE == os.O_RDONLY)
    check(
        "F_SETFL O_NONBLOCK",
        lambda: (fcntl.fcntl(r, fcntl.F_SETFL, os.O_NONBLOCK), fcntl.fcntl(r, fcntl.F_GETFL))[1],
        lambda v: v & os.O_NONBLOCK,
    )
    check(
        "F_SETFD FD_CLOEXEC",
        lambda: (fcntl.fcntl(w, fcntl.F_SETFD, fcntl.FD_CLOEXEC), fcntl.fcntl(w, fcntl.F_GETFD))[1],
        lambda v: v & fcntl.FD_CLOEXEC,
    )
    dups = []
    check("F_DUPFD", lambda: dups.append(fcntl.fcntl(r, fcntl.F_DUPFD, 50)) or dups[-1], lambda v: v >= 50)
    check(
        "F_DUPFD_CLOEXEC",
        lambda: dups.append(fcntl.fcntl(r, F_DUPFD_CLOEXEC, 60)) or fcntl.fcntl(dups[-1], fcntl.F_GETFD),
        lambda v: v & fcntl.FD_CLOEXEC and dups[-1] >= 60,
    )
    check(
        "F_SETPIPE_SZ",
        lambda: (fcntl.fcntl(w, F_SETPIPE_SZ, 1 << 16), fcntl.fcntl(w, F_GETPIPE_SZ))[1],
        lambda v: v >= 1 << 16,
    )
    memfd = os.memfd_create("sealed", os.MFD_ALLOW_SEALING)
    check(
        "F_ADD_SEALS",
        lambda: (fcntl.fcntl(memfd, F_ADD_SEALS, F_SEAL_WRITE), fcntl.fcntl(memfd, F_GET_SEALS))[1],
        lambda v: v & F_SEAL_WRITE,
    )
    for fd in [r, w, memfd] + dups:
        os.close(fd)
    return out


# The channel: per side a 'valid' flag, the round (6 bits) and the
# secret (48 bits), a file each.
ROUND_BITS, SECRET_BITS = 6, 48
SIDE = 1 + ROUND_BITS + SECRET_BITS


class Blocked(Exception):
    """No lock could be taken: the channel is closed."""


def channel(tag):
    files = system_files(512)
    random.Random(tag).shuffle(files)
    if len(files) < 2 * SIDE:
        sys.exit(f"only {len(files)} system files")
    fds = [os.open(f, os.O_RDONLY) for f in files[: 2 * SIDE]]
    # The seat: DOJO_SEAT under dojo's games, else the greeting's first
    # line (the runner's tests' referee sends the seat number).
    seat = os.environ.get("DOJO_SEAT") or sys.stdin.readline().strip()
    mine = fds[:SIDE] if seat == "1" else fds[SIDE:]
    theirs = fds[SIDE:] if seat == "1" else fds[:SIDE]

    def lock(fd, on):
        # The other side's probe holds a file of mine for an instant; one
        # held for long is a third party's (or a copy in the same seat):
        # give up rather than wait for ever.
        for _ in range(1000):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB if on else fcntl.LOCK_UN)
                return
            except BlockingIOError:
                time.sleep(0.001)
            except OSError as e:
                raise Blocked(f"flock: {errname(e.errno)}")
        raise Blocked("flock: held by another")

    def held(fd):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        except OSError as e:
            raise Blocked(f"flock: {errname(e.errno)}")
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False

    def put(bits):
        lock(mine[0], False)
        for fd, bit in zip(mine[1:], bits):
            lock(fd, bit)
        lock(mine[0], True)

    def read():
        """The other side's round and secret, once the same whole value
        was read twice under its 'valid' flag; None if not there yet."""
        seen = []
        for _ in range(2):
            if not held(theirs[0]):
                return None
            seen.append([held(fd) for fd in theirs[1:]])
            if not held(theirs[0]):
                return None
        if seen[0] != seen[1]:
            return None
        value = sum(bit << i for i, bit in enumerate(seen[0]))
        return value & ((1 << ROUND_BITS) - 1), value >> ROUND_BITS

    closed = None
    played = 0
    for line in sys.stdin:
        if "," not in line or " vs. " in line:
            continue
        played += 1
        secret = int.from_bytes(os.urandom(6), "little")
        value = (played % (1 << ROUND_BITS)) | secret << ROUND_BITS
        bits = [(value >> i) & 1 for i in range(ROUND_BITS + SECRET_BITS)]
        got = None
        if closed is None:
            try:
                put(bits)
                while got is None:
                    got = read()
                    if got is not None and got[0] != played % (1 << ROUND_BITS):
                        got = None
                    if got is None:
                        time.sleep(0.001)
            except Blocked as e:
                closed = str(e)
        theirs_text = f"{got[1]:012x}" if got else f"? ({closed})"
        print(f"round\t{played}\tmine {secret:012x}\ttheirs {theirs_text}", file=sys.stderr, flush=True)
        print(1 if got else 0, flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["probe"]:
        answer = probe()
        for line in sys.stdin:
            if "," in line and " vs. " not in line:
                print(answer, flush=True)
    elif sys.argv[1:2] == ["channel"] and len(sys.argv) == 3:
        channel(sys.argv[2])
    else:
        sys.exit("usage: lock_channel.py probe | channel TAG")
