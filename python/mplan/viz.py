"""Pictures of memory plans: time (op index) x byte offset.

Command line::

    python3 -m mplan.viz REPORT.json -o plan.svg      # or plan.png, plan.html
    python3 -m mplan.viz PLAN.csv -o plan.svg          # a planned CSV

Each buffer is one rectangle from ``start`` to ``end`` (x) and ``offset`` to
``offset + size`` (y), labelled with its id, coloured by size class; the arena
size is a solid line, the max-live lower bound a dashed one, and buffers left
unplanned are listed under the plot. The HTML page is self-contained (no
network): hovering a buffer shows its id, location, size, interval and offset,
and a picker switches between functions.

Every drawn function is checked first (:func:`mplan.report.check`, the checks
of :func:`mplan.validate_plan`): the buffers of an impossible plan (live at
the same time and sharing bytes, negative offset, ``end <= start``, duplicate
id, ...) are outlined in red with the reason in their hover text; the command
warns and exits with status 1 unless ``--allow-invalid`` is given.
"""

from __future__ import annotations

import html
import json
import math
import os
import shutil
import subprocess
import sys
from typing import Dict, List, Optional, Sequence, Tuple, Union

from . import _cli
from ._output import STDIO, write_output
from .errors import ReportError
from .report import FunctionPlan, PlacedBuffer, Problem, check, load

__all__ = ["SIZE_CLASSES", "size_class", "human_bytes", "render_function_svg",
           "render_svg", "render_html", "render", "main"]

#: (upper bound in bytes, exclusive; colour; legend label)
SIZE_CLASSES: List[Tuple[float, str, str]] = [
    (4 << 10, "#9ecae1", "< 4 KiB"),
    (64 << 10, "#6baed6", "4-64 KiB"),
    (1 << 20, "#74c476", "64 KiB-1 MiB"),
    (16 << 20, "#fd8d3c", "1-16 MiB"),
    (math.inf, "#de2d26", ">= 16 MiB"),
]

WIDTH = 1100
LEFT, RIGHT, TOP, BOTTOM = 90, 30, 64, 46
PLOT_HEIGHT = 420
LINE = 16


def size_class(size: int) -> int:
    """Index into SIZE_CLASSES."""
    for i, (limit, _, _) in enumerate(SIZE_CLASSES):
        if size < limit:
            return i
    return len(SIZE_CLASSES) - 1


