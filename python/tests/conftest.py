"""Shared fixtures of the mplan Python tests.

Run against a build: PYTHONPATH=BUILD/python_packages /usr/bin/python3 -m pytest python/tests
(BUILD is found from the imported package; MPLAN_BUILD_DIR overrides it).
"""

import os
import pathlib
import shutil

import pytest

import mplan

REPO = pathlib.Path(__file__).resolve().parents[2]
MLIR_BIN = pathlib.Path("/usr/lib/llvm-22/bin")


def build_dir() -> pathlib.Path:
    env = os.environ.get("MPLAN_BUILD_DIR")
    if env:
        return pathlib.Path(env).resolve()
    # BUILD/python_packages/mplan/__init__.py
    return pathlib.Path(mplan.__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def build() -> pathlib.Path:
    return build_dir()


def _tool(name: str) -> pathlib.Path:
    path = build_dir() / "bin" / name
    if not path.exists():
        pytest.fail(f"{path} is missing: build the {name} target first")
    return path


@pytest.fixture(scope="session")
def mplan_plan() -> pathlib.Path:
    return _tool("mplan-plan")


@pytest.fixture(scope="session")
def mplan_opt() -> pathlib.Path:
    return _tool("mplan-opt")


@pytest.fixture(scope="session")
def mlir_opt() -> pathlib.Path:
    path = MLIR_BIN / "mlir-opt"
    if not path.exists():
        found = shutil.which("mlir-opt-22") or shutil.which("mlir-opt")
        if not found:
            pytest.fail("mlir-opt (Debian mlir-22-tools) is missing")
        return pathlib.Path(found)
    return path


@pytest.fixture(scope="session")
def repo() -> pathlib.Path:
    return REPO


BUFFERIZED = """\
func.func @f(%arg0: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<32xf32>
  linalg.map { math.absf } ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  %x = memref.load %a[%c0] : memref<16xf32>
  memref.store %x, %b[%c0] : memref<32xf32>
  %y = memref.load %b[%c0] : memref<32xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<32xf32>
  return %y : f32
}
"""


@pytest.fixture
def bufferized() -> str:
    return BUFFERIZED
