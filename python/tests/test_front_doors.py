"""Output files written through the path as the C++ tools write them, '-'
for standard input and output, and reports checked field by field (issue 31).
"""

import json
import re
import os
import stat
import subprocess
import sys
import threading

import pytest

import mplan
from mplan import report, viz
from test_cli import REPORT  # a valid report of one function

CSV = "id,lower,upper,size\n0,0,2,4\n1,1,3,8\n"


def run(module, *args, stdin=b""):
    env = dict(os.environ)
    env.pop("MPLAN_DEBUG", None)
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], input=stdin,
                          capture_output=True, env=env)


# Each writer: (name, function writing `out` from the input in `tmp`).
def _plan_cli(tmp, out):
    proc = run("mplan", "plan", tmp / "in.csv", "-o", out)
    assert proc.returncode == 0, proc.stderr


def _plan_csv(tmp, out):
    mplan.plan_csv(tmp / "in.csv", out)


def _write_csv(tmp, out):
    table = mplan.read_csv(tmp / "in.csv")
    mplan.write_csv(table, mplan.plan(table.buffers).offsets, path=out)


def _viz_cli(tmp, out):
    proc = run("mplan.viz", tmp / "plan.json", "-o", out, "--format=svg")
    assert proc.returncode == 0, proc.stderr


def _viz_render(tmp, out):
    viz.render(report.load(tmp / "plan.json"), str(out), format="svg")


WRITERS = {"plan-cli": _plan_cli, "plan_csv": _plan_csv, "write_csv": _write_csv,
           "viz-cli": _viz_cli, "viz.render": _viz_render}


@pytest.fixture
def inputs(tmp_path):
    (tmp_path / "in.csv").write_text(CSV)
    (tmp_path / "plan.json").write_text(json.dumps(REPORT))
    return tmp_path


@pytest.mark.parametrize("writer", WRITERS)
def test_symlink_target_is_written(inputs, writer):
    target = inputs / "target.out"
    target.write_text("old")
    link = inputs / "link.out"
    link.symlink_to(target)
    WRITERS[writer](inputs, link)
    assert link.is_symlink()
    assert target.read_text() not in ("", "old")


@pytest.mark.parametrize("writer", WRITERS)
def test_mode_and_hard_links_are_kept(inputs, writer):
    out = inputs / "out.txt"
    out.write_text("old")
    out.chmod(0o600)
    other = inputs / "other-name.txt"
    os.link(out, other)
    WRITERS[writer](inputs, out)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert other.read_text() == out.read_text() != "old"


@pytest.mark.parametrize("writer", WRITERS)
def test_fifo_reader_gets_the_data(inputs, writer):
    fifo = inputs / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    try:
        WRITERS[writer](inputs, fifo)
    finally:
        reader.join(timeout=60)
    assert got and got[0], "the FIFO's reader got nothing"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def device(tmp, name, minor):
    """A private copy of /dev/null (minor 3) or /dev/full (minor 7): a writer
    that replaced its output would otherwise replace the system's when the
    tests run as root."""
    path = tmp / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        with open(path, "wb"):
            pass
    except OSError as e:
        pytest.skip(f"cannot make and open a device node here: {e}")
    return path


@pytest.mark.parametrize("writer", WRITERS)
def test_device_stays_a_device(inputs, writer):
    null = device(inputs, "null", 3)
    WRITERS[writer](inputs, null)
    assert stat.S_ISCHR(os.lstat(null).st_mode)


@pytest.mark.parametrize("writer", ["plan-cli", "viz-cli"])
def test_write_failure_is_one_line_and_leaves_the_device(inputs, writer):
    full = device(inputs, "full", 7)
    args = (["mplan", "plan", inputs / "in.csv"] if writer == "plan-cli"
            else ["mplan.viz", inputs / "plan.json", "--format=svg"])
    proc = run(*args, "-o", full)
    assert proc.returncode == 1
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and f"{full}: No space left on device" in lines[0], lines
    assert stat.S_ISCHR(os.lstat(full).st_mode)


def test_new_file_is_removed_when_writing_fails(inputs, monkeypatch):
    from mplan import _output

    def fail(fd, data):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(_output, "_write_all", fail)
    out = inputs / "new.csv"
    with pytest.raises(mplan.OutputError, match="No space left"):
        mplan.plan_csv(inputs / "in.csv", out)
    assert not out.exists()


def test_dash_is_stdin_and_stdout(inputs, monkeypatch):
    proc = run("mplan", "plan", "-", "-o", "-", stdin=CSV.encode())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().splitlines()[0] == "id,lower,upper,size,offset"
    proc = run("mplan.viz", "-", "-o", "-", stdin=json.dumps(REPORT).encode())
    assert proc.returncode == 0, proc.stderr
    assert b"<svg" in proc.stdout and proc.stdout.rstrip().endswith(b"</svg>")
    assert not (inputs / "-").exists() and not os.path.exists("-")


