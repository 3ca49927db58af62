"""mplan: static memory planning, from Python.

The planner (the same C++ library the ``mplan-plan`` CLI and the MLIR passes
use)::

    import mplan
    bufs = [mplan.Buffer(0, 0, 2, 64), mplan.Buffer(1, 1, 3, 32)]
    plan = mplan.plan(bufs, strategy="best")
    plan.offsets, plan.arena_size, plan.lower_bound
    mplan.validate_plan(bufs, plan.offsets, plan.arena_size)

MiniMalloc CSV files::

    mplan.plan_csv("in.csv", "out.csv", strategy="best")   # like mplan-plan

MLIR pass pipelines on MLIR text (every upstream dialect and pass plus
mplan's are registered)::

    planned = mplan.run_pipeline(text, "mplan-plan-pipeline{strategy=best}")
    result = mplan.plan_module(text)        # planned text + JSON report

Pictures of plans: ``python3 -m mplan.viz REPORT.json -o plan.svg`` or
:func:`mplan.viz.render_svg` / :func:`mplan.viz.render_html`.
"""

from __future__ import annotations

import json as _json
import math as _math
import os as _os
import reprlib as _reprlib
import sys as _sys
import tempfile as _tempfile
from dataclasses import dataclass, field
from typing import (Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple,
                    Union)

from . import errors
from ._output import STDIO as _STDIO, write_output as _write_output
from .errors import (CsvError, Error, InvalidPlanError, MLIRError, OutputError, PlanError,
                     ReportError)
try:
    from . import _mplan
except ImportError as _e:  # a clearer message than "No module named mplan._mplan"
    import glob as _glob
    import sys as _sys
    _built = [_os.path.basename(p) for p in _glob.glob(_os.path.join(_os.path.dirname(__file__), "_mplan*.so"))]
    raise ImportError(
        f"mplan: cannot load the native module ({_e}); this is Python "
        f"{_sys.version_info.major}.{_sys.version_info.minor} at {_sys.executable}, the build has "
        f"{', '.join(_built) or 'no _mplan*.so'}: use the Python the build was configured with "
        f"(Debian's /usr/bin/python3) or rebuild with -DPython3_EXECUTABLE=...") from _e
from ._mplan import Buffer, CsvTable, Diagnostic, Plan

__all__ = [
    "Buffer", "CsvTable", "Diagnostic", "Plan", "PlannedModule",
    "Error", "CsvError", "PlanError", "InvalidPlanError", "MLIRError", "ReportError",
    "OutputError",
    "plan", "lower_bound", "validate_plan", "validate_input", "strategies",
    "read_csv", "parse_csv", "write_csv", "format_csv", "plan_csv",
    "run_pipeline", "plan_module", "is_registered_pass",
]

__version__ = "0.1.0"


def __dir__() -> List[str]:
    """``dir(mplan)``: the API (``__all__``), the version and the submodules,
    not the standard-library modules and typing names the implementation
    imports."""
    return sorted(set(__all__) | {"__version__", "BufferLike", "errors"} |
                  {name for name in ("report", "viz") if name in globals()})

#: Anything :func:`plan` accepts as one buffer: a :class:`Buffer`, a tuple
#: (or list, or row of a 2-D integer numpy array) ``(id, start, end, size[,
#: alignment])`` or a mapping with those keys (``lower``/``upper`` are
#: accepted for ``start``/``end``).
BufferLike = Union[Buffer, Sequence[int], Mapping[str, int]]

_FIELDS = ("id", "start", "end", "size", "alignment")
_INT64_MIN, _INT64_MAX = -2**63, 2**63 - 1
#: The largest time limit in seconds (the planner's clock counts nanoseconds
#: in 64 bits).
_MAX_SECONDS = 10**9

#: The one conversion of user values to int64 (every buffer field, offset and
#: integer option goes through it): ``int``, numpy integer scalars and 0-d
#: integral arrays; no bool, float, string, NaN or value outside the signed
#: 64-bit range. Raises PlanError("<what> ... is not an integer").
_to_int64 = _mplan.to_int64


