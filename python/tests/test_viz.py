"""Pictures: SVG / PNG / HTML from reports and planned CSVs."""

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import mplan
from mplan import report, viz

SVG_NS = "{http://www.w3.org/2000/svg}"

REPORT = {"functions": [
    {"name": "main", "strategy": "best(search)", "arena_bytes": 3 << 20,
     "lower_bound_bytes": 3 << 20,
     "buffers": [
         {"id": 0, "loc": "m.mlir:3:8", "start": 0, "end": 4, "size": 2 << 20, "offset": 0},
         {"id": 1, "loc": "m.mlir:4:8", "start": 2, "end": 6, "size": 1 << 20, "offset": 2 << 20},
         {"id": 7, "loc": "m.mlir:9:10", "start": 4, "end": 9, "size": 100, "offset": 0},
         {"id": 8, "loc": "", "start": 6, "end": 9, "size": 70000, "offset": 1 << 20}],
     "unmanaged": [{"loc": "m.mlir:12:5", "reason": "dynamic size"},
                   {"loc": "m.mlir:13:5", "reason": "returned <to the caller> & more"}]},
    {"name": "helper", "strategy": "greedy-by-size", "arena_bytes": 64,
     "lower_bound_bytes": 48,
     "buffers": [{"id": 0, "loc": "h.mlir:1:1", "start": 0, "end": 2, "size": 48, "offset": 0},
                 {"id": 1, "loc": "h.mlir:2:1", "start": 2, "end": 3, "size": 16, "offset": 48}],
     "unmanaged": []},
    {"name": "empty", "strategy": "best", "arena_bytes": 0, "lower_bound_bytes": 0,
     "buffers": [], "unmanaged": []},
]}


def buffer_groups(svg_text):
    root = ET.fromstring(svg_text)
    return root, [r for r in root.iter(SVG_NS + "rect") if r.find(SVG_NS + "title") is not None]


def test_svg_has_one_rect_per_buffer_and_marks(tmp_path):
    functions = report.from_report(REPORT)
    text = viz.render_svg(functions)
    root, rects = buffer_groups(text)
    assert len(rects) == 6  # main + helper; "empty" has nothing to draw
    titles = [r.find(SVG_NS + "title").text for r in rects]
    for fn in REPORT["functions"][:2]:
        for b in fn["buffers"]:
            assert any(t.startswith(f"buffer {b['id']} at {b['loc'] or '(no location)'}\n")
                       for t in titles)
    texts = " | ".join("".join(t.itertext()) for t in root.iter(SVG_NS + "text"))
    assert "arena 3 MiB" in texts and "lower bound 3 MiB" in texts
    assert "lower bound 48 B" in texts
    assert "Unplanned buffers (2)" in texts
    assert "returned <to the caller> & more" in texts
    assert "m.mlir:12:5: dynamic size" in texts
    # Colours by size class: the 100 B and the 2 MiB buffer differ.
    fills = {r.find(SVG_NS + "title").text.split()[1]: r.get("fill") for r in rects[:4]}
    assert len(set(fills.values())) >= 3
    # Geometry: y grows downwards; the buffer at offset 0 sits at the bottom.
    by_id = {t.text.split()[1]: r for t, r in ((r.find(SVG_NS + "title"), r) for r in rects[:4])}
    assert float(by_id["0"].get("y")) > float(by_id["1"].get("y"))
    assert float(by_id["7"].get("x")) > float(by_id["0"].get("x"))


def test_svg_picks_functions():
    functions = report.from_report(REPORT)
    _, rects = buffer_groups(viz.render_svg(functions, ["helper"]))
    assert len(rects) == 2
    with pytest.raises(mplan.ReportError, match="nope"):
        viz.render_svg(functions, ["nope"])


