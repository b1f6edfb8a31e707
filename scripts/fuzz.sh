#!/usr/bin/env bash
# Fuzz campaign on the libFuzzer targets of fuzz/ (ASan + UBSan, build-san/):
#
#   scripts/fuzz.sh [SECONDS-PER-TARGET] [TARGET...]     (default: 1800; mlir deserialize manifest)
#   scripts/fuzz.sh --keep-going [SECONDS] [TARGET...]   go on after a finding (libFuzzer -fork=1)
#
# Builds build-san/ if needed, regenerates the seed corpora when a test or
# example changed (build-san/fuzz-seeds/: every .mlir of test/ and examples/,
# their manifests, serialized objects at logN 4..10), then runs each target
# single-process for SECONDS on its corpus build-san/fuzz-corpus/<target>/
# (kept between campaigns, not in git) plus the seeds, and prints each
# target's executions and coverage (cov: edges, ft: features). Limits: -timeout
# per input (mlir 60 s, others 10 s), -rss_limit_mb=2048 and the largest single
# allocation (mlir 2048 MiB, others 64 MiB; fuzz/CMakeLists.txt replays the
# regressions with the same limits). libFuzzer's slow-unit report is set to the
# same per-input limit: an input that compiles within it (a program at the
# paper's ring size takes tens of seconds under ASan) is not a finding.
# Findings (crash-*, timeout-*, oom-*, leak-*) go to
# build-san/fuzz-findings/<target>/, the full log to build-san/fuzz-logs/.
# To keep one as a regression test: minimize it
#   build-san/bin/fhec-fuzz-<target> -minimize_crash=1 -runs=20000 FILE
# and copy it, with a descriptive name, to fuzz/regressions/<target>/.
# Exits non-zero if any target found anything.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

keep_going=0
if [ "${1:-}" = --keep-going ]; then
  keep_going=1
  shift
fi
seconds=${1:-1800}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(mlir deserialize manifest)

"$root/scripts/sanitize.sh" --build-only
# shellcheck source=fuzz/sanitizer-env.sh
source "$root/fuzz/sanitizer-env.sh"

seeds=build-san/fuzz-seeds
stamp=$seeds/.stamp
mapfile -t inputs < <(find test examples -name '*.mlir' | sort)
if [ ! -f "$stamp" ] || [ build-san/bin/fhec-fuzz-seeds -nt "$stamp" ] ||
   [ -n "$(find test examples -name '*.mlir' -newer "$stamp" | head -1)" ]; then
  rm -rf "$seeds"
  build-san/bin/fhec-fuzz-seeds "$seeds" "${inputs[@]}"
  touch "$stamp"
fi

status=0
for t in "${targets[@]}"; do
  bin=build-san/bin/fhec-fuzz-$t
  [ -x "$bin" ] || { echo "fuzz.sh: no target '$t' (mlir, deserialize, manifest)"; exit 2; }
  corpus=build-san/fuzz-corpus/$t findings=build-san/fuzz-findings/$t log=build-san/fuzz-logs/$t.log
  mkdir -p "$corpus" "$findings" build-san/fuzz-logs
  args=(-max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/")
  if [ "$t" = mlir ]; then
    args+=(-timeout=60 -report_slow_units=60 -dict=fuzz/mlir.dict)
  else
    # Readers of inputs this small (<= 100 KiB) have no reason for one
    # allocation of 64 MiB or more: that is memory amplification. Value
    # profiling guides the mutations through the readers' range checks.
    args+=(-timeout=10 -report_slow_units=10 -malloc_limit_mb=64 -use_value_profile=1)
  fi
  [ $keep_going = 1 ] && args+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  marker=$(mktemp)
  echo "fuzz.sh: $t for ${seconds}s (log: $log)"
  rc=0
  "$bin" "${args[@]}" "$corpus" "$seeds/$t" >"$log" 2>&1 || rc=$?
  mapfile -t found < <(find "$findings" -type f -newer "$marker")
  rm -f "$marker"
  # libFuzzer's last status line (#runs cov: ft: corp: exec/s: rss:) and final stats.
  grep -E '^#[0-9]+.*cov:' "$log" | tail -1 | sed "s/^/  $t: /" || true
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" |
    sed "s/^/  $t: /" || true
  if [ $rc -ne 0 ] || [ ${#found[@]} -gt 0 ]; then
    status=1
    echo "fuzz.sh: $t FOUND SOMETHING (exit $rc):"
    printf '    %s\n' "${found[@]}"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error:|fhec-fuzz-)' "$log" | sort | uniq -c | head -20 |
      sed 's/^/    /' || true
  fi
done
exit $status