def human_bytes(n: float) -> str:
    """1536 -> '1.5 KiB'."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            if unit == "B":
                return f"{int(n)} B"
            return f"{n:.3g} {unit}" if n < 100 else f"{n:.0f} {unit}"
        n /= 1024
    return f"{n} TiB"


def _nice_ticks(lo: float, hi: float, count: int = 8) -> List[float]:
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / count
    mag = 10 ** math.floor(math.log10(raw))
    # Op indices are integers: no ticks between them.
    step = max(next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw), 1)
    first = math.ceil(lo / step) * step
    ticks = []
    t = first
    while t <= hi + 1e-9:
        ticks.append(t)
        t += step
    return ticks


def _byte_ticks(hi: float, count: int = 6) -> List[float]:
    if hi <= 0:
        return [0]
    raw = hi / count
    step = 2 ** math.ceil(math.log2(raw)) if raw >= 1 else 1
    # Prefer 1/2/5-style steps in binary units when they are closer.
    ticks, t = [], 0.0
    while t <= hi + 1e-9:
        ticks.append(t)
        t += step
    return ticks


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def buffer_label(b: PlacedBuffer) -> str:
    return str(b.id)


def hover_text(b: PlacedBuffer, problems: Sequence[Problem] = (), split_of=None) -> str:
    """The text shown for a buffer (SVG <title>, HTML hover), with the
    ``problems`` it is part of and, for a later part of a split live range,
    ``split_of`` (the original buffer's id and "remat" or "offload")."""
    loc = b.loc or "(no location)"
    split = ""
    if split_of:
        how = "recomputed" if split_of[1] == "remat" else "copied back in"
        split = f"\nlater part of buffer {split_of[0]} ({how})"
    return (f"buffer {b.id} at {loc}\nsize {human_bytes(b.size)} ({b.size} B)\n"
            f"live [{b.start}, {b.end})\noffset {b.offset} .. {b.offset + b.size}" + split
            + "".join(f"\nINVALID: {p.message}" for p in problems))


def _problems_by_buffer(problems: Sequence[Problem]) -> Dict[int, List[Problem]]:
    result: Dict[int, List[Problem]] = {}
    for p in problems:
        for i in p.buffers:
            result.setdefault(i, []).append(p)
    return result


def _panel_height(fn: FunctionPlan, max_unplanned: int) -> int:
    shown = min(len(fn.unmanaged), max_unplanned)
    extra = 0
    if fn.unmanaged:
        extra = LINE * (shown + 1 + (1 if len(fn.unmanaged) > shown else 0)) + 10
    return TOP + PLOT_HEIGHT + BOTTOM + extra + 8


def render_function_svg(fn: FunctionPlan, *, max_unplanned: int = 40,
                        interactive: bool = False,
                        problems: Optional[Sequence[Problem]] = None) -> Tuple[str, int]:
    """One function's panel as SVG elements (no <svg> wrapper) and its height.

    With ``interactive`` every buffer rect gets ``class="buf"`` and a
    ``data-index`` (its position in ``fn.buffers``) for the HTML page. The
    buffers in ``problems`` (default: ``check(fn)``) are outlined in red
    (``class="conflict"``) and the panel says the plan is invalid.
    """
    if problems is None:
        problems = check(fn)
    marked = _problems_by_buffer(problems)
    out: List[str] = []
    plot_w = WIDTH - LEFT - RIGHT
    t0 = min((b.start for b in fn.buffers), default=0)
    t1 = max((b.end for b in fn.buffers), default=1)
    if t1 <= t0:
        t1 = t0 + 1
    ymax = max(fn.arena_bytes, fn.lower_bound_bytes,
               max((b.offset + b.size for b in fn.buffers), default=0), 1) * 1.04

    def x(t: float) -> float:
        return LEFT + (t - t0) / (t1 - t0) * plot_w

    def y(v: float) -> float:
        return TOP + PLOT_HEIGHT - v / ymax * PLOT_HEIGHT

    ratio = f", {fn.ratio:.3f}x the bound" if fn.lower_bound_bytes else ""
    strategy = f", strategy {fn.strategy}" if fn.strategy else ""
    out.append(f'<text x="{LEFT}" y="22" class="title">{_esc(fn.name)}</text>')
    out.append(f'<text x="{LEFT}" y="42" class="sub">{len(fn.buffers)} buffers, arena '
               f'{_esc(human_bytes(fn.arena_bytes))} ({fn.arena_bytes} B), lower bound '
               f'{_esc(human_bytes(fn.lower_bound_bytes))}{_esc(ratio)}{_esc(strategy)}, '
               f'{len(fn.unmanaged)} unplanned{_esc(_runtime_sized(fn))}</text>')
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        out.append(f'<text x="{LEFT}" y="{TOP - 7}" class="small invalid">INVALID PLAN: '
                   f'{_esc(problems[0].message)}{_esc(more)}; the buffers involved are '
                   f'outlined in red</text>')
    # Legend (size classes), right-aligned on the title line.
    lx = WIDTH - RIGHT - 5 * 100
    for i, (_, colour, label) in enumerate(SIZE_CLASSES):
        out.append(f'<rect x="{lx + i * 100}" y="11" width="12" height="12" fill="{colour}" '
                   f'stroke="#333" stroke-width="0.5"/>'
                   f'<text x="{lx + i * 100 + 16}" y="21" class="small">{_esc(label)}</text>')
    # Plot frame and axes.
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{PLOT_HEIGHT}" '
               f'fill="#fafafa" stroke="#999"/>')
    for t in _nice_ticks(t0, t1):
        xt = x(t)
        out.append(f'<line x1="{xt:.1f}" y1="{TOP + PLOT_HEIGHT}" x2="{xt:.1f}" '
                   f'y2="{TOP + PLOT_HEIGHT + 5}" stroke="#666"/>'
                   f'<text x="{xt:.1f}" y="{TOP + PLOT_HEIGHT + 18}" class="small" '
                   f'text-anchor="middle">{int(t)}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{TOP + PLOT_HEIGHT + 36}" class="small" '
               f'text-anchor="middle">time (op index)</text>')
    for v in _byte_ticks(ymax / 1.04):
        yt = y(v)
        out.append(f'<line x1="{LEFT - 5}" y1="{yt:.1f}" x2="{LEFT}" y2="{yt:.1f}" stroke="#666"/>'
                   f'<line x1="{LEFT}" y1="{yt:.1f}" x2="{LEFT + plot_w}" y2="{yt:.1f}" '
                   f'stroke="#eee"/>'
                   f'<text x="{LEFT - 8}" y="{yt + 4:.1f}" class="small" '
                   f'text-anchor="end">{_esc(human_bytes(v))}</text>')
    out.append(f'<text x="16" y="{TOP + PLOT_HEIGHT / 2:.1f}" class="small" text-anchor="middle" '
               f'transform="rotate(-90 16 {TOP + PLOT_HEIGHT / 2:.1f})">byte offset</text>')
    # Buffers, largest first so small ones stay on top where they overlap
    # visually (they never overlap in a valid plan); marked ones last so their
    # outline shows.
    order = sorted(range(len(fn.buffers)), key=lambda i: (i in marked, -fn.buffers[i].size))
    size_of = {o.id: o.size for o in fn.buffers}
    for i in order:
        b = fn.buffers[i]
        bx, bw = x(b.start), max(x(b.end) - x(b.start), 1.0)
        top, h = y(b.offset + b.size), max(b.size / ymax * PLOT_HEIGHT, 1.0)
        # The parts of a split live range share the original buffer's colour.
        root = fn.split_of.get(b.id, (b.id, ""))[0]
        root_size = size_of.get(root, b.size)
        colour = SIZE_CLASSES[size_class(root_size)][1]
        classes = " ".join(c for c, on in (("buf", interactive), ("conflict", i in marked)) if on)
        attrs = f' class="{classes}"' if classes else ""
        if interactive:
            attrs += f' data-index="{i}" data-id="{b.id}"'
        stroke = 'stroke="#e00" stroke-width="2.5"' if i in marked else \
            'stroke="#333" stroke-width="0.4"'
        out.append(f'<g{attrs}><rect x="{bx:.2f}" y="{top:.2f}" width="{bw:.2f}" '
                   f'height="{h:.2f}" fill="{colour}" {stroke}>'
                   f'<title>{_esc(hover_text(b, marked.get(i, ()), fn.split_of.get(b.id)))}'
                   f'</title></rect>')
        label = buffer_label(b)
        if bw >= 7 * len(label) + 4 and h >= 11:
            out.append(f'<text x="{bx + bw / 2:.2f}" y="{top + h / 2 + 4:.2f}" class="label" '
                       f'text-anchor="middle">{_esc(label)}</text>')
        out.append('</g>')
    # Arena and lower bound.
    ya, yb = y(fn.arena_bytes), y(fn.lower_bound_bytes)
    out.append(f'<line x1="{LEFT}" y1="{ya:.2f}" x2="{LEFT + plot_w}" y2="{ya:.2f}" '
               f'class="arena"/><text x="{LEFT + plot_w - 4}" y="{ya - 4:.2f}" class="small arena-t" '
               f'text-anchor="end">arena {_esc(human_bytes(fn.arena_bytes))}</text>')
    anchor_y = yb + 13 if abs(yb - ya) < 14 else yb - 4
    out.append(f'<line x1="{LEFT}" y1="{yb:.2f}" x2="{LEFT + plot_w}" y2="{yb:.2f}" '
               f'class="bound"/><text x="{LEFT + 4}" y="{anchor_y:.2f}" class="small bound-t">'
               f'lower bound {_esc(human_bytes(fn.lower_bound_bytes))}</text>')
    # Unplanned buffers.
    yy = TOP + PLOT_HEIGHT + BOTTOM + LINE
    if fn.unmanaged:
        out.append(f'<text x="{LEFT}" y="{yy}" class="sub">Unplanned buffers '
                   f'({len(fn.unmanaged)}):</text>')
        for u in fn.unmanaged[:max_unplanned]:
            yy += LINE
            out.append(f'<text x="{LEFT + 12}" y="{yy}" class="small unplanned">'
                       f'{_esc(u.loc or "(no location)")}: {_esc(u.reason)}</text>')
        if len(fn.unmanaged) > max_unplanned:
            yy += LINE
            out.append(f'<text x="{LEFT + 12}" y="{yy}" class="small">... and '
                       f'{len(fn.unmanaged) - max_unplanned} more</text>')
    return "\n".join(out), _panel_height(fn, max_unplanned)


