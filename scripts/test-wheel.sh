#!/usr/bin/env bash
# Installs a numagraph wheel into a fresh virtual environment whose PATH holds
# only that venv's bin/ (no cc, c++, cmake: a source build would fail), with
# CC/CXX set to /bin/false, and checks it (scripts/wheel_check.py): import,
# kernels against NetworkX, the NetworkX backend and the `numagraph` CLI.
# Usage: scripts/test-wheel.sh [WHEEL]   (default: the newest dist/numagraph-*.whl)
# Dependencies (numpy, scipy, networkx) come from PyPI as binary wheels only.
set -euo pipefail
cd "$(dirname "$0")/.."
wheel=${1:-$(ls -t dist/numagraph-*.whl 2>/dev/null | head -1)}
if [ -z "$wheel" ] || [ ! -f "$wheel" ]; then
  echo "test-wheel: no wheel in dist/: run 'make wheel' first (or pass a wheel path)" >&2
  exit 2
fi
wheel=$(realpath "$wheel")
check=$(realpath scripts/wheel_check.py)
tmp=$(mktemp -d /tmp/numagraph-wheel-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
bin=$tmp/venv/bin
# Keep the network settings pip needs; drop everything else, PATH first.
keep=(HOME="$HOME" PATH="$bin" CC=/bin/false CXX=/bin/false LANG=C.UTF-8)
for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY PIP_INDEX_URL PIP_EXTRA_INDEX_URL \
         PIP_CERT SSL_CERT_FILE REQUESTS_CA_BUNDLE; do
  if [ -n "${!v:-}" ]; then keep+=("$v=${!v}"); fi
done
if env -i "${keep[@]}" /bin/sh -c 'command -v cc || command -v c++ || command -v gcc' >/dev/null; then
  echo "test-wheel: a compiler is reachable on the restricted PATH" >&2; exit 1
fi
echo "test-wheel: installing $(basename "$wheel") into $tmp/venv (PATH=$bin, no compiler)"
env -i "${keep[@]}" "$bin/python" -m pip install -q --disable-pip-version-check --only-binary=:all: \
  "$wheel" networkx scipy
cd "$tmp"
env -i "${keep[@]}" "$bin/python" "$check"
