"""`python3 -m mplan` and `python3 -m mplan.viz`: every error is one line on
stderr and a non-zero exit, never a traceback; no partial output file."""

import json
import os
import subprocess
import sys

import pytest

OK_CSV = "id,lower,upper,size,name\n0,0,2,4,a\n1,1,3,8,b\n"
REPORT = {"functions": [{"name": "f", "strategy": "best", "arena_bytes": 16,
                         "lower_bound_bytes": 16, "unmanaged": [],
                         "buffers": [{"id": 0, "loc": "", "start": 0, "end": 2, "size": 8,
                                      "offset": 0},
                                     {"id": 1, "loc": "", "start": 1, "end": 3, "size": 8,
                                      "offset": 8}]}]}


def run(module, *args, env=None, cwd=None):
    environ = dict(os.environ)
    environ.pop("MPLAN_DEBUG", None)
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], capture_output=True,
                          text=True, env=environ, cwd=cwd)


def assert_one_line_error(proc, *fragments, status=1):
    assert proc.returncode == status, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    for fragment in fragments:
        assert fragment in lines[0], proc.stderr


@pytest.fixture
def ok_csv(tmp_path):
    path = tmp_path / "ok.csv"
    path.write_text(OK_CSV)
    return path


def listing(directory):
    return sorted(p.name for p in directory.iterdir())


@pytest.mark.parametrize("args, fragments, status", [
    (["--alignment=99999999999999999999"],
     ["mplan: error: alignment 99999999999999999999 is out of range for a 64-bit integer"], 1),
    (["--alignment=3"], ["mplan: error: alignment 3 is not a power of two"], 1),
    (["--alignment=3.5"], ["error: argument --alignment: invalid int value: '3.5'"], 2),
    (["--time-limit=inf"], ["mplan: error: time limit inf is out of range"], 1),
    (["--time-limit=nan"], ["mplan: error: the time limit must be non-negative"], 1),
    (["--time-limit=x"], ["invalid float value: 'x'"], 2),
    (["--stagger=3", "--alignment=2"], ["stagger 3 is not a non-negative multiple"], 1),
    (["--strategy=nope"], ["mplan: error: unknown strategy 'nope'"], 1),
    (["--bogus"], ["unrecognized arguments: --bogus"], 2),
])
def test_mplan_plan_option_errors(tmp_path, ok_csv, args, fragments, status):
    out = tmp_path / "o.csv"
    proc = run("mplan", "plan", ok_csv, "-o", out, *args)
    assert_one_line_error(proc, *fragments, status=status)
    assert listing(tmp_path) == ["ok.csv"]


def test_mplan_plan_output_errors(tmp_path, ok_csv):
    proc = run("mplan", "plan", ok_csv, "-o", "/nonexistent/dir/x.csv")
    assert_one_line_error(proc, "mplan: error: /nonexistent/dir/x.csv: No such file or directory")
    proc = run("mplan", "plan", ok_csv, "-o", tmp_path)
    assert_one_line_error(proc, f"mplan: error: {tmp_path}: Is a directory")
    proc = run("mplan", "plan", ok_csv, "-o", ok_csv / "x.csv")
    assert_one_line_error(proc, "Not a directory")
    assert listing(tmp_path) == ["ok.csv"]
    assert ok_csv.read_text() == OK_CSV


def test_mplan_plan_input_errors(tmp_path, ok_csv):
    proc = run("mplan", "plan", tmp_path / "missing.csv", "-o", tmp_path / "o.csv")
    assert_one_line_error(proc, "missing.csv")
    bad = tmp_path / "bad.csv"
    bad.write_text("id,lower,upper,size\n0,0,2,4.5\n")
    proc = run("mplan", "plan", bad, "-o", tmp_path / "o.csv")
    assert_one_line_error(proc, "line 2", "'4.5' is not an integer")
    proc = run("mplan")
    assert_one_line_error(proc, "required", status=2)
    assert listing(tmp_path) == ["bad.csv", "ok.csv"]


