#!/usr/bin/env python3
"""Looks around the filesystem it was given: lists `/`, `/tmp`, `/dev`,
`/run`, the parent of its own directory and that of the directory named
by its first argument (its opponent's), asks whether that directory and
`/run`, `/home` and `/var/run` exist, tries to write a file into its own
directory and to chmod its own program (to the mode it already has, so
that nothing changes where that works). Reports each on stderr, one line
each, `looker<TAB>WHAT<TAB>PATH<TAB>RESULT` (RESULT: the entries
comma-separated, `yes`/`no`, `ok`, or `!ERRNO-NAME`), then answers 0 to
every hand."""
import errno
import os
import sys

opponent = os.path.realpath(sys.argv[1])
program = os.path.realpath(__file__)
own = os.path.dirname(program)


def report(what, path, result):
    print(f"looker\t{what}\t{path}\t{result}", file=sys.stderr, flush=True)


def failed(e):
    return "!" + errno.errorcode.get(e.errno, str(e.errno))


for path in ["/", "/tmp", "/dev", "/run", os.path.dirname(own), os.path.dirname(opponent)]:
    try:
        report("ls", path, ",".join(sorted(os.listdir(path))))
    except OSError as e:
        report("ls", path, failed(e))
for path in [opponent, "/run", "/home", "/var/run"]:
    report("exists", path, "yes" if os.path.lexists(path) else "no")
try:
    with open(os.path.join(own, "looker-was-here.txt"), "w") as f:
        f.write("written\n")
    report("write", own, "ok")
except OSError as e:
    report("write", own, failed(e))
try:
    os.chmod(program, os.stat(program).st_mode & 0o7777)
    report("chmod", program, "ok")
except OSError as e:
    report("chmod", program, failed(e))
report("done", "-", "-")

while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(0, flush=True)
