#!/usr/bin/env bash
# Runs every test: GoogleTest runtime tests, lit/FileCheck compiler tests and the
# end-to-end bit-exactness tests, all registered with ctest. Exits non-zero on any failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/build"
# One test process per core (the e2e tests are many small compile-and-run jobs).
ctest --output-on-failure -j "$(nproc)" "$@"
