# mplan top-level driver. See README.md.
LLVM_DIR ?= /usr/lib/llvm-22
BUILD    ?= build
PYTHON   ?= /usr/bin/python3
JOBS     ?= $(shell nproc)

DEBIAN_PACKAGES = cmake ninja-build g++ make git \
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 lld-22 \
  libgtest-dev libgmock-dev libbenchmark-dev \
  pybind11-dev python3-dev python3-pytest python3-numpy chromium librsvg2-bin
# Only `make bench` needs CBC (the exact reference of bench/budget/exact.py).
BENCH_PACKAGES = coinor-cbc
# Only `make sanitize` and `make fuzz` need the sanitizer and libFuzzer runtimes.
SANITIZE_PACKAGES = libclang-rt-22-dev

# Hardening builds (docs/hardening.md): ASan+UBSan (and libFuzzer) builds of
# mplan's own code, each in its own directory.
ASAN_BUILD   ?= build-asan
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 20
FUZZ_OUT     ?= $(FUZZ_BUILD)/fuzz-out
CMAKE_CONFIGURE = cmake -G Ninja -S . \
	  -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_COMPILER=$(LLVM_DIR)/bin/clang -DCMAKE_CXX_COMPILER=$(LLVM_DIR)/bin/clang++ \
	  -DLLVM_USE_LINKER=lld \
	  -DMLIR_DIR=$(LLVM_DIR)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_DIR)/bin/lit \
	  -DPython3_EXECUTABLE=$(PYTHON)
# -O1 (faster to build, the usual sanitizer level); assertions on (the
# CMake options add -UNDEBUG).
SANITIZE_CONFIGURE = $(CMAKE_CONFIGURE) -DCMAKE_CXX_FLAGS_RELEASE=-O1 -DCMAKE_C_FLAGS_RELEASE=-O1 \
	  -DMPLAN_ENABLE_PYTHON=OFF
# MLIR is not instrumented: its ODR-visible globals, allocations made on one
# side and freed on the other, and the poisoning LLVM's BumpPtrAllocator does
# in inline code that mplan's instrumented copy runs but libMLIR's does not
# undo (use-after-poison on MLIR's own uniqued storage) are not errors of
# mplan's: allow_user_poisoning=0 ignores that poisoning.
export ASAN_OPTIONS ?= detect_odr_violation=0:alloc_dealloc_mismatch=0:allow_user_poisoning=0:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1
export ASAN_SYMBOLIZER_PATH ?= $(LLVM_DIR)/bin/llvm-symbolizer

.PHONY: all deps deps-sanitize build check demo bench docs clean sanitize fuzz

all: build

# Installs (as root, with apt-get) only the Debian packages that are missing.
deps:
	@$(call install_missing,$(DEBIAN_PACKAGES))

deps-sanitize:
	@$(call install_missing,$(SANITIZE_PACKAGES))

define install_missing
	missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "mplan: installing$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "mplan: all Debian packages present"; fi
endef

$(BUILD)/build.ninja:
	$(CMAKE_CONFIGURE) -B $(BUILD)

build: $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

check: deps
	$(MAKE) build
	$(PYTHON) utils/run-tests.py --build $(BUILD)

demo: deps
	$(MAKE) build
	bash examples/demo.sh $(BUILD)

bench: deps
	@$(call install_missing,$(BENCH_PACKAGES))
	$(MAKE) build
	$(PYTHON) bench/run-all.py --build $(BUILD)

docs: deps
	$(MAKE) build
	cmake --build $(BUILD) --target mplan-doc

# ASan+UBSan build of the libraries, tools and unit tests; runs the lit suite
# and the GoogleTest binaries on it (the Python module is not built: it would
# need the ASan runtime preloaded into python3, see docs/hardening.md).
sanitize: deps deps-sanitize
	$(SANITIZE_CONFIGURE) -B $(ASAN_BUILD) -DMPLAN_ENABLE_SANITIZERS=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	$(PYTHON) utils/run-tests.py --build $(ASAN_BUILD) --suite lit --suite gtest

# libFuzzer targets (fuzz/), each run for FUZZ_SECONDS from the seed corpus
# in fuzz/corpus plus the lit inputs and bufferized models (utils/fuzz-seeds.py).
fuzz: deps deps-sanitize
	$(SANITIZE_CONFIGURE) -B $(FUZZ_BUILD) -DMPLAN_ENABLE_FUZZERS=ON
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target mplan-fuzz-csv mplan-fuzz-ir
	$(PYTHON) utils/fuzz-seeds.py --out $(FUZZ_OUT)/seeds-ir
	mkdir -p $(FUZZ_OUT)/csv $(FUZZ_OUT)/ir $(FUZZ_OUT)/artifacts
	$(FUZZ_BUILD)/bin/mplan-fuzz-csv -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	  -max_len=2048 -dict=fuzz/csv.dict -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_OUT)/artifacts/csv- $(FUZZ_OUT)/csv fuzz/corpus/csv
	$(FUZZ_BUILD)/bin/mplan-fuzz-ir -max_total_time=$(FUZZ_SECONDS) -timeout=20 \
	  -max_len=16384 -dict=fuzz/ir.dict -print_final_stats=1 -rss_limit_mb=4096 \
	  -artifact_prefix=$(FUZZ_OUT)/artifacts/ir- $(FUZZ_OUT)/ir fuzz/corpus/ir $(FUZZ_OUT)/seeds-ir

clean:
	rm -rf $(BUILD)
