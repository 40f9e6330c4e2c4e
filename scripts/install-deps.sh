#!/usr/bin/env bash
# Installs what numagraph needs on a Debian/Ubuntu machine, skipping what is
# already there: compiler toolchain and libraries (apt), the QEMU NUMA VM used
# by the placement tests (when ../shared is present), and a project virtualenv
# (.venv) with the Python test and build dependencies.
# Usage: scripts/install-deps.sh            (everything)
#        scripts/install-deps.sh --demo     (only what make demo needs: the C++ toolchain
#                                            and libraries of the CLI, and python3)
#        NUMAGRAPH_SKIP_APT=1 scripts/...   (only the venv)
#        scripts/install-deps.sh --fuzz     (only clang, libFuzzer and LLVM's OpenMP, for make fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(g++ make cmake ninja-build pkg-config zlib1g-dev libisal-dev libhwloc-dev hwloc-nox libnuma-dev
              numactl libcli11-dev libgtest-dev googletest openmpi-bin libopenmpi-dev time)

# What the library and the CLI alone need (make demo).
DEMO_APT_PACKAGES=(g++ make cmake ninja-build pkg-config zlib1g-dev libisal-dev libhwloc-dev hwloc-nox libnuma-dev
                   libcli11-dev python3)

sudo_if_needed() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# make fuzz: clang with its libFuzzer and OpenMP runtime, in the version of
# the distribution's default clang. Not needed by make test.
if [ "${1:-}" = "--fuzz" ]; then
  apt_install() {
    sudo_if_needed apt-get update -qq
    DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq --no-install-recommends "$@" >/dev/null
  }
  command -v clang >/dev/null || { echo "install-deps: apt-get install clang"; apt_install clang; }
  v=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
  missing=()
  for p in "libclang-rt-$v-dev" "libomp-$v-dev"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "install-deps: apt-get install ${missing[*]}"
    apt_install "${missing[@]}"
  fi
  exit 0
fi

# make demo: the CLI's build dependencies and the system python3 (the demo
# script needs only its standard library); no test stack, no venv.
if [ "${1:-}" = "--demo" ]; then
  missing=()
  for p in "${DEMO_APT_PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "install-deps: apt-get install ${missing[*]}"
    sudo_if_needed apt-get update -qq
    DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
  fi
  exit 0
fi

if [ -z "${NUMAGRAPH_SKIP_APT:-}" ]; then
  missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then missing+=(python3-venv python3-dev); fi
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "install-deps: apt-get install ${missing[*]}"
    sudo_if_needed apt-get update -qq
    DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
  fi
  # The emulated NUMA machine for placement tests (idempotent, ~35 s the first time).
  if [ -x ../shared/tools/numa-vm/install-deps.sh ] && ! command -v qemu-system-x86_64 >/dev/null; then
    ../shared/tools/numa-vm/install-deps.sh >/dev/null
  fi
fi

PY_PACKAGES=(numpy scipy networkx pytest nanobind scikit-build-core ninja pandas pyarrow sphinx matplotlib)
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
if ! .venv/bin/python -c 'import numpy, scipy, networkx, pytest, nanobind, scikit_build_core, pandas, pyarrow, sphinx, matplotlib' >/dev/null 2>&1; then
  echo "install-deps: pip install ${PY_PACKAGES[*]}"
  .venv/bin/pip install -q --disable-pip-version-check "${PY_PACKAGES[@]}"
fi
