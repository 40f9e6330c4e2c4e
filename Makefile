# numagraph: the two README commands and their friends.
#   make demo   install what the demo needs (toolchain, libraries), build the CLI, run
#               every kernel on a generated graph with verification, print a results table
#   make test   install what is missing, build, run every test (unit, CLI oracle,
#               Python, MPI, NUMA VM placement)
#   make fuzz   build the libFuzzer targets (clang, ASan+UBSan) and run each for
#               FUZZ_SECONDS (default 60); see tests/fuzz/run.sh
#   make sanitize  the C++ unit tests under ASan+UBSan, the kernels' under TSan
#   make docs   the Python API reference (docs/api/_build/html) and its doctests
#   make wheel  a repaired binary wheel (package + CLI) in dist/; make wheel-test
#               installs it in a fresh venv without a compiler and checks it
# Variables: BUILD (build dir, default build), JOBS (parallel compile jobs),
#            DEMO_SCALE (Kronecker scale of the demo graph, default 18).
BUILD ?= build
JOBS ?= $(shell nproc)
DEMO_SCALE ?= 18
PY := .venv/bin/python

FUZZ_SECONDS ?= 60
FUZZ_BUILD ?= build-fuzz
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
# Sanitizer builds: -O1 and line tables only compile a heavy test file 3.1x
# faster than -O2 -g (docs/building.md), and still symbolize every report.
SAN_FLAGS ?= -O1 -g1 -DNDEBUG
# The tests of parallel code that run under TSan: kernels, engine, queues and
# the profiler's sampler thread (not the fork-and-signal tests: TSan defers
# signals, so a child that should die of SIGTERM exits instead).
# The builder's randomised oracle test is left out: its sparse-id path sorts
# with libstdc++'s parallel mode, whose merge sort TSan reports as a race.
TSAN_TESTS ?= Kcore*:Bfs*:Sssp*:Bc*:Cc*:Pr.*:WeightedPr*:Builder*:ProfileSampler*:Spmv*:Tc*:Bp*:Diameter*:EdgeMap*:NumaEngine*:PartitionedGraph*:WorkQueues*:Recycle*:IdWidths/*-Builder.MatchesOracleOverOptionsThreadsAndIdWidths

.PHONY: all deps build test demo clean portable native python fuzz fuzz-build fuzz-smoke sanitize asan tsan \
        docs wheel wheel-test

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD)/build.ninja
	cmake -S . -B $(BUILD) -DNUMAGRAPH_TESTS=ON >/dev/null
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

# The benchmark drivers too: tests/python/test_bc_fast.py checks the BC kernels
# through bench/bc_sssp_driver.cpp.
test: build python
	cmake -S . -B $(BUILD) -DNUMAGRAPH_BENCH=ON >/dev/null && ninja -C $(BUILD) -j $(JOBS) bench_drivers
	cd $(BUILD) && ctest --output-on-failure -j 2
	NUMAGRAPH_BIN=$(abspath $(BUILD))/numagraph NUMAGRAPH_DRIVER=$(abspath $(BUILD))/bench_bc_sssp_driver \
	  $(PY) -m pytest -q tests

# Only what the demo needs: the toolchain and the CLI (no unit tests, no
# Python test stack; make test adds those to the same build directory).
# Each step prints its wall time (the first run on a fresh machine is the
# one a newcomer waits for: docs/building.md has the figures).
demo:
	@t=$$(date +%s); scripts/install-deps.sh --demo && echo "demo: dependencies checked in $$(( $$(date +%s) - t )) s"
	@t=$$(date +%s); test -f $(BUILD)/build.ninja || \
	  cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DNUMAGRAPH_TESTS=OFF; \
	  ninja -C $(BUILD) -j $(JOBS) numagraph && echo "demo: numagraph built in $$(( $$(date +%s) - t )) s"
	@t=$$(date +%s); scripts/demo.sh $(BUILD)/numagraph $(DEMO_SCALE) && echo "demo: ran in $$(( $$(date +%s) - t )) s"

# The API reference from the installed package's docstrings (Sphinx autodoc),
# warnings as errors, then its >>> examples as doctests. Builds the package
# only when it is not importable yet (make python rebuilds it).
docs:
	@$(PY) -c 'import numagraph' 2>/dev/null || $(MAKE) python
	@$(PY) -c 'import sphinx' 2>/dev/null || $(PY) -m pip install -q --disable-pip-version-check sphinx
	$(PY) -m sphinx -b html -W --keep-going -q -d docs/api/_build/doctrees docs/api docs/api/_build/html
	$(PY) -m sphinx -b doctest -W --keep-going -q -d docs/api/_build/doctrees docs/api docs/api/_build/doctest
	@echo "docs: docs/api/_build/html/index.html"

# A manylinux wheel with the CLI inside, repaired by auditwheel (build-wheel/,
# dist/, tools in .venv-wheel; docs/building.md, "Wheels"). Not in CI: it
# compiles everything again.
wheel:
	scripts/build-wheel.sh $(JOBS)

wheel-test:
	scripts/test-wheel.sh

# libFuzzer targets, one per reader/decoder (tests/fuzz/). Needs clang
# (scripts/install-deps.sh --fuzz installs it); `make test` does not.
fuzz: fuzz-build
	tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

fuzz-build:
	@scripts/install-deps.sh --fuzz
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DNUMAGRAPH_FUZZ=ON -DNUMAGRAPH_SANITIZE=address,undefined -DNUMAGRAPH_CLI=OFF -DNUMAGRAPH_MPI=OFF
	ninja -C $(FUZZ_BUILD) -j $(JOBS) fuzz_targets

# CI: the fuzz targets build, and each runs once over its committed corpus
# (-runs=0: every input, no mutation), so the run is the same every time; a
# timed `make fuzz` explores, and what it finds joins the corpus.
fuzz-smoke: fuzz-build
	for n in $(patsubst tests/fuzz/fuzz_%.cpp,%,$(wildcard tests/fuzz/fuzz_*.cpp)); do \
	  $(FUZZ_BUILD)/tests/fuzz_$$n -runs=0 tests/fuzz/corpus/$$n || exit 1; done

# The C++ unit tests and the fuzz corpus replays under ASan+UBSan (GCC).
asan: deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(SAN_FLAGS)" \
	  -DNUMAGRAPH_SANITIZE=address,undefined \
	  -DNUMAGRAPH_CLI=OFF -DNUMAGRAPH_MPI=OFF
	ninja -C $(ASAN_BUILD) -j $(JOBS) unit_tests $(patsubst tests/fuzz/%.cpp,%_replay,$(wildcard tests/fuzz/fuzz_*.cpp))
	OMP_NUM_THREADS=2 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(ASAN_BUILD)/tests/unit_tests
	for t in $(ASAN_BUILD)/tests/fuzz_*_replay; do n=$${t##*/fuzz_}; \
	  OMP_NUM_THREADS=2 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $$t tests/fuzz/corpus/$${n%_replay} || exit 1; done

# The parallel code's tests under TSan: clang with LLVM's OpenMP runtime and
# its Archer tool, which tells TSan about OpenMP's barriers and tasks (GCC's
# libgomp is not instrumented, so every barrier would look like a race).
tsan:
	@scripts/install-deps.sh --fuzz
	CC=clang CXX=clang++ cmake -S . -B $(TSAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(SAN_FLAGS)" -DNUMAGRAPH_SANITIZE=thread -DNUMAGRAPH_CLI=OFF -DNUMAGRAPH_MPI=OFF \
	  -DNUMAGRAPH_UNIT_FILTER='$(TSAN_TESTS)'
	ninja -C $(TSAN_BUILD) -j $(JOBS) unit_tests
	OMP_NUM_THREADS=4 OMP_TOOL_LIBRARIES=$$(dirname $$(realpath $$(command -v clang)))/../lib/libarcher.so \
	  TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1 second_deadlock_stack=1" \
	  $(TSAN_BUILD)/tests/unit_tests --gtest_filter='$(TSAN_TESTS)'

sanitize: asan tsan

clean:
	rm -rf $(BUILD) build-portable build-native build-py $(FUZZ_BUILD) $(ASAN_BUILD) $(TSAN_BUILD)