STYLE = """
text { font-family: 'DejaVu Sans', Helvetica, Arial, sans-serif; fill: #222; }
.title { font-size: 17px; font-weight: bold; }
.sub { font-size: 13px; }
.small { font-size: 11px; }
.label { font-size: 10px; pointer-events: none; }
.arena { stroke: #c00; stroke-width: 1.6; }
.arena-t { fill: #c00; }
.bound { stroke: #1a4; stroke-width: 1.4; stroke-dasharray: 6 4; }
.bound-t { fill: #1a4; }
.unplanned { fill: #a40; }
.invalid { fill: #e00; font-weight: bold; }
"""


def _select(functions: Sequence[FunctionPlan], names: Optional[Sequence[str]]) -> List[FunctionPlan]:
    if names:
        chosen = [f for f in functions if f.name in names]
        unknown = sorted(set(names) - {f.name for f in functions})
        if unknown:
            raise ReportError("no function named " + ", ".join(unknown) + " (have: "
                              + ", ".join(f.name for f in functions) + ")")
        return chosen
    useful = [f for f in functions if f.buffers or f.unmanaged or f.dynamic_buffers]
    return useful or list(functions)


def _runtime_sized(fn: FunctionPlan) -> str:
    """The header's note on the run-time sized buffers (not drawn: their
    offsets are known only when the function runs)."""
    if not fn.dynamic_buffers:
        return ""
    return (f", {len(fn.dynamic_buffers)} sized at run time above the static bytes "
            f"(arena {fn.dynamic_arena})")