def test_viz_png_through_the_path(inputs):
    if not viz.shutil.which("rsvg-convert"):
        pytest.skip("rsvg-convert (librsvg2-bin) not installed")
    out = inputs / "plan.png"
    out.write_bytes(b"old")
    out.chmod(0o640)
    proc = run("mplan.viz", inputs / "plan.json", "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes().startswith(b"\x89PNG")
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def _report(**function_fields):
    data = json.loads(json.dumps(REPORT))
    data["functions"][0].update(function_fields)
    return data


def _without(key):
    data = json.loads(json.dumps(REPORT))
    del data["functions"][0][key]
    return data


HOSTILE = [
    (b'{"functions": [{"arena_bytes": 1' + b"0" * 5000 + b"}]}",
     "functions[0].arena_bytes: expected an integer >= 0, got an integer of 5001 digits"),
    (_report(stagger_bytes="x"), "functions[0].stagger_bytes: expected an integer >= 0, got 'x'"),
    (_report(lower_bound_bytes=-5),
     "functions[0].lower_bound_bytes: expected an integer >= 0, got -5"),
    (_report(strategy=5), "functions[0].strategy: expected a string, got 5"),
    (_report(name=5), "functions[0].name: expected a string, got 5"),
    (_report(unmanaged=[5]), "functions[0].unmanaged[0]: expected an object, got 5"),
    (_report(sequence_optimal=1), "functions[0].sequence_optimal: expected true or false"),
    (_report(sequence_kept_because=1),
     "functions[0].sequence_kept_because: expected a string, got 1"),
    (_without("arena_bytes"), "functions[0]: missing field 'arena_bytes'"),
    (_without("buffers"), "functions[0]: missing field 'buffers'"),
    (_without("name"), "functions[0]: missing field 'name'"),
    (b"[1, 2]", "not an mplan report: expected an object with a \"functions\" list, got a list"),
    (b"", "empty input"),
    (b"  \n", "empty input"),
]


@pytest.mark.parametrize("content, message", HOSTILE, ids=[
    "huge-int", "stagger-str", "bound-negative", "strategy-int", "name-int", "unmanaged-int",
    "optimal-int", "kept-because-int", "no-arena", "no-buffers", "no-name", "array", "empty", "blank"])
def test_hostile_reports_are_one_line_errors(tmp_path, content, message):
    if not isinstance(content, bytes):
        content = json.dumps(content).encode()
    src = tmp_path / "r.json"
    src.write_bytes(content)
    with pytest.raises(mplan.ReportError) as error:
        report.load(src)
    assert str(error.value) == f"{src}: {message}" or message in str(error.value)
    proc = run("mplan.viz", src, "-o", tmp_path / "x.svg")
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and message in lines[0] and "internal error" not in lines[0], lines
    assert not (tmp_path / "x.svg").exists()


def test_loc_must_be_a_string(tmp_path):
    data = json.loads(json.dumps(REPORT))
    data["functions"][0]["buffers"][1]["loc"] = [1]
    with pytest.raises(mplan.ReportError,
                       match=r"functions\[0\]\.buffers\[1\]\.loc: expected a string, got a list"):
        report.from_report(data)


@pytest.mark.parametrize("content", [json.dumps(REPORT).encode(),
                                     b"id,lower,upper,size,offset\n0,0,2,8,0\n1,1,3,4,8\n"],
                         ids=["json", "csv"])
def test_bom_is_accepted_and_type_is_by_content(tmp_path, content):
    src = tmp_path / "bom.json"  # the extension does not decide
    src.write_bytes(b"\xef\xbb\xbf" + content)
    (fn,) = report.load(src)
    assert [b.offset for b in fn.buffers] == [0, 8]


def test_directory_input(tmp_path):
    with pytest.raises(mplan.ReportError, match="Is a directory"):
        report.load(tmp_path)


def test_csv_errors_name_the_file(tmp_path):
    src = tmp_path / "plan.csv"
    src.write_text("a,b\n1,2\n")
    with pytest.raises(mplan.ReportError, match=f"^{src}: line 1: the header has no id"):
        report.load(src)


def test_documented_fields_are_checked():
    # Every field a report can carry has a check (a report written by the
    # pass itself is read back in test_pipeline).
    for key in ("name", "strategy", "arena_bytes", "lower_bound_bytes", "stagger_bytes",
                "buffers", "unmanaged", "memory_spaces", "inplace", "dynamic_buffers",
                "lower_bound_program_order_bytes", "sequence_optimal",
                "sequence_kept_because", "capacity_bytes", "op_floor_bytes",
                "lower_bound_before_splits_bytes", "splits", "split_work",
                "split_bytes_moved", "program_work"):
        assert key in report.FUNCTION_FIELDS


def test_split_fields_are_checked():
    split = {"kind": "remat", "buffer": 0, "new_buffer": 4, "after": "f.mlir:3:1",
             "before": "f.mlir:9:1", "cost": 9216, "bytes": 1024}
    fn = {"name": "f", "strategy": "best", "arena_bytes": 3072, "lower_bound_bytes": 3072,
          "buffers": [], "unmanaged": [], "capacity_bytes": 3072, "op_floor_bytes": 3072,
          "lower_bound_before_splits_bytes": 4096, "splits": [split], "split_work": 9216,
          "split_bytes_moved": 0, "program_work": 10240}
    report.validate({"functions": [fn]})
    with pytest.raises(mplan.ReportError, match=r"splits\[0\]\.cost"):
        report.validate({"functions": [dict(fn, splits=[dict(split, cost=-1)])]})
    with pytest.raises(mplan.ReportError, match="missing field 'before'"):
        bad = dict(split)
        del bad["before"]
        report.validate({"functions": [dict(fn, splits=[bad])]})


@pytest.mark.parametrize("buffers, message", [
    ([(0, -1, 2, 4)], r"buffers\[0\] \(id 0\): lower \(-1\) must be non-negative"),
    ([{"id": 0, "lower": 0, "start": 1, "upper": 2, "size": 4}],
     r"buffers\[0\]: both 'start' and 'lower' keys"),
    ([{"id": 0, "start": 0, "end": 2, "upper": 3, "size": 4}],
     r"buffers\[0\]: both 'end' and 'upper' keys"),
    ([(0, 0, 2, 4), (1, 0, 2, 4, 3)], r"buffers\[1\] \(id 1\): alignment \(3\) must be a power"),
])
def test_api_checks_values_as_the_csv_reader(buffers, message):
    for call in (mplan.plan, mplan.lower_bound, mplan.validate_input, mplan.format_csv):
        with pytest.raises(mplan.PlanError, match=message):
            call(buffers)


def test_api_error_types():
    with pytest.raises(TypeError, match="diagnostics must be a list"):
        mplan.run_pipeline("module {}", "canonicalize", diagnostics=5)


def test_mplan_plan_report_is_valid(tmp_path, build):
    (tmp_path / "in.csv").write_text(CSV)
    subprocess.run([str(build / "bin" / "mplan-plan"), tmp_path / "in.csv", "-o",
                    tmp_path / "out.csv", f"--report={tmp_path / 'r.json'}"], check=True,
                   capture_output=True)
    (fn,) = report.load(tmp_path / "r.json")
    assert len(fn.buffers) == 2


def test_csv_input_errors_name_the_system_reason(tmp_path):
    # As mplan-plan says them, not "empty input" or "cannot open file".
    with pytest.raises(mplan.CsvError, match=f"^{tmp_path}: Is a directory$"):
        mplan.read_csv(tmp_path)
    with pytest.raises(mplan.CsvError, match="missing.csv: No such file or directory$"):
        mplan.plan_csv(tmp_path / "missing.csv", tmp_path / "out.csv")
    assert not (tmp_path / "out.csv").exists()


def test_split_parts_share_a_colour_and_say_so(tmp_path):
    # A buffer split to meet a capacity: its later part (id 4, recomputed)
    # has the original's colour and says whose part it is.
    big = 1 << 24
    fn = {"name": "f", "strategy": "best", "arena_bytes": big + 1024,
          "lower_bound_bytes": big + 1024,
          "buffers": [{"id": 0, "start": 0, "end": 3, "size": 1024, "offset": 0},
                      {"id": 1, "start": 2, "end": 9, "size": big, "offset": 1024},
                      {"id": 4, "start": 7, "end": 9, "size": 1024, "offset": 0}],
          "unmanaged": [],
          "splits": [{"kind": "remat", "buffer": 0, "new_buffer": 4, "after": "f.mlir:2:1",
                      "before": "f.mlir:8:1", "cost": 10, "bytes": 1024}]}
    (plan,) = report.from_report({"functions": [fn]})
    assert plan.split_of == {4: (0, "remat")}
    svg, _ = viz.render_function_svg(plan)
    # Buffer rects in drawing order: the largest (1) first, then 0 and 4.
    fills = re.findall(r'fill="(#[0-9a-fA-F]+)" stroke="#333" stroke-width="0.4"', svg)
    assert len(fills) == 3 and fills[1] == fills[2] != fills[0]
    assert "later part of buffer 0 (recomputed)" in svg
