#!/usr/bin/env bash
# Runs every test: GoogleTest runtime tests, lit/FileCheck compiler tests and the
# end-to-end bit-exactness tests, all registered with ctest; then the sanitizer
# job (scripts/sanitize.sh: the runtime, lit and small end-to-end tests under
# ASan and UBSan, the fuzz regressions, the ThreadSanitizer check of the
# cuda-emu kernels and a short fuzz campaign, in build-san/ and build-tsan/).
# Exits non-zero on any failure. FHEC_SANITIZE_JOB=0 skips the sanitizer job.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/build"
# One test process per core (the e2e tests are many small compile-and-run jobs).
ctest --output-on-failure -j "$(nproc)" "$@"
if [ "${FHEC_SANITIZE_JOB:-1}" != 0 ]; then
  "$root/scripts/sanitize.sh"
fi
