# numagraph: the two README commands and their friends.
#   make demo   install what is missing, build, run every kernel on a generated graph
#               with verification and print a results table
#   make test   install what is missing, build, run every test (unit, CLI oracle,
#               Python, MPI, NUMA VM placement)
#   make fuzz   build the libFuzzer targets (clang, ASan+UBSan) and run each for
#               FUZZ_SECONDS (default 60); see tests/fuzz/run.sh
#   make sanitize  the C++ unit tests under ASan+UBSan, the kernels' under TSan
# Variables: BUILD (build dir, default build), JOBS (parallel compile jobs),
#            DEMO_SCALE (Kronecker scale of the demo graph, default 18).
BUILD ?= build
JOBS ?= $(shell nproc)
DEMO_SCALE ?= 18
PY := .venv/bin/python

FUZZ_SECONDS ?= 60
FUZZ_BUILD ?= build-fuzz

.PHONY: all deps build test demo clean portable native python fuzz

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD) -j $(JOBS)

# Binaries for CPUs without AVX2 (the default build targets x86-64-v3).
portable: deps
	cmake -S . -B build-portable -G Ninja -DNUMAGRAPH_MARCH=x86-64
	ninja -C build-portable -j $(JOBS)

# Tuned for this machine's CPU (measure: it was slower than the default here).
native: deps
	cmake -S . -B build-native -G Ninja -DNUMAGRAPH_NATIVE=ON
	ninja -C build-native -j $(JOBS)

# The Python package, editable, into the project venv (incremental: build-py/).
python: deps
	$(PY) -m pip install -q --no-build-isolation -e . -Cbuild-dir=build-py

test: build python
	cd $(BUILD) && ctest --output-on-failure -j 2
	NUMAGRAPH_BIN=$(abspath $(BUILD))/numagraph $(PY) -m pytest -q tests

demo: build
	@scripts/demo.sh $(BUILD)/numagraph $(DEMO_SCALE)

# libFuzzer targets, one per reader/decoder (tests/fuzz/). Needs clang
# (scripts/install-deps.sh --fuzz installs it); `make test` does not.
fuzz:
	@scripts/install-deps.sh --fuzz
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DNUMAGRAPH_FUZZ=ON -DNUMAGRAPH_SANITIZE=address,undefined -DNUMAGRAPH_CLI=OFF -DNUMAGRAPH_MPI=OFF
	ninja -C $(FUZZ_BUILD) -j $(JOBS) fuzz_targets
	tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) build-portable build-native build-py $(FUZZ_BUILD)