def test_csv_plan_input(tmp_path):
    src = tmp_path / "in.csv"
    src.write_text("id,lower,upper,size\n0,0,3,64\n1,1,4,32\n2,3,6,64\n")
    planned = tmp_path / "planned.csv"
    plan = mplan.plan_csv(src, planned)
    (fn,) = report.load(planned)
    assert fn.name == "planned"
    assert fn.arena_bytes == plan.arena_size and fn.lower_bound_bytes == plan.lower_bound
    _, rects = buffer_groups(viz.render_svg([fn]))
    assert len(rects) == 3
    # Not planned yet: a clear error.
    with pytest.raises(mplan.ReportError, match="offset"):
        report.load(src)


@pytest.mark.parametrize("content, match", [
    ("{\"functions\": 3}", "functions"),
    ("{\"functions\": [{\"buffers\": [{\"id\": 0}]}]}", "missing"),
    ("{\"functions\": [{\"buffers\": [{\"id\": \"x\", \"start\": 0, \"end\": 1, "
     "\"size\": 1, \"offset\": 0}]}]}", "integer"),
    ("{not json", "invalid JSON"),
    ("id,lower,upper,size,offset\n0,0,1,zz,0\n", "line 2"),
    ("", "empty"),
])
def test_bad_reports_raise(tmp_path, content, match):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(mplan.ReportError, match=match):
        report.load(path)


def run_viz(*args):
    return subprocess.run([sys.executable, "-m", "mplan.viz", *map(str, args)],
                          capture_output=True, text=True)


def test_cli_svg_html_and_errors(tmp_path):
    src = tmp_path / "plan.json"
    src.write_text(json.dumps(REPORT))
    proc = run_viz(src, "-o", tmp_path / "plan.svg")
    assert proc.returncode == 0, proc.stderr
    assert "6 buffers" in proc.stderr
    ET.parse(tmp_path / "plan.svg")
    proc = run_viz(src, "-o", tmp_path / "plan.html", "-f", "main")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "plan.html").read_text().count('class="buf"') == 4
    bad = run_viz(tmp_path / "missing.json", "-o", tmp_path / "x.svg")
    assert bad.returncode == 1 and "missing.json" in bad.stderr
    bad = run_viz(src, "-o", tmp_path / "x.gif")
    assert bad.returncode == 1 and "unknown output type" in bad.stderr
    assert not (tmp_path / "x.gif").exists()


@pytest.mark.skipif(shutil.which("rsvg-convert") is None,
                    reason="rsvg-convert (Debian librsvg2-bin) not installed")
def test_cli_png(tmp_path):
    src = tmp_path / "plan.json"
    src.write_text(json.dumps(REPORT))
    proc = run_viz(src, "-o", tmp_path / "plan.png")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "plan.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_html_is_self_contained():
    page = viz.render_html(report.from_report(REPORT))
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in page
    assert "<script src" not in page and "<link" not in page
    # The embedded JSON cannot close its <script> element early.
    assert "returned \\u003cto the caller\\u003e" in page
    assert page.count('class="panel"') == 2


def test_human_bytes_and_size_class():
    assert viz.human_bytes(512) == "512 B"
    assert viz.human_bytes(1536) == "1.5 KiB"
    assert viz.human_bytes(3 << 20) == "3 MiB"
    assert [viz.size_class(s) for s in (1, 5000, 100000, 2 << 20, 32 << 20)] == [0, 1, 2, 3, 4]


def invalid_report():
    """REPORT's "main" edited into an impossible plan, one problem per kind."""
    bad = json.loads(json.dumps(REPORT))
    buffers = bad["functions"][0]["buffers"]
    buffers[1]["offset"] = 1 << 20          # 1 overlaps 0 while both live (2..4)
    buffers[2]["offset"] = -64              # negative offset
    buffers[3]["end"] = 5                   # end < start (6)
    buffers.append(dict(buffers[2], offset=0, start=0, end=1, size=4))  # duplicate id 7
    return bad


