# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "MPLAN"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py",
                   "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mplan_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%mplan_src_root", config.mplan_src_root))
config.substitutions.append(("%python", config.python_executable or "/usr/bin/python3"))
runner_libs = ",".join(
    os.path.join(config.llvm_lib_dir, lib)
    for lib in ["libmlir_c_runner_utils.so", "libmlir_runner_utils.so"])
config.substitutions.append(("%mlir_runner_libs", runner_libs))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.mplan_tools_dir, config.llvm_tools_dir]
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.mplan_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["mplan-opt"], tool_dirs)
tools = ["mlir-opt", "mlir-runner", "mlir-translate"]
if os.path.exists(os.path.join(config.mplan_tools_dir, "mplan-plan")):
    tools.append("mplan-plan")
    config.available_features.add("mplan-plan")
if os.path.exists(os.path.join(config.mplan_tools_dir, "mplan-plan-bench")):
    tools.append("mplan-plan-bench")
    config.available_features.add("mplan-plan-bench")
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The mlir-opt plugin (plugin/; not built under the sanitizers).
plugin = os.path.join(config.mplan_obj_root, "lib", "MPlanPlugin.so")
config.substitutions.append(("%mplan_plugin", plugin))
if os.path.exists(plugin):
    config.available_features.add("mplan-plugin")
# The ASan+UBSan build (make sanitize): tests too slow under it can opt out
# with `UNSUPPORTED: sanitizer`.
if getattr(config, "mplan_sanitizers", "OFF").upper() in ("ON", "1", "TRUE"):
    config.available_features.add("sanitizer")
