import os

import lit.formats
from lit.llvm import llvm_config

config.name = "DOWNSTREAM"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.downstream_obj_root
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

llvm_config.use_default_substitutions()
# downstream-opt from this build, mplan-opt from the installed mplan package,
# FileCheck and mlir-opt from LLVM.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["downstream-opt", "mplan-opt"],
    [config.downstream_tools_dir, config.mplan_tools_dir])
# The installed observer runtime, for programs instrumented with
# --mplan-instrument, and MLIR's runner utilities.
config.substitutions.append(("%mplan_runtime", config.mplan_runtime))
config.substitutions.append(("%mlir_runner_libs", ",".join(
    os.path.join(config.llvm_lib_dir, lib)
    for lib in ["libmlir_c_runner_utils.so", "libmlir_runner_utils.so"])))
llvm_config.add_tool_substitutions(["mlir-runner"], [config.llvm_tools_dir])
