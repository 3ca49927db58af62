# mplan top-level driver. See README.md.
LLVM_DIR ?= /usr/lib/llvm-22
BUILD    ?= build
PYTHON   ?= /usr/bin/python3
JOBS     ?= $(shell nproc)

DEBIAN_PACKAGES = cmake ninja-build g++ make git \
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 lld-22 \
  libgtest-dev libgmock-dev libbenchmark-dev \
  pybind11-dev python3-dev python3-pytest python3-numpy chromium librsvg2-bin

.PHONY: all deps build check demo bench docs clean

all: build

# Installs (as root, with apt-get) only the Debian packages that are missing.
deps:
	@missing=""; \
	for p in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "mplan: installing$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "mplan: all Debian packages present"; fi

$(BUILD)/build.ninja:
	cmake -G Ninja -S . -B $(BUILD) \
	  -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_COMPILER=$(LLVM_DIR)/bin/clang -DCMAKE_CXX_COMPILER=$(LLVM_DIR)/bin/clang++ \
	  -DLLVM_USE_LINKER=lld \
	  -DMLIR_DIR=$(LLVM_DIR)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_DIR)/bin/lit \
	  -DPython3_EXECUTABLE=$(PYTHON)

build: $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

check: deps
	$(MAKE) build
	$(PYTHON) utils/run-tests.py --build $(BUILD)

demo: deps
	$(MAKE) build
	bash examples/demo.sh $(BUILD)

bench: deps
	$(MAKE) build
	$(PYTHON) bench/run-all.py --build $(BUILD)

docs: deps
	$(MAKE) build
	cmake --build $(BUILD) --target mplan-doc

clean:
	rm -rf $(BUILD)
