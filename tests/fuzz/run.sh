#!/usr/bin/env bash
# Runs every libFuzzer target of a NUMAGRAPH_FUZZ build for SECONDS each.
# Usage: tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]   (make fuzz FUZZ_SECONDS=N)
# Working corpora live in BUILD_DIR/fuzz-corpus/<name>, seeded from the
# committed tests/fuzz/corpus/<name> and from small slices of ../shared/data
# (read at run time, never committed). Crash inputs land in
# BUILD_DIR/fuzz-crashes/<name>/: fix the cause, then commit the input to
# tests/fuzz/corpus/<name>/ so ctest replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=$1 seconds=$2
shift 2
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in tests/fuzz/fuzz_*.cpp; do n=$(basename "$f" .cpp); targets+=("${n#fuzz_}"); done
fi
shared=../shared/data

seed_from_shared() {  # name dir
  local name=$1 dir=$2 f i=0
  [ -d "$shared" ] || return 0
  case $name in
    edge_list) for f in $(find "$shared" -name '*.txt' -o -name '*.txt.gz' | sort); do
                 { printf '\002'; { zcat -f "$f" || true; } | head -c 4096; } > "$dir/shared-$((i++))"; done ;;
    dimacs) for f in $(find "$shared" -name '*.gr' -o -name '*.gr.gz' | sort); do
              { zcat -f "$f" || true; } | head -c 4096 > "$dir/shared-$((i++))"; done ;;
    matrix_market) for f in $(find "$shared" -name '*.mtx' | sort); do head -c 4096 "$f" > "$dir/shared-$((i++))"; done ;;
    metis) for f in $(find "$shared" -name '*.graph' | sort); do head -c 4096 "$f" > "$dir/shared-$((i++))"; done ;;
    gzip) for f in $(find "$shared" -name '*.gz' | sort); do
            { zcat "$f" || true; } | head -c 4096 | gzip -c > "$dir/shared-$((i++))"; done ;;
  esac
}

status=0
printf '%-15s %8s %10s %8s %s\n' target seconds execs/s corpus crashes
for name in "${targets[@]}"; do
  bin=$build/tests/fuzz_$name
  [ -x "$bin" ] || { echo "missing $bin: build with make fuzz"; exit 2; }
  corpus=$build/fuzz-corpus/$name crashes=$build/fuzz-crashes/$name seeds=$build/fuzz-seeds/$name
  mkdir -p "$corpus" "$crashes" "$seeds"
  cp -n tests/fuzz/corpus/"$name"/* "$seeds"/ 2>/dev/null || true
  seed_from_shared "$name" "$seeds"
  log=$build/fuzz-$name.log
  "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
         -artifact_prefix="$crashes/" "$corpus" "$seeds" > "$log" 2>&1 || true
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  # slow-unit-* files only mean a loaded machine; crashes, leaks, timeouts and OOMs are findings.
  found=$(find "$crashes" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  printf '%-15s %8s %10s %8s %s\n' "$name" "$seconds" "$(( ${execs:-0} / (seconds > 0 ? seconds : 1) ))" \
         "$(find "$corpus" -type f | wc -l)" "$found"
  [ "$found" -eq 0 ] || status=1
done
[ $status -eq 0 ] || echo "crash inputs in $build/fuzz-crashes/: fix the cause, then commit each to tests/fuzz/corpus/<target>/"
exit $status
