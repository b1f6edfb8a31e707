#!/usr/bin/env bash
# Runs Cheddar's own benchmarks from bench/gpu/cheddar/build.sh's bundle on a lent GPU machine,
# beside bench/gpu/run.py's fhec figures (docs/gpu.md, "Cheddar beside fhec"):
#   bundle/run.sh OUT [SECONDS]
# boot_test: bootstrapping of 2^15 slots with parameter set bootparam_40 (N = 2^16, 32-bit RNS words,
#   dense ternary secret with sparse-secret encapsulation), Boot-Basic and Boot-MinKS, each the wall
#   clock (with synchronization) after 5 warm-up runs, checked against the message it encrypted;
# basic_test: HMult (tensor + merged relinearize-rescale), HMult (tensor + relinearize) and Rescale
#   at each level of bootparam_40, bottom level first, until SECONDS (default 240) have passed.
# Writes OUT/cheddar-{gpu,bootstrap,hmult}.txt: Cheddar's output as it printed it.
set -euo pipefail
[ $# -ge 1 ] || { sed -n 4p "$0" >&2; exit 2; }
bundle=$(cd "$(dirname "$0")" && pwd); out=$(mkdir -p "$1" && cd "$1" && pwd); seconds=${2:-240}
cd "$bundle"   # the tests read their parameter files from the working directory
export LD_LIBRARY_PATH="$bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
{ echo "cheddar $(cat COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || echo "(no nvidia-smi)"; } \
  | tee "$out/cheddar-gpu.txt"
./boot_test --gtest_filter='Cheddar/Testbed32.Bootstrap/bootparam_40_json' > "$out/cheddar-bootstrap.txt" 2>&1 ||
  { tail -20 "$out/cheddar-bootstrap.txt"; echo "run.sh: boot_test failed" >&2; exit 1; }
grep -E '>>>>>|Wall clock|magnitude.*range' "$out/cheddar-bootstrap.txt"
rc=0; timeout "$seconds" ./basic_test --gtest_filter='Cheddar/Testbed32.HMult/bootparam_40_json' \
  > "$out/cheddar-hmult.txt" 2>&1 || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 124 ] || { tail -20 "$out/cheddar-hmult.txt"; echo "run.sh: basic_test failed" >&2; exit 1; }
[ "$rc" = 0 ] || echo "run.sh: basic_test stopped after $seconds s (the levels it reached are in cheddar-hmult.txt)"
grep -E '^(HMult|Rescale)' "$out/cheddar-hmult.txt" || true
