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
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, NoReturn, Tuple, Union

from ._output import STDIO
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
    #: Buffers that are a later part of another's live range, split to meet a
    #: capacity: new buffer id -> (the original buffer's id, "remat" or
    #: "offload").
    split_of: Dict[int, Tuple[int, str]] = field(default_factory=dict)

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


class _BigInt(str):
    """A JSON integer too long to convert (Python limits int() to 4300
    digits): kept as its text so that the validator reports it."""


def _parse_int(text: str) -> Any:
    return int(text) if len(text) <= 40 else _BigInt(text)


def _describe(value: Any) -> str:
    if isinstance(value, _BigInt):
        return f"an integer of {len(value.lstrip('-'))} digits"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# The report's fields: each a check of one value, raising ReportError with
# the field's path. This table is the one place the report format is
# described (docs/python.md points here); work that adds fields adds them
# here. Fields not listed are accepted and ignored (newer writers may add
# fields), listed ones must have the type and range given.
_Check = Callable[[Any, str], Any]


def _fail(path: str, expected: str, value: Any) -> NoReturn:
    raise ReportError(f"{path}: expected {expected}, got {_describe(value)}")


def _integer(low: int = _INT64_MIN, high: int = _INT64_MAX) -> _Check:
    what = ("a 64-bit integer" if low == _INT64_MIN else
            "an integer >= 0" if low == 0 and high == _INT64_MAX else
            f"an integer in [{low}, {high}]")

    def check(value: Any, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            _fail(path, what, value)
        return value
    return check


def _string(value: Any, path: str) -> str:
    if not isinstance(value, str):
        _fail(path, "a string", value)
    return value


def _boolean(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        _fail(path, "true or false", value)
    return value


def _seconds(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1e300:
        _fail(path, "a number of seconds >= 0", value)
    return value


def _power_of_two(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not (
            0 < value <= _INT64_MAX and value & (value - 1) == 0):
        _fail(path, "a positive power of two", value)
    return value


def _list_of(item: _Check) -> _Check:
    def check(value: Any, path: str) -> list:
        if not isinstance(value, list):
            _fail(path, "a list", value)
        return [item(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return check


def _object(fields: Dict[str, Tuple[_Check, bool]]) -> _Check:
    """An object whose listed fields (check, required) are checked; returns
    the checked values of the fields present."""
    def check(value: Any, path: str) -> Dict[str, Any]:
        if not isinstance(value, dict):
            _fail(path, "an object", value)
        # The fields present first: a wrong one is named before a missing one.
        result = {key: check(value[key], f"{path}.{key}")
                  for key, (check, _) in fields.items() if key in value}
        for key, (_, required) in fields.items():
            if required and key not in value:
                raise ReportError(f"{path}: missing field {key!r}")
        return result
    return check


_COUNT = _integer(0)
_BUFFER = _object({
    # Plan problems (negative sizes or offsets, end <= start, overlaps) are
    # not format errors: check() lists them and the picture marks them.
    "id": (_integer(), True), "start": (_integer(), True), "end": (_integer(), True),
    "size": (_integer(), True), "offset": (_integer(), True),
    "loc": (_string, False), "bound": (_string, False),
})
_SLAB_FIELDS = {
    "strategy": (_string, True), "arena_bytes": (_COUNT, True),
    "lower_bound_bytes": (_COUNT, True), "stagger_bytes": (_COUNT, False),
    "buffers": (_list_of(_BUFFER), True),
    # With a capacity (mplan-plan-pipeline's capacity=).
    "capacity_bytes": (_COUNT, False), "op_floor_bytes": (_COUNT, False),
    "lower_bound_before_splits_bytes": (_COUNT, False),
}
#: One function of the report (``functions[i]``).
FUNCTION_FIELDS: Dict[str, Tuple[_Check, bool]] = {
    "name": (_string, True),
    **_SLAB_FIELDS,
    "unmanaged": (_list_of(_object({"loc": (_string, True), "reason": (_string, True)})),
                  True),
    "lower_bound_program_order_bytes": (_COUNT, False),
    "sequence_optimal": (_boolean, False),
    "sequence_kept_because": (_string, False),
    "views_removed": (_COUNT, False), "views_canonicalized": (_COUNT, False),
    "copies_removed": (_COUNT, False), "copy_bytes_avoided": (_COUNT, False),
    "inplace": (_list_of(_object({"buffer": (_integer(), True),
                                  "reused_by": (_integer(), True),
                                  "loc": (_string, False)})), False),
    "memory_spaces": (_list_of(_object({"memory_space": (_string, True), **_SLAB_FIELDS})),
                      False),
    # Live ranges split to meet a capacity: rematerializations and offloads.
    "splits": (_list_of(_object({
        "kind": (_string, True), "buffer": (_integer(), True),
        "new_buffer": (_integer(), True), "offload_buffer": (_integer(), False),
        "recomputed_inputs": (_list_of(_integer()), False),
        "after": (_string, True), "before": (_string, True),
        "cost": (_COUNT, True), "bytes": (_COUNT, True)})), False),
    "split_work": (_COUNT, False), "split_bytes_moved": (_COUNT, False),
    "program_work": (_COUNT, False),
    # mplan-plan --report (the planner's own run on a CSV).
    "proven_optimal": (_boolean, False), "seconds": (_seconds, False),
    "goal_bytes": (_COUNT, False), "goal": (_string, False),
    "reached_goal": (_boolean, False), "gap_bytes": (_COUNT, False),
    "dynamic_arena": (_string, False),
    "dynamic_size_hint": (_integer(1), False),
    "arena_bytes_at_hint": (_COUNT, False),
    "dynamic_buffers": (_list_of(_object({
        "id": (_integer(), True), "start": (_integer(), True), "end": (_integer(), True),
        "alignment": (_power_of_two, True), "size": (_string, True),
        "above": (_list_of(_integer()), False), "loc": (_string, False)})), False),
}
_REPORT = _object({"functions": (_list_of(_object(FUNCTION_FIELDS)), True)})


def validate(data: Any, source: str = "report") -> Dict[str, Any]:
    """Checks a parsed JSON report against :data:`FUNCTION_FIELDS` (types,
    ranges, required fields) and returns its checked fields.

    Raises:
      ReportError: ``SOURCE: functions[2].buffers[0].size: expected a 64-bit
        integer, got 'x'`` (the first field that is wrong).
    """
    if not isinstance(data, dict) or "functions" not in data:
        raise ReportError(f"{source}: not an mplan report: expected an object with a "
                          f"\"functions\" list, got {_describe(data)}")
    try:
        return _REPORT(data, "")
    except ReportError as e:
        raise ReportError(f"{source}: {str(e).lstrip('.')}") from None


def from_report(data: Any, source: str = "report") -> List[FunctionPlan]:
    """Converts a parsed JSON report (BRIEF section 2 format), checked by
    :func:`validate`."""
    result = []
    for fn in validate(data, source)["functions"]:
        result.append(FunctionPlan(
            name=fn["name"], strategy=fn["strategy"], arena_bytes=fn["arena_bytes"],
            lower_bound_bytes=fn["lower_bound_bytes"],
            buffers=[PlacedBuffer(id=b["id"], start=b["start"], end=b["end"], size=b["size"],
                                  offset=b["offset"], loc=b.get("loc", ""))
                     for b in fn["buffers"]],
            unmanaged=[Unplanned(u["loc"], u["reason"]) for u in fn["unmanaged"]],
            dynamic_buffers=[RuntimeSizedBuffer(
                id=b["id"], start=b["start"], end=b["end"], size=b["size"],
                alignment=b["alignment"], above=b.get("above", []), loc=b.get("loc", ""))
                for b in fn.get("dynamic_buffers", [])],
            dynamic_arena=fn.get("dynamic_arena", ""),
            split_of=_split_of(fn.get("splits", []))))
    return result


def _split_of(splits: List[Dict[str, Any]]) -> Dict[int, Tuple[int, str]]:
    """Each split's new buffer -> the buffer it continues, followed back to
    the original one (a part may be split again)."""
    parent = {s["new_buffer"]: (s["buffer"], s["kind"]) for s in splits}
    result = {}
    for new, (old, kind) in parent.items():
        seen = {new}
        while old in parent and old not in seen:
            seen.add(old)
            old = parent[old][0]
        result[new] = (old, kind)
    return result


def from_csv(text: str, name: str = "plan", source: str = "") -> List[FunctionPlan]:
    """Converts a planned MiniMalloc CSV (``id,lower,upper,size,offset``, as
    written by ``mplan-plan`` or :func:`mplan.plan_csv`) into one function
    ``name``; errors name ``source`` (default: ``name``)."""
    reader = csv.reader(io.StringIO(text))
    try:
        return _from_csv_rows(reader, name, source or name)
    except csv.Error as e:
        raise ReportError(f"{source or name}: line {reader.line_num}: {e}") from None


def _from_csv_rows(reader: Any, name: str, source: str) -> List[FunctionPlan]:
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise ReportError(f"{source}: empty CSV") from None
    missing = [c for c in ("id", "lower", "upper", "size", "offset") if c not in header]
    if missing:
        raise ReportError(f"{source}: line 1: the header has no {', '.join(missing)} column"
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
            raise ReportError(f"{source}: line {line}: expected integers in the id, lower, "
                              f"upper, size and offset columns: {','.join(row)!r}") from None
        buffers.append({"id": values["id"], "start": values["lower"], "end": values["upper"],
                        "size": values["size"], "offset": values["offset"]})
    placed = [PlacedBuffer(**b) for b in buffers]
    # The same checks as a JSON report's.
    return from_report({"functions": [{
        "name": name, "strategy": "", "buffers": buffers, "unmanaged": [],
        "arena_bytes": max((b.offset + b.size for b in placed if b.offset + b.size > 0),
                           default=0),
        "lower_bound_bytes": max_live(placed)}]}, source)


def read_text(path: Union[str, "os.PathLike[str]"]) -> str:
    """The UTF-8 text of ``path`` ('-': standard input), a leading byte
    order mark removed.

    Raises:
      ReportError: naming the file (cannot be read, a directory, not UTF-8).
    """
    path = os.fspath(path)
    try:
        if path == STDIO:
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise ReportError(f"{path}: {e.strerror or e}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ReportError(f"{path}: not UTF-8 text (byte {e.start})") from None


def load(path: Union[str, "os.PathLike[str]"]) -> List[FunctionPlan]:
    """Reads a JSON report or a planned CSV ('-': standard input), chosen by
    content: JSON when the first character that is not white space (after
    an optional UTF-8 byte order mark) is ``{`` or ``[``, else CSV. Both are
    checked by :func:`validate`.

    Raises:
      ReportError: naming the file and, for a JSON report, the field.
    """
    path = os.fspath(path)
    text = read_text(path)
    source = "<stdin>" if path == STDIO else path
    start = text.lstrip()[:1]
    if not start:
        raise ReportError(f"{source}: empty input (expected an mplan JSON report or a "
                          f"planned CSV)")
    if start in "{[":
        try:
            data = json.loads(text, parse_int=_parse_int)
        except json.JSONDecodeError as e:
            raise ReportError(f"{source}: line {e.lineno}: invalid JSON: {e.msg}") from None
        except (RecursionError, ValueError) as e:
            raise ReportError(f"{source}: invalid JSON: "
                              f"{'nested too deeply' if isinstance(e, RecursionError) else e}"
                              ) from None
        return from_report(data, source)
    name = "plan" if path == STDIO else os.path.splitext(os.path.basename(path))[0]
    return from_csv(text, name, source)
