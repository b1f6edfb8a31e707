#!/usr/bin/env bash
# One-stop, idempotent set-up for a Debian 12 machine: installs what is missing
# (apt + a project venv for the Python tools) and builds fhec into build/.
# --bench also installs the peers bench/peers/bench.py measures (PyPI:
# desilofhe, tenseal); the tests do not need them.
set -euo pipefail
bench=0
for a in "$@"; do
  case "$a" in
    --bench) bench=1 ;;
    *) echo "setup: unknown option $a (expected --bench)" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

apt_packages=(cmake ninja-build g++ python3 python3-venv python3-dev libgmp-dev libmpfr-dev libssl-dev libgtest-dev libxxhash-dev
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 libomp-22-dev)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y "${missing[@]}"
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
if ! .venv/bin/python -c 'import lit, jinja2, numpy, pybind11, pytest, sklearn, ray, tqdm' 2>/dev/null ||
   ! ls .venv/lib/python3*/site-packages/nvidia/cuda_nvcc/bin/ptxas >/dev/null 2>&1 ||
   ! ls .venv/lib/python3*/site-packages/nvidia/cuda_runtime/include/cuda.h >/dev/null 2>&1; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -r python/requirements.txt
fi

if [ "$bench" = 1 ] && ! .venv/bin/python -c 'import desilofhe, tenseal' 2>/dev/null; then
  .venv/bin/python -m pip install -q desilofhe tenseal
fi

if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DPython3_EXECUTABLE="$root/.venv/bin/python"
fi
cmake --build build

# The Python package (python/fhec, with the extension the build put there),
# in editable mode: `import fhec` in the project venv.
if ! .venv/bin/python -c 'import fhec' 2>/dev/null; then
  .venv/bin/python -m pip install -q -e python
fi