def _describe(value: Any) -> str:
    """``repr (type)`` for messages about rejected values, like the native
    module's."""
    cls = type(value)
    name = cls.__qualname__ if cls.__module__ == "builtins" else \
        f"{cls.__module__}.{cls.__qualname__}"
    return f"{_reprlib.repr(value)} ({name})"


def _is_int64(value: Any) -> bool:
    return type(value) is int and _INT64_MIN <= value <= _INT64_MAX


def _to_buffer(b: BufferLike, index: int) -> Buffer:
    if type(b) in (tuple, list) and len(b) in (4, 5) and all(map(_is_int64, b)):
        return Buffer(*b)  # the common case, without building messages
    if isinstance(b, Buffer):
        return b
    where = f"buffers[{index}]"
    if isinstance(b, Mapping):
        def get(*keys: str) -> Any:
            for key in keys:
                if key in b:
                    return b[key]
            raise PlanError(f"{where}: no {' or '.join(map(repr, keys))} key in {_reprlib.repr(b)}")
        for a, b_key in (("start", "lower"), ("end", "upper")):
            if a in b and b_key in b:
                raise PlanError(f"{where}: both {a!r} and {b_key!r} keys in {_reprlib.repr(b)}")
        fields = [get("id"), get("start", "lower"), get("end", "upper"), get("size"),
                  b.get("alignment", 1)]
    elif isinstance(b, (str, bytes, bytearray)):
        raise PlanError(f"{where}: not a buffer: {_describe(b)}")
    else:
        try:
            fields = list(b)
        except TypeError:
            raise PlanError(f"{where}: not a buffer: {_describe(b)}") from None
        if len(fields) not in (4, 5):
            raise PlanError(f"{where}: a buffer is (id, start, end, size[, alignment]), "
                            f"got {_reprlib.repr(b)}")
    values = [_to_int64(fields[0], f"{where}: id")]
    where += f" (id {values[0]})"
    values += [_to_int64(v, f"{where}: {name}") for v, name in zip(fields[1:], _FIELDS[1:])]
    return Buffer(*values)


def _iterate(values: Any, expected: str, scalars: Tuple[type, ...]) -> Iterator[Any]:
    """``iter(values)``, or TypeError("<expected>, got ...") for the types in
    ``scalars`` (iterable, but one value) and non-iterables."""
    if not isinstance(values, scalars):
        try:
            return iter(values)
        except TypeError:
            pass
    raise TypeError(f"{expected}, got {_describe(values)}")


def _to_buffers(buffers: Iterable[BufferLike]) -> List[Buffer]:
    if isinstance(buffers, CsvTable):
        return list(buffers.buffers)
    items = _iterate(buffers, "buffers must be an iterable of buffers",
                     (str, bytes, bytearray, Mapping, Buffer))
    result = [_to_buffer(b, i) for i, b in enumerate(items)]
    # The value checks of the CSV reader (one implementation, in C++).
    bad = _mplan.check_buffers(result)
    if bad is not None:
        i, message = bad
        raise PlanError(f"buffers[{i}] (id {result[i].id}): {message}")
    return result


def _to_offsets(offsets: Iterable[Any], buffers: Sequence[Buffer]) -> List[int]:
    """``offsets`` (parallel to ``buffers``) through the one conversion."""
    items = _iterate(offsets, "offsets must be an iterable of integers",
                     (str, bytes, bytearray, Mapping))
    return [o if _is_int64(o) else
            _to_int64(o, f"buffers[{i}] (id {buffers[i].id}): offset" if i < len(buffers)
                      else f"offsets[{i}]")
            for i, o in enumerate(items)]