def test_check_finds_every_problem():
    (main, helper, empty) = report.from_report(invalid_report())
    assert report.check(helper) == [] and report.check(empty) == []
    problems = {p.message: p.buffers for p in report.check(main)}
    assert problems == {
        "buffer 7: negative offset -64": (2,),
        "buffer 8: end (5) must be greater than start (6)": (3,),
        "duplicate buffer id 7": (2, 4),
        "buffers 0 and 7 are live at the same time and overlap in memory": (0, 4),
        "buffers 0 and 1 are live at the same time and overlap in memory": (0, 1),
    }


def test_check_matches_validate_plan_on_random_plans():
    import random
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randrange(1, 12)
        bufs = []
        for i in range(n):
            start = rng.randrange(0, 10)
            bufs.append(mplan.Buffer(i, start, start + rng.randrange(1, 5), rng.randrange(0, 9)))
        offsets = [rng.randrange(0, 24) for _ in bufs]
        arena = max(o + b.size for o, b in zip(offsets, bufs))
        fn = report.FunctionPlan("f", "", arena, 0, [
            report.PlacedBuffer(b.id, b.start, b.end, b.size, o) for b, o in zip(bufs, offsets)])
        try:
            mplan.validate_plan(bufs, offsets, arena)
            valid = True
        except mplan.InvalidPlanError:
            valid = False
        assert (report.check(fn) == []) == valid, (bufs, offsets)


def test_invalid_plans_are_drawn_marked(tmp_path):
    functions = report.from_report(invalid_report())
    svg = viz.render_svg(functions)
    root, rects = buffer_groups(svg)
    marked = [r for r in rects if r.get("stroke") == "#e00"]
    titles = [r.find(SVG_NS + "title").text for r in marked]
    assert len(marked) == 5  # all of main's buffers but none of helper's
    assert all("INVALID: " in t for t in titles)
    assert any("INVALID: buffers 0 and 1 are live at the same time" in t for t in titles)
    assert "INVALID PLAN" in svg and svg.count("INVALID PLAN") == 1
    page = viz.render_html(functions)
    assert page.count('class="buf conflict"') == 5
    assert "buffers 0 and 1 are live at the same time" in page
    # A valid report has no marks.
    assert "INVALID" not in viz.render_svg(report.from_report(REPORT))


@pytest.mark.parametrize("suffix", [".svg", ".html"])
def test_cli_invalid_plan_warns_and_fails_unless_allowed(tmp_path, suffix):
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(invalid_report()))
    out = tmp_path / ("x" + suffix)
    proc = run_viz(src, "-o", out)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0].startswith("mplan.viz: warning: main: invalid plan: ")
    assert "(and 4 more problems)" in lines[0]
    assert lines[-1] == ("mplan.viz: error: 1 of 2 function(s) drawn have an invalid plan "
                         "(--allow-invalid accepts them)")
    assert "INVALID" in out.read_text()
    out.unlink()
    proc = run_viz(src, "-o", out, "--allow-invalid")
    assert proc.returncode == 0, proc.stderr
    assert "warning: main: invalid plan" in proc.stderr and "error" not in proc.stderr
    assert out.exists()
    # Only the drawn functions are checked.
    proc = run_viz(src, "-o", out, "-f", "helper")
    assert proc.returncode == 0 and "warning" not in proc.stderr


@pytest.mark.parametrize("edit", [
    lambda b: b[1].update(offset=(1 << 20)),     # overlap
    lambda b: b[0].update(offset=-8),            # negative offset
    lambda b: b[0].update(end=-1),               # end < start
    lambda b: b[3].update(id=0),                 # duplicate id
    lambda b: b[0].update(size=-1),              # negative size
    lambda b: b[0].update(offset=3 << 20),       # outside the arena
])
def test_cli_each_kind_of_invalid_plan(tmp_path, edit):
    bad = json.loads(json.dumps(REPORT))
    edit(bad["functions"][0]["buffers"])
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(bad))
    proc = run_viz(src, "-o", tmp_path / "x.svg")
    assert proc.returncode == 1 and "warning: main: invalid plan" in proc.stderr, proc.stderr
