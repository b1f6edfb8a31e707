#!/usr/bin/env bash
# The sanitizer job (scripts/test.sh runs it after the normal tests): builds
# everything into build-san/ with AddressSanitizer and UndefinedBehaviorSanitizer
# (clang-22, assertions on, UBSan fatal; plus the libFuzzer targets of fuzz/),
# runs the runtime tests, the lit tests, a representative subset of the
# end-to-end tests (below) and the replay of every input in fuzz/regressions/; then the ThreadSanitizer check of the GPU kernels
# (build-tsan/: the runtime and fhec-exec with -fsanitize=thread, running
# cuda-emu modules that build-san's fhec compiles with --sanitize=thread:
# test/targets/cuda-emu-tsan.mlir); then a short fuzz campaign of FHEC_FUZZ_SECONDS per
# target (default: 120 for fhec-fuzz-mlir, 30 for the others). Exits non-zero on any failure, sanitizer report or finding.
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

# A representative subset of what ctest knows in build-san: every runtime
# test, lit test and fuzz regression, and the end-to-end tests in the
# configurations that share code with the rest (each target at -O0 and -O2,
# one and two threads once) but not the matrix's "-O2 without pass X"
# variants (the same runtime and kernels, which the normal run checks bit for
# bit), nor N = 2^16, nor cuda-emu's -O0 programs (its emulator runs the -O2
# ones), nor the bootstraps but one per runtime path: the sparse-secret one on
# cpu, the encapsulated one on cuda's arithmetic (cuda-emu's bootstrap, 5 min
# under ASan, runs the emulator's code that its programs run).
ctest --test-dir build-san --output-on-failure -j "$(nproc)" --timeout 900 \
  -E '_no_|O0_2threads|O2_1thread|/logN16_|FullSlotBootstrapBitExact|CudaEmu/.*cuda_emu_O0|SparseSlots/(avx512|cuda)|SparseSlotsEncapsulated/(avx512|cuda_emu|O2)'
echo "sanitize: tests passed (${SECONDS}s)"

# The race check: build-san's fhec compiles the modules, build-tsan's fhec-exec runs them.
"$root/.venv/bin/lit" -sv "$root/build-san/test" --filter 'cuda-emu-tsan' --param tsan-exec="$root/build-tsan/bin/fhec-exec"
echo "sanitize: ThreadSanitizer check of the cuda-emu kernels passed (${SECONDS}s)"

[ "$mode" = --no-fuzz ] && exit 0
# fhec-fuzz-mlir spends its first minute on the seeds (every test and example
# through the whole pipeline, ~4 inputs/s): it gets 2 minutes; the readers,
# at thousands of inputs a second, 30 s each (scripts/fuzz.sh runs longer
# campaigns by hand).
found=0
"$root/scripts/fuzz.sh" "${FHEC_FUZZ_SECONDS:-120}" mlir || found=1
"$root/scripts/fuzz.sh" "${FHEC_FUZZ_SECONDS:-30}" deserialize manifest || found=1
if [ $found = 1 ]; then
  echo "sanitize: the fuzz campaign found something (see above; ${SECONDS}s)"
  exit 1
fi
echo "sanitize: fuzz campaign found nothing (${SECONDS}s)"
