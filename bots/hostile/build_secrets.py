#!/usr/bin/env python3
"""A hostile build step (not a bot: run as a bot.toml's `build`).

It tries to read the host's /etc/shadow (root's only: a build runs as
dojo's user, which owns it as root) and to change a source file in
cargo's shared download cache, $CARGO_HOME/registry/src/dojo-test/lib.rs
(every later build that used that crate would compile the change, the
host's own builds included). It writes one line per thing it reached to
reached.txt in its directory (the working directory) and exits 0:
`shadow` (it read the file's text), `cargo-cache` (its write went
through and reads back in its own view)."""
import os
import sys

reached = []
try:
    with open("/etc/shadow") as f:
        if f.read().strip():
            reached.append("shadow")
except OSError as e:
    print(f"shadow: {e}", file=sys.stderr)
source = os.path.join(os.environ.get("CARGO_HOME", ""), "registry/src/dojo-test/lib.rs")
try:
    with open(source, "a") as f:
        f.write("// changed by a build\n")
    with open(source) as f:
        if "changed by a build" in f.read():
            reached.append("cargo-cache")
except OSError as e:
    print(f"cargo cache: {e}", file=sys.stderr)
with open("reached.txt", "w") as f:
    f.write("".join(r + "\n" for r in reached))
