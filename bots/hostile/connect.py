#!/usr/bin/env python3
"""Tries to connect to 127.0.0.1:PORT (its first argument) on every hand;
answers 1 if a connection was made, 0 if not."""
import socket
import sys

port = int(sys.argv[1])
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                answer = 1
        except OSError as e:
            print(f"connect: {e}", file=sys.stderr, flush=True)
            answer = 0
        print(answer, flush=True)
