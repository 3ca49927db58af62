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

import json
import os
import tempfile
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import errors
from .errors import CsvError, Error, InvalidPlanError, MLIRError, PlanError, ReportError
try:
    from . import _mplan
except ImportError as _e:  # a clearer message than "No module named mplan._mplan"
    import glob as _glob
    import sys as _sys
    _built = [os.path.basename(p) for p in _glob.glob(os.path.join(os.path.dirname(__file__), "_mplan*.so"))]
    raise ImportError(
        f"mplan: cannot load the native module ({_e}); this is Python "
        f"{_sys.version_info.major}.{_sys.version_info.minor} at {_sys.executable}, the build has "
        f"{', '.join(_built) or 'no _mplan*.so'}: use the Python the build was configured with "
        f"(Debian's /usr/bin/python3) or rebuild with -DPython3_EXECUTABLE=...") from _e
from ._mplan import Buffer, CsvTable, Diagnostic, Plan

__all__ = [
    "Buffer", "CsvTable", "Diagnostic", "Plan", "PlannedModule",
    "Error", "CsvError", "PlanError", "InvalidPlanError", "MLIRError", "ReportError",
    "plan", "lower_bound", "validate_plan", "validate_input", "strategies",
    "read_csv", "parse_csv", "write_csv", "format_csv", "plan_csv",
    "run_pipeline", "plan_module", "is_registered_pass",
]

__version__ = "0.1.0"

#: Anything :func:`plan` accepts as one buffer: a :class:`Buffer`, a tuple
#: ``(id, start, end, size[, alignment])`` or a mapping with those keys
#: (``lower``/``upper`` are accepted for ``start``/``end``).
BufferLike = Union[Buffer, Sequence[int], Mapping[str, int]]


def _to_buffer(b: BufferLike) -> Buffer:
    if isinstance(b, Buffer):
        return b
    if isinstance(b, Mapping):
        try:
            start = b["start"] if "start" in b else b["lower"]
            end = b["end"] if "end" in b else b["upper"]
            return Buffer(int(b["id"]), int(start), int(end), int(b["size"]),
                          int(b.get("alignment", 1)))
        except KeyError as e:
            raise PlanError(f"buffer {dict(b)!r} has no {e.args[0]!r} key") from None
    if isinstance(b, (str, bytes)):
        raise PlanError(f"not a buffer: {b!r}")
    try:
        fields = [int(x) for x in b]
    except (TypeError, ValueError):
        raise PlanError(f"not a buffer: {b!r}") from None
    if len(fields) not in (4, 5):
        raise PlanError(f"a buffer tuple is (id, start, end, size[, alignment]), got {b!r}")
    return Buffer(*fields)


