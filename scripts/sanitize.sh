#!/usr/bin/env bash
# The sanitizer job (scripts/test.sh runs it after the normal tests): builds
# everything into build-san/ with AddressSanitizer and UndefinedBehaviorSanitizer
# (clang-22, assertions on, UBSan fatal; plus the libFuzzer targets of fuzz/),
# runs the runtime tests, the lit tests, the end-to-end tests at small sizes
# (N <= 2^14: not the paper-size ones) and the replay of every input in
# fuzz/regressions/; then the ThreadSanitizer check of the GPU kernels
# (build-tsan/: the runtime and fhec-exec with -fsanitize=thread, running
# cuda-emu modules that build-san's fhec compiles with --sanitize=thread:
# test/targets/cuda-emu-tsan.mlir); then a short fuzz campaign of FHEC_FUZZ_SECONDS per
# target (default: 180 for fhec-fuzz-mlir, 60 for the others). Exits non-zero on any failure, sanitizer report or finding.
#
#   scripts/sanitize.sh               the whole job
#   scripts/sanitize.sh --build-only  configure and build build-san/ (incremental)
#   scripts/sanitize.sh --no-fuzz     everything but the campaign
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mode=${1:-}
case "$mode" in
  "" | --build-only | --no-fuzz) ;;
  *) echo "usage: scripts/sanitize.sh [--build-only | --no-fuzz]" >&2; exit 2 ;;
esac

# clang-22 (setup.sh) only recommends the sanitizer and libFuzzer run-time libraries.
if ! dpkg -s libclang-rt-22-dev >/dev/null 2>&1; then
  echo "sanitize: installing libclang-rt-22-dev"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y libclang-rt-22-dev
fi

if [ ! -f build-san/build.ninja ]; then
  CC=clang-22 CXX=clang++-22 cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DPython3_EXECUTABLE="$root/.venv/bin/python" \
    -DFHEC_SANITIZE=address,undefined -DFHEC_FUZZ=ON
fi
cmake --build build-san -j "$(nproc)"
if [ ! -f build-tsan/build.ninja ]; then
  CC=clang-22 CXX=clang++-22 cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DPython3_EXECUTABLE="$root/.venv/bin/python" \
    -DFHEC_SANITIZE=thread
fi
cmake --build build-tsan --target fhec-exec -j "$(nproc)"
[ "$mode" = --build-only ] && exit 0
echo "sanitize: build-san built (${SECONDS}s)"

# shellcheck source=fuzz/sanitizer-env.sh
source "$root/fuzz/sanitizer-env.sh"

# Everything ctest knows in build-san (runtime tests, lit tests of the
# compiler's tools, end-to-end tests, fuzz regressions) but the HE Mul cases at
# N = 2^16 (the paper's size and logN16_logQ60): a few minutes on 2 cores.
ctest --test-dir build-san --output-on-failure -j "$(nproc)" --timeout 900 \
  -E '^Paper/|^Sizes/HEMulBitExact\.MatchesReference/logN16_'
echo "sanitize: tests passed (${SECONDS}s)"

# The race check: build-san's fhec compiles the modules, build-tsan's fhec-exec runs them.
"$root/.venv/bin/lit" -sv "$root/build-san/test" --filter 'cuda-emu-tsan' --param tsan-exec="$root/build-tsan/bin/fhec-exec"
echo "sanitize: ThreadSanitizer check of the cuda-emu kernels passed (${SECONDS}s)"

[ "$mode" = --no-fuzz ] && exit 0
# fhec-fuzz-mlir spends its first minute on the seeds (every test and example
# through the whole pipeline, ~4 inputs/s): it gets 3 minutes.
found=0
"$root/scripts/fuzz.sh" "${FHEC_FUZZ_SECONDS:-180}" mlir || found=1
"$root/scripts/fuzz.sh" "${FHEC_FUZZ_SECONDS:-60}" deserialize manifest || found=1
if [ $found = 1 ]; then
  echo "sanitize: the fuzz campaign found something (see above; ${SECONDS}s)"
  exit 1
fi
echo "sanitize: fuzz campaign found nothing (${SECONDS}s)"
