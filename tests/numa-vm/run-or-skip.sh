#!/usr/bin/env bash
# run-or-skip.sh RUNNER NODES CPUS_PER_NODE BINARY: runs BINARY in the
# emulated NUMA machine (RUNNER = ../shared/tools/numa-vm/run-in-numa-vm.sh),
# or exits 77 -- ctest's SKIP_RETURN_CODE for these tests -- with a message
# when QEMU, a static busybox or a guest kernel is missing and cannot be
# fetched. `make test` installs all three, so in CI the test really runs.
set -uo pipefail
runner=$1
shift
skip() { echo "SKIP numa-vm: $* (install with ../shared/tools/numa-vm/install-deps.sh)"; exit 77; }
[ -x "$runner" ] || skip "no runner at $runner"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed"
busybox=${NUMAVM_BUSYBOX:-/bin/busybox}
{ [ -x "$busybox" ] && ! ldd "$busybox" >/dev/null 2>&1; } || skip "no static busybox at $busybox"
kdir=${NUMAVM_KERNEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/numa-vm}
if [ -z "${NUMAVM_KERNEL:-}" ] && ! ls "$kdir"/vmlinuz-* >/dev/null 2>&1; then
  NUMAVM_KERNEL_DIR="$kdir" "$(dirname "$runner")/fetch-kernel.sh" >&2 || skip "no guest kernel in $kdir"
fi
exec "$runner" "$@"
