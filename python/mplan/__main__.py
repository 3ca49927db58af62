"""``python3 -m mplan``: plan a MiniMalloc CSV like ``mplan-plan``.

    python3 -m mplan plan IN.csv -o OUT.csv [--strategy=best] [--time-limit=10] [--alignment=1]
                                      [--stagger=0]
    python3 -m mplan viz REPORT.json -o plan.svg       # same as python3 -m mplan.viz

IN and OUT may be ``-`` (standard input and output). Errors are one line on
stderr with exit status 1 (2 for command-line syntax), never a traceback
(``--debug`` or ``MPLAN_DEBUG=1`` shows it); nothing is written on an input
error, and OUT is written through the path as ``mplan-plan -o`` writes it
(an existing file, symlink, FIFO or device is truncated and written, keeping
its mode).
"""

from __future__ import annotations

import sys
from typing import Optional, Sequence

import mplan
from mplan import _cli, viz


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "viz":
        return viz.main(argv[1:])
    parser = _cli.ArgumentParser(prog="python3 -m mplan")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("plan", help="plan a MiniMalloc CSV file")
    p.add_argument("input", help="MiniMalloc CSV ('-': standard input)")
    p.add_argument("-o", "--output", required=True, help="planned CSV ('-': standard output)")
    p.add_argument("--strategy", default="best", help=", ".join(mplan.strategies()))
    p.add_argument("--time-limit", type=float, default=10.0)
    p.add_argument("--alignment", type=int, default=1)
    p.add_argument("--stagger", type=int, default=0)
    _cli.add_debug_option(p)
    sub.add_parser("viz", help="draw a plan (see python3 -m mplan.viz --help)")
    args = parser.parse_args(argv)

    def plan() -> int:
        result = mplan.plan_csv(args.input, args.output, args.strategy, args.time_limit,
                                args.alignment, args.stagger)
        print(f"mplan: strategy={result.strategy} arena={result.arena_size} "
              f"lower-bound={result.lower_bound} ratio={result.ratio:.4f} "
              f"time={result.seconds:.3f}s optimal={'yes' if result.proven_optimal else 'no'}",
              file=sys.stderr)
        return 0

    return _cli.run("mplan", plan, args.debug)


if __name__ == "__main__":
    sys.exit(main())