def _to_seconds(value: Any) -> float:
    """The time limit: an int or float (numpy ones too), 0 to _MAX_SECONDS."""
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    if kind is not None:
        number = kind in ("i", "u", "f")
    else:
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
    try:
        seconds = float(value) if number else _math.nan
    except (TypeError, ValueError):
        number = False
    except OverflowError:  # an int beyond the float range
        seconds = _math.inf
    if not number:
        raise PlanError(f"time limit {_describe(value)} is not a number of seconds")
    if not seconds >= 0:  # the message of mplan-plan, NaN included
        raise PlanError("the time limit must be non-negative")
    if seconds > _MAX_SECONDS:
        raise PlanError(f"time limit {_reprlib.repr(value)} is out of range (at most "
                        f"{_MAX_SECONDS} seconds)")
    return seconds


def _to_strategy(strategy: Any) -> str:
    if not isinstance(strategy, str):
        raise PlanError(f"strategy {_describe(strategy)} is not a string")
    return strategy


def strategies() -> List[str]:
    """Names of every planning strategy (``naive``, ``linear-scan``,
    ``greedy-by-size``, ``greedy-by-breadth``, ``portfolio``, ``best``)."""
    return list(_mplan.strategies())


def plan(buffers: Iterable[BufferLike], strategy: str = "best",
         time_limit: float = 10.0, alignment: int = 1, stagger: int = 0) -> Plan:
    """Places every buffer at a byte offset in one arena.

    Args:
      buffers: :class:`Buffer` objects, ``(id, start, end, size[, alignment])``
        tuples, mappings, or a :class:`CsvTable`. ``start`` is inclusive,
        ``end`` exclusive; ids must be unique.
      strategy: one of :func:`strategies`.
      time_limit: search budget of ``best`` and ``portfolio`` in seconds;
        every strategy but ``naive`` gives up 3 s past it (PlanError, "no
        plan within the time limit").
      alignment: minimum alignment of every buffer (a power of two).
      stagger: cache stagger in bytes (0: off; a multiple of ``alignment``):
        every offset ``o`` moves up by ``(o // 4096) * stagger`` so buffers a
        multiple of 4 KiB apart do not share their address modulo 4 KiB.

    Every value is an integer (``int`` or a numpy integer, in the signed
    64-bit range); ``time_limit`` is an int or a float.

    Returns:
      A :class:`Plan`: ``offsets`` (parallel to ``buffers``), ``arena_size``,
      ``lower_bound``, ``strategy`` (the winning member for ``best``),
      ``seconds``, ``proven_optimal``, ``stagger_bytes`` and ``ratio``.

    Raises:
      PlanError: invalid buffers or values (naming the buffer's index, id and
        field), unknown strategy or invalid options.
      TypeError: ``buffers`` is not an iterable of buffers.
    """
    strategy = _to_strategy(strategy)
    seconds = _to_seconds(time_limit)
    align = _to_int64(alignment, "alignment")
    step = _to_int64(stagger, "stagger")
    return _mplan.plan_buffers(_to_buffers(buffers), strategy, seconds, align, step)


def lower_bound(buffers: Iterable[BufferLike], alignment: int = 1) -> int:
    """The max-live lower bound in bytes (no plan can use less).

    Raises:
      PlanError: invalid buffers, values or alignment, or overflow.
    """
    align = _to_int64(alignment, "alignment")
    return _mplan.lower_bound(_to_buffers(buffers), align)


def validate_input(buffers: Iterable[BufferLike]) -> None:
    """Checks a planning input (sizes >= 0, end > start, power-of-two
    alignments, unique ids).

    Raises:
      PlanError: naming the offending buffer.
    """
    message = _mplan.validate_input(_to_buffers(buffers))
    if message is not None:
        raise PlanError(message)


def validate_plan(buffers: Iterable[BufferLike], offsets: Sequence[int],
                  arena_size: Optional[int] = None, alignment: int = 1) -> None:
    """Independently checks a plan: one offset per buffer, aligned offsets,
    every buffer inside the arena and no two buffers that are live at the
    same time sharing a byte.

    Args:
      arena_size: defaults to the largest ``offset + size``.

    Raises:
      InvalidPlanError: naming the offending buffer(s).
      PlanError: values that are not integers in the signed 64-bit range, or
        an alignment that is not a power of two.
    """
    bufs = _to_buffers(buffers)
    offs = _to_offsets(offsets, bufs)
    align = _to_int64(alignment, "alignment")
    if len(offs) != len(bufs):
        raise InvalidPlanError(f"{len(offs)} offsets for {len(bufs)} buffers")
    if arena_size is None:
        arena = min(max((o + b.size for o, b in zip(offs, bufs)), default=0), _INT64_MAX)
    else:
        arena = _to_int64(arena_size, "arena_size")
    message = _mplan.validate_plan(bufs, offs, arena, align)
    if message is not None:
        raise InvalidPlanError(message)