def render_svg(functions: Sequence[FunctionPlan], names: Optional[Sequence[str]] = None) -> str:
    """A standalone SVG document: one panel per function (functions with
    neither planned nor unplanned buffers are skipped unless named)."""
    chosen = _select(functions, names)
    if not chosen:
        raise ReportError("the report has no functions")
    parts, offset = [], 0
    for fn in chosen:
        body, height = render_function_svg(fn)
        parts.append(f'<g transform="translate(0,{offset})">\n{body}\n</g>')
        offset += height
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{offset}" '
            f'viewBox="0 0 {WIDTH} {offset}">\n<style>{STYLE}</style>\n'
            f'<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(parts) + "\n</svg>\n")


HTML_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>__TITLE__</title>
<style>
body { font-family: 'DejaVu Sans', Helvetica, Arial, sans-serif; margin: 16px; color: #222; }
header { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
h1 { font-size: 18px; margin: 0; }
#summary { font-size: 13px; color: #444; }
.panel { display: none; }
.panel.active { display: block; }
.buf rect { cursor: crosshair; }
.buf:hover rect, .buf.hot rect { stroke: #000; stroke-width: 1.6; fill-opacity: 0.8; }
.buf.conflict:hover rect, .buf.conflict.hot rect { stroke: #e00; stroke-width: 3; }
#tooltip { position: fixed; display: none; pointer-events: none; background: #fffff0;
  border: 1px solid #888; padding: 6px 8px; font-size: 12px; white-space: pre;
  box-shadow: 2px 2px 6px rgba(0,0,0,.25); z-index: 10; }
__STYLE__
</style>
</head>
<body>
<header>
<h1>__TITLE__</h1>
<label>function <select id="function">__OPTIONS__</select></label>
<span id="summary"></span>
</header>
<div id="panels">
__PANELS__
</div>
<div id="tooltip" role="tooltip"></div>
<script type="application/json" id="mplan-data">__DATA__</script>
<script>
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("mplan-data").textContent);
  var select = document.getElementById("function");
  var tooltip = document.getElementById("tooltip");
  var summary = document.getElementById("summary");
  function human(n) {
    var units = ["B", "KiB", "MiB", "GiB", "TiB"], i = 0;
    while (Math.abs(n) >= 1024 && i < units.length - 1) { n /= 1024; i++; }
    return i === 0 ? n + " B" : (n < 100 ? n.toPrecision(3) : n.toFixed(0)) + " " + units[i];
  }
  function describe(fn, b) {
    return "buffer " + b.id + "\\n" +
      "location: " + (b.loc || "(no location)") + "\\n" +
      "size: " + human(b.size) + " (" + b.size + " B)\\n" +
      "interval: [" + b.start + ", " + b.end + ")  (" + (b.end - b.start) + " ops)\\n" +
      "offset: " + b.offset + " .. " + (b.offset + b.size) + "  (" + human(b.offset) + ")" +
      (b.problems || []).map(function (p) { return "\\nINVALID: " + p; }).join("");
  }
  function show(index) {
    var panels = document.querySelectorAll(".panel");
    for (var i = 0; i < panels.length; i++)
      panels[i].classList.toggle("active", i === index);
    var fn = data.functions[index];
    summary.textContent = fn.buffers.length + " buffers, arena " + human(fn.arena_bytes) +
      ", lower bound " + human(fn.lower_bound_bytes) +
      (fn.strategy ? ", strategy " + fn.strategy : "") + ", " + fn.unmanaged.length +
      " unplanned" +
      (fn.problems.length ? " -- INVALID PLAN (" + fn.problems.length + " problems)" : "");
    select.value = String(index);
    tooltip.style.display = "none";
  }
  select.addEventListener("change", function () { show(Number(select.value)); });
  var panels = document.querySelectorAll(".panel");
  Array.prototype.forEach.call(panels, function (panel, fi) {
    panel.addEventListener("mouseover", function (ev) {
      var g = ev.target.closest ? ev.target.closest(".buf") : null;
      if (!g) return;
      var fn = data.functions[fi], b = fn.buffers[Number(g.getAttribute("data-index"))];
      tooltip.textContent = describe(fn, b);
      tooltip.style.display = "block";
      g.classList.add("hot");
    });
    panel.addEventListener("mouseout", function (ev) {
      var g = ev.target.closest ? ev.target.closest(".buf") : null;
      if (g) g.classList.remove("hot");
      tooltip.style.display = "none";
    });
    panel.addEventListener("mousemove", function (ev) {
      var x = ev.clientX + 14, y = ev.clientY + 14;
      if (x + tooltip.offsetWidth > window.innerWidth) x = ev.clientX - tooltip.offsetWidth - 8;
      if (y + tooltip.offsetHeight > window.innerHeight) y = ev.clientY - tooltip.offsetHeight - 8;
      tooltip.style.left = x + "px";
      tooltip.style.top = y + "px";
    });
  });
  show(0);
})();
</script>
</body>
</html>
"""


def render_html(functions: Sequence[FunctionPlan], names: Optional[Sequence[str]] = None,
                title: str = "mplan memory plan") -> str:
    """One self-contained HTML page (inline SVG, CSS and script, no network):
    hover a buffer for its id, location, size, interval and offset; the
    function picker switches between functions."""
    chosen = _select(functions, names)
    if not chosen:
        raise ReportError("the report has no functions")
    options, panels, data_functions = [], [], []
    for i, fn in enumerate(chosen):
        problems = check(fn)
        body, height = render_function_svg(fn, interactive=True, problems=problems)
        fn_data = fn.to_json()
        fn_data["problems"] = [p.message for p in problems]
        for j, ps in _problems_by_buffer(problems).items():
            fn_data["buffers"][j]["problems"] = [p.message for p in ps]
        data_functions.append(fn_data)
        options.append(f'<option value="{i}">{_esc(fn.name)} ({len(fn.buffers)} buffers)</option>')
        panels.append(f'<div class="panel" data-function="{_esc(fn.name)}">'
                      f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
                      f'viewBox="0 0 {WIDTH} {height}">\n{body}\n</svg></div>')
    data = json.dumps({"functions": data_functions}, separators=(",", ":"))
    # Keep the JSON inert inside <script>.
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return (HTML_TEMPLATE.replace("__TITLE__", _esc(title))
            .replace("__STYLE__", STYLE)
            .replace("__OPTIONS__", "".join(options))
            .replace("__PANELS__", "\n".join(panels))
            .replace("__DATA__", data))


def svg_to_png(svg: str, png_path: str) -> None:
    """Converts SVG text to PNG with rsvg-convert (Debian: librsvg2-bin) and
    writes it to ``png_path`` ('-': standard output) as render does."""
    write_output(png_path, _png_bytes(svg))


def _png_bytes(svg: str) -> bytes:
    tool = shutil.which("rsvg-convert")
    if not tool:
        raise ReportError("PNG output needs rsvg-convert (Debian package librsvg2-bin); "
                          "write an .svg or .html instead")
    proc = subprocess.run([tool, "-b", "white", "-f", "png"], input=svg.encode("utf-8"),
                          capture_output=True)
    if proc.returncode != 0:
        raise ReportError(f"rsvg-convert failed: "
                          f"{_cli.one_line(proc.stderr.decode('utf-8', 'replace'))}")
    return proc.stdout


#: Output formats by file extension.
FORMATS = {".svg": "svg", ".png": "png", ".html": "html", ".htm": "html"}


def render(functions: Sequence[FunctionPlan], output: str,
           names: Optional[Sequence[str]] = None, title: Optional[str] = None,
           format: Optional[str] = None) -> None:
    """Writes ``output`` as SVG, PNG or HTML: ``format`` ("svg", "png",
    "html"), else chosen by the extension (``-``: SVG on standard output).
    The picture is drawn first, then written through the path as the C++
    tools write their outputs (an existing file, symlink, FIFO or device is
    truncated and written, keeping its mode; a new file is removed again if
    writing fails).

    Raises:
      ReportError: unknown format, rsvg-convert missing or failing.
      OutputError: ``output`` cannot be written.
    """
    if format is None:
        format = "svg" if output == STDIO else FORMATS.get(os.path.splitext(output)[1].lower())
    if format == "svg":
        data: Union[str, bytes] = render_svg(functions, names)
    elif format == "html":
        data = render_html(functions, names, title or "mplan memory plan")
    elif format == "png":
        data = _png_bytes(render_svg(functions, names))
    else:
        raise ReportError(f"{output}: unknown output type (use .svg, .png or .html, "
                          f"or --format)")
    write_output(output, data)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = _cli.ArgumentParser(
        prog="python3 -m mplan.viz",
        description="Draw a memory plan (time x byte offset) from an mplan JSON report "
                    "(mplan-opt --mplan-plan-pipeline=\"report=plan.json\") or a planned "
                    "CSV (mplan-plan IN.csv -o OUT.csv). Invalid plans are drawn with the "
                    "buffers involved outlined in red, a warning, and exit status 1.")
    parser.add_argument("input", help="REPORT.json or PLAN.csv ('-': standard input)")
    parser.add_argument("-o", "--output", required=True,
                        help="plan.svg, plan.png (needs rsvg-convert) or plan.html "
                             "('-': standard output, SVG unless --format says otherwise)")
    parser.add_argument("--format", choices=sorted(set(FORMATS.values())),
                        help="the output format (default: by the output's extension)")
    parser.add_argument("-f", "--function", action="append", dest="functions",
                        help="only this function (repeatable); default: every function "
                             "with buffers")
    parser.add_argument("--title", help="page title of the HTML output")
    parser.add_argument("--allow-invalid", action="store_true",
                        help="exit with status 0 even when a drawn plan is invalid")
    _cli.add_debug_option(parser)
    args = parser.parse_args(argv)

    def draw() -> int:
        functions = load(args.input)
        shown = _select(functions, args.functions)
        invalid = 0
        for fn in shown:
            problems = check(fn)
            if problems:
                invalid += 1
                more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
                print(f"mplan.viz: warning: {fn.name}: invalid plan: {problems[0].message}"
                      f"{more}; drawing the buffers involved outlined in red", file=sys.stderr)
        render(functions, args.output, args.functions, args.title, args.format)
        where = "<stdout>" if args.output == STDIO else args.output
        print(f"mplan.viz: wrote {where} ({len(shown)} function(s), "
              f"{sum(len(f.buffers) for f in shown)} buffers)", file=sys.stderr)
        if invalid and not args.allow_invalid:
            print(f"mplan.viz: error: {invalid} of {len(shown)} function(s) drawn have an "
                  f"invalid plan (--allow-invalid accepts them)", file=sys.stderr)
            return _cli.EXIT_ERROR
        return 0

    return _cli.run("mplan.viz", draw, args.debug)


if __name__ == "__main__":
    sys.exit(main())