def _to_buffers(buffers: Iterable[BufferLike]) -> List[Buffer]:
    if isinstance(buffers, CsvTable):
        return list(buffers.buffers)
    return [_to_buffer(b) for b in buffers]


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
      time_limit: search budget of ``best`` in seconds.
      alignment: minimum alignment of every buffer (a power of two).
      stagger: cache stagger in bytes (0: off; a multiple of ``alignment``):
        every offset ``o`` moves up by ``(o // 4096) * stagger`` so buffers a
        multiple of 4 KiB apart do not share their address modulo 4 KiB.

    Returns:
      A :class:`Plan`: ``offsets`` (parallel to ``buffers``), ``arena_size``,
      ``lower_bound``, ``strategy`` (the winning member for ``best``),
      ``seconds``, ``proven_optimal``, ``stagger_bytes`` and ``ratio``.

    Raises:
      PlanError: invalid buffers, unknown strategy or invalid options.
    """
    if not isinstance(strategy, str):
        raise PlanError(f"strategy must be a string, got {strategy!r}")
    return _mplan.plan_buffers(_to_buffers(buffers), strategy, float(time_limit), int(alignment),
                               int(stagger))


def lower_bound(buffers: Iterable[BufferLike], alignment: int = 1) -> int:
    """The max-live lower bound in bytes (no plan can use less).

    Raises:
      PlanError: invalid buffers or overflow.
    """
    return _mplan.lower_bound(_to_buffers(buffers), int(alignment))


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
    """
    bufs = _to_buffers(buffers)
    offs = [int(o) for o in offsets]
    if len(offs) != len(bufs):
        raise InvalidPlanError(f"{len(offs)} offsets for {len(bufs)} buffers")
    if arena_size is None:
        arena_size = max((o + b.size for o, b in zip(offs, bufs)), default=0)
    message = _mplan.validate_plan(bufs, offs, int(arena_size), int(alignment))
    if message is not None:
        raise InvalidPlanError(message)


def parse_csv(text: str) -> CsvTable:
    """Parses MiniMalloc CSV text (header with at least ``id,lower,upper,size``).

    Raises:
      CsvError: naming the line.
    """
    return _mplan.parse_csv(text)


def read_csv(path: Union[str, "os.PathLike[str]"]) -> CsvTable:
    """Reads a MiniMalloc CSV file.

    Raises:
      CsvError: naming the file and line (also when it cannot be read).
    """
    return _mplan.read_csv(os.fspath(path))


def write_csv(table: CsvTable, offsets: Sequence[int],
              path: Union[str, "os.PathLike[str]", None] = None) -> str:
    """Renders ``table`` with an ``offset`` column (extra columns kept), as
    ``mplan-plan`` does; also writes it to ``path`` when given."""
    text = _mplan.write_csv(table, [int(o) for o in offsets])
    if path is not None:
        _write_atomically(os.fspath(path), text)
    return text


def format_csv(buffers: Iterable[BufferLike], offsets: Optional[Sequence[int]] = None) -> str:
    """Buffers as ``id,lower,upper,size[,alignment][,offset]`` CSV text."""
    return _mplan.format_csv(_to_buffers(buffers),
                             None if offsets is None else [int(o) for o in offsets])


def _write_atomically(path: str, text: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".mplan-", dir=directory)
    try:
        with os.fdopen(fd, "w", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def plan_csv(in_path: Union[str, "os.PathLike[str]"], out_path: Union[str, "os.PathLike[str]"],
             strategy: str = "best", time_limit: float = 10.0, alignment: int = 1) -> Plan:
    """Plans a MiniMalloc CSV file and writes the same rows with an
    ``offset`` column to ``out_path`` -- byte for byte what
    ``mplan-plan --strategy=S --time-limit=T --alignment=A IN -o OUT`` writes.
    Nothing is written on error.

    Raises:
      CsvError: malformed input. PlanError: unknown strategy or bad options.
      InvalidPlanError: the planner produced an invalid plan (a bug).
    """
    table = read_csv(in_path)
    result = plan(table.buffers, strategy=strategy, time_limit=time_limit, alignment=alignment)
    message = _mplan.validate_plan(table.buffers, result.offsets, result.arena_size, int(alignment))
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
    if not isinstance(source, str) or not isinstance(pipeline, str):
        raise TypeError("run_pipeline(source: str, pipeline: str)")
    text, diags, _ = _mplan.run_pipeline(source, pipeline, source_name, verify_each,
                                         print_generic, print_locations, multithreaded)
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
    with tempfile.TemporaryDirectory(prefix="mplan-") as tmp:
        report_path = os.path.join(tmp, "report.json")
        stages = []
        if bufferize:
            stages.append("one-shot-bufferize{bufferize-function-boundaries "
                          "function-boundary-type-conversion=identity-layout-map}")
        stages.append("mplan-plan-pipeline{strategy=%s time-limit=%s alignment=%s report=%s}" % (
            _option_value(strategy), _option_value(float(time_limit)),
            _option_value(int(alignment)), _option_value(report_path)))
        if arena is not None:
            stages.append("convert-mplan-to-memref{arena=%s}" % _option_value(arena))
        diags: List[Diagnostic] = []
        text = run_pipeline(source, ",".join(stages), source_name=source_name, diagnostics=diags)
        with open(report_path) as f:
            report = json.load(f)
    return PlannedModule(text=text, report=report, diagnostics=diags)
