#!/usr/bin/env python3
"""Fills its scratch directory (HOME), to fill the disk it is on.

Run as `scratch_filler.py bytes MIB`: writes files of 16 MiB (under the
file size limit) until MIB MiB are written or a write fails; as
`scratch_filler.py inodes N`: makes empty files until N are made or one
fails. With a third argument `hang` it then sleeps instead of playing
(for a test that kills dojo meanwhile). Reports on stderr
`filled\tMODE\tCOUNT\tERRNO\tTOTAL_MIB` (COUNT: MiB written or files
made, ERRNO 0 if nothing failed, TOTAL_MIB the size of the filesystem
HOME is on) and answers 0 to every hand."""
import errno
import os
import sys
import time

mode, limit = sys.argv[1], int(sys.argv[2])
home = os.environ["HOME"]
count, failed = 0, 0
try:
    if mode == "bytes":
        chunk = b"\xa5" * (1 << 20)
        while count < limit:
            with open(os.path.join(home, f"fill{count // 16}"), "ab") as f:
                for _ in range(16):
                    if count >= limit:
                        break
                    f.write(chunk)
                    f.flush()
                    count += 1
    else:
        while count < limit:
            open(os.path.join(home, f"f{count}"), "w").close()
            count += 1
except OSError as e:
    failed = e.errno or errno.EIO
st = os.statvfs(home)
total = st.f_blocks * st.f_frsize >> 20
print(f"filled\t{mode}\t{count}\t{failed}\t{total}", file=sys.stderr, flush=True)
if len(sys.argv) > 3 and sys.argv[3] == "hang":
    print("hanging", file=sys.stderr, flush=True)
    time.sleep(3600)
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    line = line.strip()
    if line.startswith("Player ") or line == "Draw!":
        sys.exit(0)
    if "," in line and " vs. " not in line:
        print(0, flush=True)
