#!/usr/bin/env python3
"""Exits with status 0 at once, without reading anything."""
import sys

sys.exit(0)
