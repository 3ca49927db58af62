"""``python3 -m mplan``: plan a MiniMalloc CSV like ``mplan-plan``.

    python3 -m mplan plan IN.csv -o OUT.csv [--strategy=best] [--time-limit=10] [--alignment=1]
    python3 -m mplan viz REPORT.json -o plan.svg       # same as python3 -m mplan.viz
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

import mplan
from mplan import viz


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "viz":
        return viz.main(argv[1:])
    parser = argparse.ArgumentParser(prog="python3 -m mplan")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("plan", help="plan a MiniMalloc CSV file")
    p.add_argument("input")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--strategy", default="best", help=", ".join(mplan.strategies()))
    p.add_argument("--time-limit", type=float, default=10.0)
    p.add_argument("--alignment", type=int, default=1)
    sub.add_parser("viz", help="draw a plan (see python3 -m mplan.viz --help)")
    args = parser.parse_args(argv)
    try:
        plan = mplan.plan_csv(args.input, args.output, args.strategy, args.time_limit,
                              args.alignment)
    except mplan.Error as e:
        print(f"mplan: error: {e}", file=sys.stderr)
        return 1
    print(f"mplan: strategy={plan.strategy} arena={plan.arena_size} "
          f"lower-bound={plan.lower_bound} ratio={plan.ratio:.4f} time={plan.seconds:.3f}s "
          f"optimal={'yes' if plan.proven_optimal else 'no'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
