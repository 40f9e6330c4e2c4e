#!/usr/bin/env bash
# make demo: generate a Kronecker graph, time generate/convert/load, run every
# kernel with verification and print one results table.
set -euo pipefail
cd "$(dirname "$0")/.."
# The system python3: the demo script uses only the standard library.
exec python3 scripts/demo.py "$@"
