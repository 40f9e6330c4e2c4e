# numagraph: the two README commands and their friends.
#   make demo   install what is missing, build, run every kernel on a generated graph
#               with verification and print a results table
#   make test   install what is missing, build, run every test (unit, CLI oracle,
#               Python, MPI, NUMA VM placement)
# Variables: BUILD (build dir, default build), JOBS (parallel compile jobs),
#            DEMO_SCALE (Kronecker scale of the demo graph, default 18).
BUILD ?= build
JOBS ?= $(shell nproc)
DEMO_SCALE ?= 18
PY := .venv/bin/python

.PHONY: all deps build test demo clean portable native python

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

clean:
	rm -rf $(BUILD) build-portable build-native build-py
