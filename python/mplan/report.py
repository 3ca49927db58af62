"""Reading plans for drawing: mplan's JSON report or a planned CSV.

Both become a list of :class:`FunctionPlan`. This module is pure Python (no
native code), so pictures can be drawn on machines without the build.
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

from .errors import ReportError


@dataclass
class PlacedBuffer:
    """One planned buffer: live in [start, end), ``size`` bytes at ``offset``."""

    id: int
    start: int
    end: int
    size: int
    offset: int
    loc: str = ""

    def to_json(self) -> Dict[str, Any]:
        return {"id": self.id, "loc": self.loc, "start": self.start, "end": self.end,
                "size": self.size, "offset": self.offset}


@dataclass
class Unplanned:
    loc: str
    reason: str


@dataclass
class FunctionPlan:
    name: str
    strategy: str
    arena_bytes: int
    lower_bound_bytes: int
    buffers: List[PlacedBuffer] = field(default_factory=list)
    unmanaged: List[Unplanned] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return self.arena_bytes / self.lower_bound_bytes if self.lower_bound_bytes else 1.0

    def to_json(self) -> Dict[str, Any]:
        return {"name": self.name, "strategy": self.strategy, "arena_bytes": self.arena_bytes,
                "lower_bound_bytes": self.lower_bound_bytes,
                "buffers": [b.to_json() for b in self.buffers],
                "unmanaged": [{"loc": u.loc, "reason": u.reason} for u in self.unmanaged]}


def max_live(buffers: List[PlacedBuffer]) -> int:
    """The max-live lower bound of ``buffers`` (sizes unpadded)."""
    events: Dict[int, int] = {}
    for b in buffers:
        events[b.start] = events.get(b.start, 0) + b.size
        events[b.end] = events.get(b.end, 0) - b.size
    live = best = 0
    for t in sorted(events):
        live += events[t]
        best = max(best, live)
    return best


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReportError(f"{what}: expected an integer, got {value!r}")
    return value


def from_report(data: Any, source: str = "report") -> List[FunctionPlan]:
    """Converts a parsed JSON report (BRIEF section 2 format)."""
    if not isinstance(data, dict) or not isinstance(data.get("functions"), list):
        raise ReportError(f"{source}: not an mplan report (no \"functions\" list)")
    result = []
    for i, fn in enumerate(data["functions"]):
        where = f"{source}: functions[{i}]"
        if not isinstance(fn, dict):
            raise ReportError(f"{where}: not an object")
        buffers = []
        for j, b in enumerate(fn.get("buffers", [])):
            bw = f"{where}.buffers[{j}]"
            if not isinstance(b, dict):
                raise ReportError(f"{bw}: not an object")
            try:
                buffers.append(PlacedBuffer(
                    id=_int(b["id"], bw + ".id"), start=_int(b["start"], bw + ".start"),
                    end=_int(b["end"], bw + ".end"), size=_int(b["size"], bw + ".size"),
                    offset=_int(b["offset"], bw + ".offset"), loc=str(b.get("loc", ""))))
            except KeyError as e:
                raise ReportError(f"{bw}: missing {e.args[0]!r}") from None
        unmanaged = [Unplanned(str(u.get("loc", "")), str(u.get("reason", "")))
                     for u in fn.get("unmanaged", []) if isinstance(u, dict)]
        arena = fn.get("arena_bytes")
        bound = fn.get("lower_bound_bytes")
        result.append(FunctionPlan(
            name=str(fn.get("name", f"function{i}")), strategy=str(fn.get("strategy", "")),
            arena_bytes=_int(arena, where + ".arena_bytes") if arena is not None
            else max((b.offset + b.size for b in buffers), default=0),
            lower_bound_bytes=_int(bound, where + ".lower_bound_bytes") if bound is not None
            else max_live(buffers),
            buffers=buffers, unmanaged=unmanaged))
    return result


def from_csv(text: str, name: str = "plan") -> List[FunctionPlan]:
    """Converts a planned MiniMalloc CSV (``id,lower,upper,size,offset``, as
    written by ``mplan-plan`` or :func:`mplan.plan_csv`)."""
    reader = csv.reader(io.StringIO(text))
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise ReportError(f"{name}: empty CSV") from None
    missing = [c for c in ("id", "lower", "upper", "size", "offset") if c not in header]
    if missing:
        raise ReportError(f"{name}: line 1: the header has no {', '.join(missing)} column"
                          + (" (plan it first: mplan-plan IN.csv -o OUT.csv)"
                             if missing == ["offset"] else ""))
    col = {c: header.index(c) for c in ("id", "lower", "upper", "size", "offset")}
    buffers = []
    for line, row in enumerate(reader, start=2):
        if not row or all(not f.strip() for f in row):
            continue
        try:
            values = {c: int(row[i].strip()) for c, i in col.items()}
        except (IndexError, ValueError):
            raise ReportError(f"{name}: line {line}: expected integers in the id, lower, "
                              f"upper, size and offset columns: {','.join(row)!r}") from None
        buffers.append(PlacedBuffer(id=values["id"], start=values["lower"], end=values["upper"],
                                    size=values["size"], offset=values["offset"]))
    return [FunctionPlan(name=name, strategy="", buffers=buffers,
                         arena_bytes=max((b.offset + b.size for b in buffers), default=0),
                         lower_bound_bytes=max_live(buffers))]


def load(path: Union[str, "os.PathLike[str]"]) -> List[FunctionPlan]:
    """Reads a JSON report or a planned CSV, chosen by content."""
    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ReportError(f"{path}: {e.strerror}") from None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ReportError(f"{path}: line {e.lineno}: invalid JSON: {e.msg}") from None
        return from_report(data, path)
    name = os.path.splitext(os.path.basename(path))[0]
    return from_csv(text, name)
