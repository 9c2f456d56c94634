#!/usr/bin/env python3
"""Closes its stdout at once and keeps running (reading stdin), so it can
never answer."""
import os
import sys

os.close(1)
for line in sys.stdin:
    pass
