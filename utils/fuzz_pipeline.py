#!/usr/bin/python3
"""Randomized differential testing of the whole mplan pipeline: the entry point of the package
utils/fuzz/ (a module per program kind in utils/fuzz/kinds/, the shared builders, the runner).
`--help` describes a run, `--list-kinds` the kinds."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz.runner import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
