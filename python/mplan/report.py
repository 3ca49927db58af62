"""Reading plans for drawing: mplan's JSON report or a planned CSV.

Both become a list of :class:`FunctionPlan`. This module is pure Python (no
native code), so pictures can be drawn on machines without the build.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple, Union

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
class RuntimeSizedBuffer:
    """A buffer placed by the symbolic plan (``mplan.alloc_dynamic``): its
    size is an expression of the function's arguments (``"256 * dim(%arg0,
    0)"``); it sits above the slab's static bytes and above the buffers
    ``above`` lists, at an offset computed when the function runs."""

    id: int
    start: int
    end: int
    size: str
    alignment: int
    above: List[int] = field(default_factory=list)
    loc: str = ""

    def to_json(self) -> Dict[str, Any]:
        return {"id": self.id, "start": self.start, "end": self.end,
                "alignment": self.alignment, "loc": self.loc, "size": self.size,
                "above": list(self.above)}


@dataclass
class FunctionPlan:
    name: str
    strategy: str
    arena_bytes: int
    lower_bound_bytes: int
    buffers: List[PlacedBuffer] = field(default_factory=list)
    unmanaged: List[Unplanned] = field(default_factory=list)
    #: The symbolic plan of the run-time sized buffers, if any; then
    #: ``arena_bytes`` is the static part and ``dynamic_arena`` the arena's
    #: size as an expression (``"max(64, end(1), end(2))"``).
    dynamic_buffers: List[RuntimeSizedBuffer] = field(default_factory=list)
    dynamic_arena: str = ""

    @property
    def ratio(self) -> float:
        return self.arena_bytes / self.lower_bound_bytes if self.lower_bound_bytes else 1.0

    def to_json(self) -> Dict[str, Any]:
        result = {"name": self.name, "strategy": self.strategy, "arena_bytes": self.arena_bytes,
                  "lower_bound_bytes": self.lower_bound_bytes,
                  "buffers": [b.to_json() for b in self.buffers],
                  "unmanaged": [{"loc": u.loc, "reason": u.reason} for u in self.unmanaged]}
        if self.dynamic_buffers:
            result["dynamic_arena"] = self.dynamic_arena
            result["dynamic_buffers"] = [b.to_json() for b in self.dynamic_buffers]
        return result


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


_INT64_MIN, _INT64_MAX = -2**63, 2**63 - 1


@dataclass
class Problem:
    """One reason a function's plan is impossible (see :func:`check`)."""

    message: str
    buffers: Tuple[int, ...]
    """Indices into ``FunctionPlan.buffers`` of the buffers involved."""


def check(fn: FunctionPlan, max_pairs: int = 100) -> List[Problem]:
    """Every problem of ``fn``'s plan, checked independently of the planner as
    :func:`mplan.validate_input` and :func:`mplan.validate_plan` do: sizes
    >= 0, ``end > start``, unique ids, offsets >= 0, ``offset + size <=
    arena_bytes`` and no two buffers that are live at the same time sharing a
    byte (a buffer of size 0 shares none). Beyond ``max_pairs`` overlapping
    pairs the rest are one summary problem. An empty list: the plan is valid.
    """
    problems: List[Problem] = []
    first_index: Dict[int, int] = {}
    for i, b in enumerate(fn.buffers):
        if b.size < 0:
            problems.append(Problem(f"buffer {b.id}: negative size {b.size}", (i,)))
        if b.end <= b.start:
            problems.append(Problem(f"buffer {b.id}: end ({b.end}) must be greater than "
                                    f"start ({b.start})", (i,)))
        if b.offset < 0:
            problems.append(Problem(f"buffer {b.id}: negative offset {b.offset}", (i,)))
        if b.offset + b.size > fn.arena_bytes:
            problems.append(Problem(f"buffer {b.id}: [{b.offset}, {b.offset + b.size}) exceeds "
                                    f"the arena of {fn.arena_bytes} bytes", (i,)))
        if b.id in first_index:
            problems.append(Problem(f"duplicate buffer id {b.id}", (first_index[b.id], i)))
        else:
            first_index[b.id] = i
    # Sweep over time: each buffer against the ones still live when it starts.
    pairs: List[Tuple[int, int]] = []
    live: List[int] = []
    order = sorted((i for i, b in enumerate(fn.buffers) if b.size > 0 and b.end > b.start),
                   key=lambda i: (fn.buffers[i].start, i))
    for i in order:
        b = fn.buffers[i]
        live = [j for j in live if fn.buffers[j].end > b.start]
        for j in live:
            a = fn.buffers[j]
            if a.offset < b.offset + b.size and b.offset < a.offset + a.size:
                pairs.append((j, i))
        live.append(i)
    for j, i in pairs[:max_pairs]:
        problems.append(Problem(f"buffers {fn.buffers[j].id} and {fn.buffers[i].id} are live "
                                f"at the same time and overlap in memory", (j, i)))
    if len(pairs) > max_pairs:
        rest = pairs[max_pairs:]
        problems.append(Problem(f"{len(rest)} more pairs of buffers are live at the same time "
                                f"and overlap in memory",
                                tuple(sorted({k for pair in rest for k in pair}))))
    return problems


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReportError(f"{what}: expected an integer, got {value!r}")
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ReportError(f"{what}: {value} is out of range for a 64-bit integer")
    return value


