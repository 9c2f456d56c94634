#!/usr/bin/env python3
"""A hostile build step (not a bot: run as a bot.toml's `build`).

Arguments: CANARIES (files outside its directory, joined by ":": another
bot's program, what another bot built in its cache),
PORT (a listener on 127.0.0.1), VARIABLE (a name in dojo's environment,
such as SECRET_TOKEN). It tries to append to the canary, to change its
metadata (its mode and times, set to what they are: Landlock does not
cover them, and a chmod to 000 would stop that bot), read the variable
and connect to the port, and also writes what an honest build
writes: a file in its own directory and one in $DOJO_CACHE. It then
writes one line per thing it reached to reached.txt in its directory
(the working directory) and exits 0, so the test reads what it got."""
import os
import socket
import sys

canaries, port, variable = sys.argv[1], int(sys.argv[2]), sys.argv[3]
reached = []
for canary in canaries.split(":"):
    try:
        with open(canary, "a") as f:
            f.write("rewritten by a build\n")
        if "canary" not in reached:
            reached.append("canary")
    except OSError as e:
        print(f"canary {canary}: {e}", file=sys.stderr)
for canary in canaries.split(":"):
    try:
        st = os.stat(canary)
        os.chmod(canary, st.st_mode & 0o7777)
        os.utime(canary, ns=(st.st_atime_ns, st.st_mtime_ns))
        if "metadata" not in reached:
            reached.append("metadata")
    except OSError as e:
        print(f"chmod {canary}: {e}", file=sys.stderr)
if os.environ.get(variable):
    reached.append("secret")
try:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"a build was here\n")
    reached.append("network")
except OSError as e:
    print(f"connect: {e}", file=sys.stderr)
try:
    with open("built.txt", "w") as f:
        f.write("built\n")
    reached.append("own-directory")
except OSError as e:
    print(f"own directory: {e}", file=sys.stderr)
cache = os.environ.get("DOJO_CACHE", "")
try:
    with open(os.path.join(cache, "built.txt"), "w") as f:
        f.write("built\n")
    reached.append("cache")
except OSError as e:
    print(f"cache {cache!r}: {e}", file=sys.stderr)
with open("reached.txt", "w") as f:
    f.write("".join(r + "\n" for r in reached))
