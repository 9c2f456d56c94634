#!/usr/bin/env python3
"""Run from its own build cache (`python3 $DOJO_CACHE/cache_peeker.py`,
as a build would have left it there): reads what its build left beside it
(`$DOJO_CACHE/classes/Own.class`, as a Java bot's classes), then each
FILE given (another bot's build output), and lists the directory given
with `--ls DIR` (the cache root every bot's cache lies in). Reports each
on stderr, `peeker<TAB>WHAT<TAB>PATH<TAB>RESULT` (RESULT: the text read,
the entries comma-separated, or `!ERRNO-NAME`), then answers 0 to every
hand."""
import errno
import os
import sys

own = os.path.dirname(os.path.realpath(__file__))


def report(what, path, result):
    print(f"peeker\t{what}\t{path}\t{result}", file=sys.stderr, flush=True)


def failed(e):
    return "!" + errno.errorcode.get(e.errno, str(e.errno))


args = sys.argv[1:]
listed = []
while "--ls" in args:
    at = args.index("--ls")
    listed.append(args[at + 1])
    del args[at : at + 2]
for path in [os.path.join(own, "classes", "Own.class")] + args:
    try:
        with open(path) as f:
            report("read", path, f.read().strip())
    except OSError as e:
        report("read", path, failed(e))
for path in listed:
    try:
        report("ls", path, ",".join(sorted(os.listdir(path))))
    except OSError as e:
        report("ls", path, failed(e))
report("done", "-", "-")

while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(0, flush=True)
