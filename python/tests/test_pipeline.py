"""MLIR pass pipelines from Python: run_pipeline and plan_module."""

import json
import subprocess

import pytest

import mplan
from mplan import report, viz


def test_plan_pipeline_plans_the_buffers(bufferized):
    out = mplan.run_pipeline(bufferized, "mplan-plan-pipeline{strategy=best}")
    assert "mplan.alloc_slab" in out
    assert out.count("mplan.alloc_tensor") == 2
    assert "memref.alloc(" not in out


def test_plan_module_returns_the_report(bufferized):
    result = mplan.plan_module(bufferized, source_name="t.mlir")
    (fn,) = result.functions
    assert fn["name"] == "f"
    assert fn["arena_bytes"] == fn["lower_bound_bytes"] == 128
    assert [b["loc"] for b in fn["buffers"]] == ["t.mlir:3:8", "t.mlir:4:8"]
    buffers = [mplan.Buffer(b["id"], b["start"], b["end"], b["size"]) for b in fn["buffers"]]
    mplan.validate_plan(buffers, [b["offset"] for b in fn["buffers"]], fn["arena_bytes"])


def test_plan_module_to_memref(bufferized):
    result = mplan.plan_module(bufferized, arena="heap")
    for op in ("mplan.alloc_slab", "mplan.alloc_tensor", "mplan.release_slab"):
        assert op not in result.text
    assert result.text.count("memref.alloc(") == 1


def test_bufferize_tensor_input():
    src = """
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %b = linalg.add ins(%a, %a : tensor<64xf32>, tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %e3 = tensor.empty() : tensor<64xf32>
  %c = linalg.mul ins(%b, %x : tensor<64xf32>, tensor<64xf32>) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  return %c : tensor<64xf32>
}
"""
    result = mplan.plan_module(src, bufferize=True)
    assert "linalg.exp" in result.text
    assert len(result.functions) == 1