def test_mplan_plan_keeps_bytes_that_are_not_utf8(tmp_path, mplan_plan):
    src = tmp_path / "latin1.csv"
    src.write_bytes(b"id,lower,upper,size,name\n0,0,2,4,caf\xe9\n1,1,3,8,\xff\n")
    proc = run("mplan", "plan", src, "-o", tmp_path / "py.csv", "--strategy=greedy-by-size")
    assert proc.returncode == 0, proc.stderr
    cli = subprocess.run([str(mplan_plan), "--strategy=greedy-by-size", str(src), "-o",
                          str(tmp_path / "cli.csv")], capture_output=True)
    assert cli.returncode == 0
    assert (tmp_path / "py.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    # A file name that is not UTF-8 either.
    odd = tmp_path / os.fsdecode(b"\xff.csv")
    odd.write_text(OK_CSV)
    assert run("mplan", "plan", odd, "-o", tmp_path / "odd-out.csv").returncode == 0
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"id,lower,upper,size\n0,0,2,\xe9\n")
    assert_one_line_error(run("mplan", "plan", bad, "-o", tmp_path / "o.csv"), "line 2")


def test_output_keeps_the_umask_mode(tmp_path, ok_csv):
    out = tmp_path / "o.csv"
    assert run("mplan", "plan", ok_csv, "-o", out).returncode == 0
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask


def test_debug_shows_the_traceback(tmp_path, ok_csv):
    args = ["plan", ok_csv, "-o", tmp_path / "o.csv", "--alignment=3"]
    assert "Traceback" in run("mplan", *args, "--debug").stderr
    assert "Traceback" in run("mplan", *args, env={"MPLAN_DEBUG": "1"}).stderr
    assert "Traceback" not in run("mplan", *args, env={"MPLAN_DEBUG": "0"}).stderr


@pytest.mark.parametrize("content, fragments", [
    (b"{not json", ["invalid JSON"]),
    (b"\xff\xfe{}", ["not UTF-8"]),
    (b"[" * 100000, ["invalid JSON: nested too deeply"]),
    (b"id,lower,upper,size,offset\n" + b"x" * 200000, ["line 2"]),
    (b"{" + b"\"a\":[" * 100000, ["invalid JSON"]),
    (b'{"functions": [{"buffers": 5}]}', ["functions[0].buffers: expected a list, got 5"]),
    (b'{"functions": [{"buffers": [], "unmanaged": 5}]}', ["functions[0].unmanaged: expected a list, got 5"]),
    (b'{"functions": [{"buffers": [{"id": 0, "start": 0, "end": 1, "size": 1e400, '
     b'"offset": 0}]}]}', ["functions[0].buffers[0].size: expected a 64-bit integer, got inf"]),
    (b'{"functions": [{"buffers": [{"id": 0, "start": 0, "end": 1, "size": 1, '
     b'"offset": 99999999999999999999}]}]}', ["offset: expected a 64-bit integer, got 99999999999999999999"]),
    (b"id,lower,upper,size,offset\n0,0,1,1_0,0\n", ["line 2"]),
    (b"id,lower,upper,size,offset\n0,0,1,4.0,0\n", ["line 2"]),
], ids=["json", "utf8", "deep-csv", "long-field", "deep-json", "buffers", "unmanaged",
        "float", "range", "underscore", "decimal-point"])
def test_viz_input_errors(tmp_path, content, fragments):
    src = tmp_path / "in.json"
    src.write_bytes(content)
    proc = run("mplan.viz", src, "-o", tmp_path / "x.svg")
    assert_one_line_error(proc, "mplan.viz: error:", *fragments)
    assert listing(tmp_path) == ["in.json"]


def test_viz_output_errors(tmp_path):
    src = tmp_path / "plan.json"
    src.write_text(json.dumps(REPORT))
    for out, fragment in (("/nonexistent/dir/x.svg", "No such file or directory"),
                          (tmp_path / "x.gif", "unknown output type"),
                          (src / "x.svg", "Not a directory")):
        assert_one_line_error(run("mplan.viz", src, "-o", out), "mplan.viz: error:", fragment)
    assert_one_line_error(run("mplan.viz", src, "-o", tmp_path / "x.svg", "-f", "nope"),
                          "no function named nope")
    assert_one_line_error(run("mplan.viz", src), "required: -o", status=2)
    assert listing(tmp_path) == ["plan.json"]
    assert_one_line_error(run("mplan", "viz", src, "-o", "/nonexistent/x.html"),
                          "mplan.viz: error:")


def test_viz_replaces_the_output_whole(tmp_path):
    src = tmp_path / "plan.json"
    src.write_text(json.dumps(REPORT))
    out = tmp_path / "plan.svg"
    out.write_text("old")
    proc = run("mplan.viz", src, "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert out.read_text().startswith("<?xml")
    assert listing(tmp_path) == ["plan.json", "plan.svg"]