def _encode(text: str, what: str) -> bytes:
    """UTF-8 for the native module; lone surrogates (from bytes that were not
    UTF-8, ``surrogateescape``) become bytes again instead of failing."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, got {_describe(text)}")
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def parse_csv(text: str) -> CsvTable:
    """Parses MiniMalloc CSV text (header with at least ``id,lower,upper,size``).

    Raises:
      CsvError: naming the line.
    """
    return _mplan.parse_csv(_encode(text, "the CSV text"))


def read_csv(path: Union[str, "_os.PathLike[str]"]) -> CsvTable:
    """Reads a MiniMalloc CSV file ('-': standard input).

    Raises:
      CsvError: naming the file and line (also when it cannot be read).
    """
    if _os.fspath(path) == _STDIO:
        return _mplan.parse_csv(_sys.stdin.buffer.read())
    return _mplan.read_csv(_os.fsencode(path))


def write_csv(table: CsvTable, offsets: Sequence[int],
              path: Union[str, "_os.PathLike[str]", None] = None) -> str:
    """Renders ``table`` with an ``offset`` column (extra columns kept), as
    ``mplan-plan`` does; also writes it to ``path`` when given ('-':
    standard output), through the path as ``mplan-plan -o`` does: an existing
    file (or a symlink, FIFO or device) is truncated and written, keeping its
    mode; a new file is removed again if writing fails.

    Raises:
      PlanError: offsets that are not integers, or not one per row.
      OutputError: ``path`` cannot be written.
    """
    if not isinstance(table, CsvTable):
        raise TypeError(f"write_csv needs a CsvTable (read_csv, parse_csv), got {_describe(table)}")
    text = _mplan.write_csv(table, _to_offsets(offsets, table.buffers))
    if path is not None:
        _write_output(_os.fspath(path), text)
    return text


def format_csv(buffers: Iterable[BufferLike], offsets: Optional[Sequence[int]] = None) -> str:
    """Buffers as ``id,lower,upper,size[,alignment][,offset]`` CSV text.

    Raises:
      PlanError: values that are not integers, or not one offset per buffer.
    """
    bufs = _to_buffers(buffers)
    return _mplan.format_csv(bufs, None if offsets is None else _to_offsets(offsets, bufs))


def plan_csv(in_path: Union[str, "_os.PathLike[str]"], out_path: Union[str, "_os.PathLike[str]"],
             strategy: str = "best", time_limit: float = 10.0, alignment: int = 1,
             stagger: int = 0) -> Plan:
    """Plans a MiniMalloc CSV file and writes the same rows with an
    ``offset`` column to ``out_path`` -- byte for byte what
    ``mplan-plan --strategy=S --time-limit=T --alignment=A --stagger=B IN -o OUT``
    writes, through the path as it does (see :func:`write_csv`); either may be
    ``-`` (standard input, standard output).
    Nothing is written on an input or planning error.

    Raises:
      CsvError: malformed input. PlanError: unknown strategy or bad options.
      InvalidPlanError: the planner produced an invalid plan (a bug).
      OutputError: ``out_path`` cannot be written.
    """
    table = read_csv(in_path)
    result = plan(table.buffers, strategy=strategy, time_limit=time_limit, alignment=alignment,
                  stagger=stagger)
    message = _mplan.validate_plan(table.buffers, result.offsets, result.arena_size,
                                   _to_int64(alignment, "alignment"))
    if message is not None:
        raise InvalidPlanError("internal error: invalid plan: " + message)
    write_csv(table, result.offsets, out_path)
    return result


def is_registered_pass(name: str) -> bool:
    """Whether ``name`` is a registered pass or pass pipeline."""
    return _mplan.is_registered_pass(name)


def run_pipeline(source: str, pipeline: str, *, source_name: str = "<string>",
                 verify_each: bool = True, print_generic: bool = False,
                 print_locations: bool = False, multithreaded: bool = False,
                 diagnostics: Optional[List[Diagnostic]] = None) -> str:
    """Parses MLIR text, runs a textual pass pipeline and returns the printed
    module.

    The context has every upstream dialect and extension plus mplan's; every
    upstream pass and mplan's are available, e.g.
    ``"one-shot-bufferize{bufferize-function-boundaries},mplan-plan-pipeline{strategy=best}"``
    or ``"builtin.module(func.func(canonicalize))"``.

    Args:
      source_name: the file name used in locations.
      diagnostics: if given, a list that receives the warnings and remarks
        of a successful run.

    Raises:
      MLIRError: parse errors, an invalid pipeline or a failing pass; its
        ``diagnostics`` carry file, line and column.
    """
    if diagnostics is not None and not isinstance(diagnostics, list):
        raise TypeError(f"diagnostics must be a list, got {_describe(diagnostics)}")
    text, diags, _ = _mplan.run_pipeline(
        _encode(source, "source"), _encode(pipeline, "pipeline"),
        _encode(source_name, "source_name"), verify_each, print_generic, print_locations,
        multithreaded)
    if diagnostics is not None:
        diagnostics.extend(diags)
    return text


@dataclass
class PlannedModule:
    """What :func:`plan_module` returns."""

    text: str
    """The planned module (mplan dialect, or memref with ``arena=``)."""
    report: Dict[str, Any]
    """The JSON report: ``{"functions": [{"name", "strategy", "arena_bytes",
    "lower_bound_bytes", "buffers": [...], "unmanaged": [...]}]}``."""
    diagnostics: List[Diagnostic] = field(default_factory=list)

    @property
    def functions(self) -> List[Dict[str, Any]]:
        return list(self.report.get("functions", []))


def _option_value(value: Any) -> str:
    text = str(value)
    if any(c in text for c in " {}"):
        raise PlanError(f"pipeline option value {text!r} contains spaces or braces")
    return text


def plan_module(source: str, strategy: str = "best", time_limit: float = 0.25,
                alignment: int = 64, *, bufferize: bool = False,
                arena: Optional[str] = None, source_name: str = "<string>") -> PlannedModule:
    """Runs ``mplan-plan-pipeline`` on bufferized memref IR and returns the
    planned text with its JSON report.

    Args:
      bufferize: first run upstream One-Shot Bufferize (function boundaries,
        identity layouts) so tensor-level input works.
      arena: also run ``convert-mplan-to-memref{arena=...}`` (``heap``,
        ``stack``, ``global`` or ``argument``).

    Raises:
      MLIRError: with located diagnostics.
    """
    with _tempfile.TemporaryDirectory(prefix="mplan-") as tmp:
        report_path = _os.path.join(tmp, "report.json")
        stages = []
        if bufferize:
            stages.append("one-shot-bufferize{bufferize-function-boundaries "
                          "function-boundary-type-conversion=identity-layout-map}")
        stages.append("mplan-plan-pipeline{strategy=%s time-limit=%s alignment=%s report=%s}" % (
            _option_value(_to_strategy(strategy)), _option_value(_to_seconds(time_limit)),
            _option_value(_to_int64(alignment, "alignment")), _option_value(report_path)))
        if arena is not None:
            stages.append("convert-mplan-to-memref{arena=%s}" % _option_value(arena))
        diags: List[Diagnostic] = []
        text = run_pipeline(source, ",".join(stages), source_name=source_name, diagnostics=diags)
        with open(report_path) as f:
            report = _json.load(f)
    return PlannedModule(text=text, report=report, diagnostics=diags)