def test_same_output_as_mplan_opt(tmp_path, repo, mlir_opt, mplan_opt):
    """The module runs the same passes as the mplan-opt tool, on a real model."""
    model = repo / "models" / "mlp.mlir"
    buf = subprocess.run(
        [str(mlir_opt), str(model), "--one-shot-bufferize=bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map"],
        capture_output=True, text=True, check=True).stdout
    src = tmp_path / "mlp.buf.mlir"
    src.write_text(buf)
    report_cli = tmp_path / "cli.json"
    cli = subprocess.run(
        [str(mplan_opt), str(src),
         f"--mplan-plan-pipeline=strategy=greedy-by-size report={report_cli}"],
        capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    report_py = tmp_path / "py.json"
    out = mplan.run_pipeline(buf, f"mplan-plan-pipeline{{strategy=greedy-by-size report={report_py}}}",
                             source_name=str(src))
    assert out.rstrip("\n") == cli.stdout.rstrip("\n")  # mlir-opt adds a blank line
    assert json.loads(report_py.read_text()) == json.loads(report_cli.read_text())
    assert any(f["buffers"] for f in json.loads(report_py.read_text())["functions"])


def test_invalid_mlir_raises_with_location():
    with pytest.raises(mplan.MLIRError) as info:
        mplan.run_pipeline("func.func @f() {\n  %0 = arith.constant 1 : i32\n  return %0 : i64\n}\n",
                           "canonicalize", source_name="bad.mlir")
    err = info.value
    (diag,) = err.errors
    assert (diag.file, diag.line, diag.severity) == ("bad.mlir", 3, "error")
    assert diag.column > 0
    assert "bad.mlir:3:" in str(err)
    assert isinstance(err, mplan.Error)


def test_syntax_error_raises():
    with pytest.raises(mplan.MLIRError, match=r"x\.mlir:1:\d+: error"):
        mplan.run_pipeline("func.func @f( {", "canonicalize", source_name="x.mlir")
    with pytest.raises(mplan.MLIRError):
        mplan.run_pipeline("", "canonicalize") if False else mplan.run_pipeline("}", "canonicalize")


def test_unknown_pass_raises():
    with pytest.raises(mplan.MLIRError, match="no-such-pass"):
        mplan.run_pipeline("module {}", "no-such-pass")
    with pytest.raises(mplan.MLIRError, match="unbalanced"):
        mplan.run_pipeline("module {}", "func.func(canonicalize")


def test_failing_pass_raises(bufferized):
    with pytest.raises(mplan.MLIRError, match="unknown strategy 'bogus'") as info:
        mplan.run_pipeline(bufferized, "mplan-plan-pipeline{strategy=bogus}")
    assert info.value.diagnostics
    with pytest.raises(mplan.MLIRError):
        mplan.plan_module(bufferized, strategy="bogus")


def test_unregistered_dialect_raises():
    with pytest.raises(mplan.MLIRError, match="unregistered"):
        mplan.run_pipeline('"foo.bar"() : () -> ()', "canonicalize")


def test_anchored_pipeline_and_options(bufferized):
    out = mplan.run_pipeline(bufferized, "builtin.module(func.func(canonicalize))",
                             print_generic=True)
    assert '"func.func"' in out
    out = mplan.run_pipeline(bufferized, "canonicalize", print_locations=True,
                             source_name="s.mlir")
    assert 'loc("s.mlir"' in out


def test_registered_passes():
    for name in ("mplan-plan-pipeline", "convert-mplan-to-memref", "mplan-to-llvm",
                 "one-shot-bufferize", "canonicalize"):
        assert mplan.is_registered_pass(name), name
    assert not mplan.is_registered_pass("no-such-pass")


def test_bad_argument_types():
    with pytest.raises(TypeError):
        mplan.run_pipeline(None, "canonicalize")
    with pytest.raises(mplan.PlanError):
        mplan.plan_module("module {}", strategy="a b")


def test_names_that_are_not_utf8():
    with pytest.raises(mplan.MLIRError) as info:
        mplan.run_pipeline("bogus", "canonicalize", source_name="\udcff.mlir")
    (diag,) = info.value.errors
    assert diag.file == "\udcff.mlir" and diag.line == 1
    assert "custom op 'bogus'" in str(diag) and "custom op 'bogus'" in repr(diag)
    with pytest.raises(TypeError, match="source_name must be a str"):
        mplan.run_pipeline("module {}", "canonicalize", source_name=None)


DYNAMIC = """
func.func @g(%x: memref<?x8xf32>, %out: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x8xf32>
  %a = memref.alloc(%n) : memref<?x8xf32>
  memref.copy %x, %a : memref<?x8xf32> to memref<?x8xf32>
  %b = memref.alloc(%n) : memref<?x8xf32>
  memref.copy %a, %b : memref<?x8xf32> to memref<?x8xf32>
  memref.copy %b, %out : memref<?x8xf32> to memref<?x8xf32>
  memref.dealloc %a : memref<?x8xf32>
  memref.dealloc %b : memref<?x8xf32>
  return
}
"""


def test_run_time_sized_buffers_in_the_report():
    # Unbounded dynamic buffers are sized at run time: the report carries the
    # symbolic plan, which mplan.report reads and mplan.viz mentions.
    result = mplan.plan_module(DYNAMIC, source_name="g.mlir")
    (fn,) = result.functions
    assert fn["unmanaged"] == []
    assert [b["size"] for b in fn["dynamic_buffers"]] == ["32 * dim(%arg0, 0)"] * 2
    assert sorted(len(b["above"]) for b in fn["dynamic_buffers"]) == [0, 1]
    (plan,) = report.from_report(result.report)
    assert plan.dynamic_arena == fn["dynamic_arena"]
    assert [b.id for b in plan.dynamic_buffers] == [b["id"] for b in fn["dynamic_buffers"]]
    assert plan.to_json()["dynamic_buffers"] == fn["dynamic_buffers"]
    assert "2 sized at run time above the static bytes" in viz.render_svg([plan])
