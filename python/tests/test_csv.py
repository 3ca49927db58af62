"""MiniMalloc CSV: parse/read/write and plan_csv == mplan-plan."""

import pathlib
import subprocess

import pytest

import mplan

MINIMALLOC = pathlib.Path(__file__).resolve().parents[3] / "shared" / "benchmarks" / "minimalloc"

SMALL = "id,lower,upper,size,name\n0,0,3,64,a\n1,1,4,32,b\n2,3,6,64,c\n3,4,6,16,d\n"


def test_parse_keeps_extra_columns():
    table = mplan.parse_csv(SMALL)
    assert table.header == ["id", "lower", "upper", "size", "name"]
    assert len(table) == 4 and table.lines == [2, 3, 4, 5]
    assert table.buffers[1] == mplan.Buffer(1, 1, 4, 32)
    plan = mplan.plan(table)
    out = mplan.write_csv(table, plan.offsets)
    lines = out.splitlines()
    assert lines[0] == "id,lower,upper,size,name,offset"
    assert lines[1].startswith("0,0,3,64,a,")
    reparsed = mplan.parse_csv(out)
    assert [int(r[-1]) for r in reparsed.rows] == plan.offsets


def test_format_csv_round_trip():
    bufs = [mplan.Buffer(0, 0, 2, 10), mplan.Buffer(1, 1, 3, 20)]
    text = mplan.format_csv(bufs, [0, 10])
    assert text.splitlines()[0] == "id,lower,upper,size,offset"
    assert mplan.parse_csv(text).buffers == bufs
    with pytest.raises(ValueError):
        mplan.format_csv(bufs, [0])


@pytest.mark.parametrize("text, line", [
    ("id,lower,upper\n0,0,1\n", "line 1"),                  # missing column
    ("id,lower,upper,size\n0,0,1,8\n1,0,x,8\n", "line 3"),  # not an integer
    ("id,lower,upper,size\n0,0,1,8\n1,0,1\n", "line 3"),    # wrong field count
    ("id,lower,upper,size\n0,5,1,8\n", "line 2"),           # upper <= lower
    ("id,lower,upper,size\n0,0,1,-8\n", "line 2"),          # negative size
    ("id,lower,upper,size\n0,0,1,8\n0,1,2,8\n", "line 3"),  # duplicate id
    ("id,lower,upper,size\n0,0,1,99999999999999999999\n", "line 2"),  # out of range
])
def test_malformed_csv_raises_with_line(text, line):
    with pytest.raises(mplan.CsvError, match=line):
        mplan.parse_csv(text)


def test_empty_csv_raises():
    with pytest.raises(mplan.CsvError):
        mplan.parse_csv("")


def test_missing_file_raises(tmp_path):
    with pytest.raises(mplan.CsvError, match="nope.csv"):
        mplan.read_csv(tmp_path / "nope.csv")


def test_write_csv_checks_offsets():
    table = mplan.parse_csv(SMALL)
    with pytest.raises(ValueError):
        mplan.write_csv(table, [0, 1])


def run_cli(mplan_plan, *args):
    return subprocess.run([str(mplan_plan), *map(str, args)], capture_output=True, text=True)


@pytest.mark.parametrize("strategy", ["naive", "linear-scan", "greedy-by-size",
                                      "greedy-by-breadth"])
def test_plan_csv_matches_mplan_plan(tmp_path, mplan_plan, strategy):
    src = tmp_path / "in.csv"
    src.write_text(SMALL)
    cli, py = tmp_path / "cli.csv", tmp_path / "py.csv"
    proc = run_cli(mplan_plan, f"--strategy={strategy}", src, "-o", cli)
    assert proc.returncode == 0, proc.stderr
    plan = mplan.plan_csv(src, py, strategy=strategy)
    assert py.read_bytes() == cli.read_bytes()
    assert f"arena={plan.arena_size}" in proc.stderr