_INTEGER = re.compile(r"[+-]?[0-9]+")


def _csv_int(text: str) -> int:
    """An integer CSV field, as strict as mplan-plan (no ``1_000``, ``4.0``)."""
    text = text.strip(" \t\r")
    if not _INTEGER.fullmatch(text):
        raise ValueError(text)
    value = int(text)
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(text)
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
        for key in ("buffers", "unmanaged", "dynamic_buffers"):
            if not isinstance(fn.get(key, []), list):
                raise ReportError(f"{where}.{key}: not a list")
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
        dynamic = []
        for j, b in enumerate(fn.get("dynamic_buffers", [])):
            bw = f"{where}.dynamic_buffers[{j}]"
            if not isinstance(b, dict) or not isinstance(b.get("above", []), list):
                raise ReportError(f"{bw}: not an object with an \"above\" list")
            try:
                dynamic.append(RuntimeSizedBuffer(
                    id=_int(b["id"], bw + ".id"), start=_int(b["start"], bw + ".start"),
                    end=_int(b["end"], bw + ".end"), size=str(b["size"]),
                    alignment=_int(b["alignment"], bw + ".alignment"),
                    above=[_int(a, bw + ".above") for a in b.get("above", [])],
                    loc=str(b.get("loc", ""))))
            except KeyError as e:
                raise ReportError(f"{bw}: missing {e.args[0]!r}") from None
        arena = fn.get("arena_bytes")
        bound = fn.get("lower_bound_bytes")
        result.append(FunctionPlan(
            name=str(fn.get("name", f"function{i}")), strategy=str(fn.get("strategy", "")),
            arena_bytes=_int(arena, where + ".arena_bytes") if arena is not None
            else max((b.offset + b.size for b in buffers), default=0),
            lower_bound_bytes=_int(bound, where + ".lower_bound_bytes") if bound is not None
            else max_live(buffers),
            buffers=buffers, unmanaged=unmanaged, dynamic_buffers=dynamic,
            dynamic_arena=str(fn.get("dynamic_arena", ""))))
    return result


def from_csv(text: str, name: str = "plan") -> List[FunctionPlan]:
    """Converts a planned MiniMalloc CSV (``id,lower,upper,size,offset``, as
    written by ``mplan-plan`` or :func:`mplan.plan_csv`)."""
    reader = csv.reader(io.StringIO(text))
    try:
        return _from_csv_rows(reader, name)
    except csv.Error as e:
        raise ReportError(f"{name}: line {reader.line_num}: {e}") from None


def _from_csv_rows(reader: Any, name: str) -> List[FunctionPlan]:
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
            values = {c: _csv_int(row[i]) for c, i in col.items()}
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
    except UnicodeDecodeError as e:
        raise ReportError(f"{path}: not UTF-8 text (byte {e.start})") from None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ReportError(f"{path}: line {e.lineno}: invalid JSON: {e.msg}") from None
        except RecursionError:
            raise ReportError(f"{path}: invalid JSON: nested too deeply") from None
        return from_report(data, path)
    name = os.path.splitext(os.path.basename(path))[0]
    return from_csv(text, name)
