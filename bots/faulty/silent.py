#!/usr/bin/env python3
"""Reads every line and never answers: each prompt times out."""
import sys

for _ in sys.stdin:
    pass