@pytest.mark.parametrize("instance", ["A.1048576.csv", "C.1048576.csv"])
@pytest.mark.parametrize("strategy", ["greedy-by-size", "best"])
def test_minimalloc_instance_like_mplan_plan(tmp_path, mplan_plan, instance, strategy):
    """A CSV instance nobody here made (MiniMalloc's challenging suite)."""
    src = MINIMALLOC / instance
    if not src.exists():
        pytest.skip(f"{src} not present (shared benchmark data)")
    py = tmp_path / "py.csv"
    plan = mplan.plan_csv(src, py, strategy=strategy, time_limit=2.0)
    table = mplan.read_csv(src)
    out = mplan.read_csv(py)
    assert out.header == table.header + ["offset"]
    offsets = [int(row[-1]) for row in out.rows]
    assert offsets == plan.offsets
    mplan.validate_plan(table.buffers, offsets, plan.arena_size)
    assert plan.lower_bound == mplan.lower_bound(table.buffers)
    if strategy == "best" and instance.startswith("C"):
        # The bound is reachable for C and found well within the budget.
        assert plan.arena_size == plan.lower_bound == 1039360
    if strategy == "greedy-by-size" or plan.proven_optimal:
        cli = tmp_path / "cli.csv"
        proc = run_cli(mplan_plan, f"--strategy={strategy}", "--time-limit=2", src, "-o", cli)
        assert proc.returncode == 0, proc.stderr
        assert py.read_bytes() == cli.read_bytes()


def test_plan_csv_writes_nothing_on_error(tmp_path):
    src = tmp_path / "bad.csv"
    src.write_text("id,lower,upper,size\n0,0,1,8\n1,2,1,8\n")
    out = tmp_path / "out.csv"
    with pytest.raises(mplan.CsvError, match="line 3"):
        mplan.plan_csv(src, out)
    assert not out.exists()
    good = tmp_path / "good.csv"
    good.write_text(SMALL)
    with pytest.raises(mplan.PlanError):
        mplan.plan_csv(good, out, strategy="bogus")
    assert not out.exists()
    assert list(tmp_path.iterdir()) == sorted([src, good]) or set(tmp_path.iterdir()) == {src, good}


def test_python_m_mplan_plan(tmp_path):
    import sys
    src = tmp_path / "in.csv"
    src.write_text(SMALL)
    out = tmp_path / "out.csv"
    proc = subprocess.run([sys.executable, "-m", "mplan", "plan", str(src), "-o", str(out),
                           "--strategy=greedy-by-size"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "arena=" in proc.stderr
    assert mplan.read_csv(out).header[-1] == "offset"
    bad = subprocess.run([sys.executable, "-m", "mplan", "plan", str(src), "-o", str(out),
                          "--strategy=nope"], capture_output=True, text=True)
    assert bad.returncode == 1 and "unknown strategy" in bad.stderr


def test_bytes_that_are_not_utf8_round_trip(tmp_path):
    raw = b"id,lower,upper,size,name\n0,0,2,4,caf\xe9\n"
    src = tmp_path / "in.csv"
    src.write_bytes(raw)
    table = mplan.read_csv(src)
    assert table.rows[0][-1] == "caf\udce9"  # surrogateescape
    assert mplan.parse_csv(raw.decode("utf-8", "surrogateescape")).rows == table.rows
    out = tmp_path / "out.csv"
    mplan.write_csv(table, [0], out)
    assert out.read_bytes() == b"id,lower,upper,size,name,offset\n0,0,2,4,caf\xe9,0\n"
    with pytest.raises(mplan.CsvError, match="line 2"):
        mplan.parse_csv("id,lower,upper,size\n0,0,2,\ud800\n")
    with pytest.raises(TypeError, match="must be a str"):
        mplan.parse_csv(b"id,lower,upper,size\n")


def test_write_csv_output_errors(tmp_path):
    table = mplan.parse_csv(SMALL)
    with pytest.raises(mplan.OutputError, match="No such file or directory") as info:
        mplan.write_csv(table, [0, 64, 0, 32], tmp_path / "missing" / "out.csv")
    assert isinstance(info.value, OSError) and info.value.errno == 2
    assert str(info.value) == f"{tmp_path / 'missing' / 'out.csv'}: No such file or directory"
    with pytest.raises(mplan.OutputError, match="Is a directory"):
        mplan.plan_csv(_small(tmp_path), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["small.csv"]


def _small(tmp_path):
    path = tmp_path / "small.csv"
    path.write_text(SMALL)
    return path
