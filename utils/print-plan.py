#!/usr/bin/env python3
"""Prints an mplan JSON plan report (--mplan-plan-pipeline="report=PATH") as tables."""

import json
import sys


def human(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{n} B"
        n /= 1024.0


def main(path, limit=40):
    with open(path) as f:
        report = json.load(f)
    for fn in report["functions"]:
        buffers = fn["buffers"]
        total = sum(b["size"] for b in buffers)
        if not buffers and not fn["unmanaged"]:
            continue
        print(f"function @{fn['name']}: {len(buffers)} planned buffers, "
              f"strategy {fn['strategy']}")
        print(f"  {'id':>4} {'live':>13} {'size':>10} {'offset':>10}  loc")
        for b in sorted(buffers, key=lambda b: (b["start"], b["id"]))[:limit]:
            live = f"[{b['start']}, {b['end']})"
            print(f"  {b['id']:>4} {live:>13} {b['size']:>10} {b['offset']:>10}  {b['loc']}")
        if len(buffers) > limit:
            print(f"  ... {len(buffers) - limit} more")
        if buffers:
            arena, bound = fn["arena_bytes"], fn["lower_bound_bytes"]
            ratio = arena / bound if bound else 1.0
            print(f"  arena {arena} bytes ({human(arena)}), lower bound {bound} bytes, "
                  f"ratio {ratio:.3f}; sum of the planned buffers {total} bytes "
                  f"({total / arena if arena else 0:.2f}x the arena)")
        for u in fn["unmanaged"]:
            print(f"  unplanned: {u['loc']}: {u['reason']}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: print-plan.py REPORT.json")
    main(sys.argv[1])
