"""What ``python3 -m mplan`` and ``python3 -m mplan.viz`` share: every error
is one line on stderr and a non-zero exit status, never a traceback (unless
``--debug`` or the environment variable ``MPLAN_DEBUG=1`` asks for one)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, NoReturn

from .errors import Error

#: Exit status of errors in the input, the options or the output.
EXIT_ERROR = 1
#: Exit status of command-line syntax errors (as argparse).
EXIT_USAGE = 2
#: Exit status of an unexpected exception (a bug in mplan).
EXIT_INTERNAL = 70


class ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage block)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {one_line(message)} (see --help)\n")


def add_debug_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--debug", action="store_true",
                        help="show the Python traceback of errors (also: MPLAN_DEBUG=1)")


def one_line(text: object) -> str:
    return "; ".join(line.strip() for line in str(text).splitlines() if line.strip())


def run(prog: str, body: Callable[[], int], debug: bool = False) -> int:
    """Runs ``body`` and turns every exception into one line on stderr and an
    exit status: mplan errors and OSErrors 1, anything else (a bug) 70."""
    debug = debug or os.environ.get("MPLAN_DEBUG", "") not in ("", "0")
    try:
        return body()
    except KeyboardInterrupt:
        if debug:
            raise
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # noqa: BLE001 - the point of this function
        if debug:
            raise
        if isinstance(e, Error):
            print(f"{prog}: error: {one_line(e)}", file=sys.stderr)
            return EXIT_ERROR
        if isinstance(e, OSError):
            what = f"{e.filename}: {e.strerror}" if e.filename and e.strerror else str(e)
            print(f"{prog}: error: {one_line(what)}", file=sys.stderr)
            return EXIT_ERROR
        print(f"{prog}: internal error: {type(e).__name__}: {one_line(e)} "
              f"(run with MPLAN_DEBUG=1 for the traceback)", file=sys.stderr)
        return EXIT_INTERNAL
