#!/usr/bin/env bash
# Builds Cheddar's own benchmarks (scale-snu/cheddar-fhe, MIT: the unit tests boot_test and
# basic_test) for one GPU architecture on this Debian 12 machine, without a GPU and without a
# network beyond Debian and PyPI, into a bundle that bench/gpu/cheddar/run.sh runs on a lent GPU
# machine beside bench/gpu/run.py (docs/gpu.md, "Cheddar beside fhec").
#
#   bench/gpu/cheddar/build.sh CHEDDAR_SRC RMM_SRC OUT [sm_90]
#
# CHEDDAR_SRC: a checkout of github:scale-snu/cheddar-fhe (measured at 8df8b26);
# RMM_SRC: a checkout of github:rapidsai/rmm at branch-22.12 (Cheddar's FetchContent pin; be379e5).
# CUDA 13.0 comes from the PyPI wheels (nvcc, nvvm, crt, cccl, runtime: the lent machines' driver
# runs 13.0, not newer); googletest, nlohmann/json and spdlog from Debian. RMM and the tests'
# nlohmann/json are given to Cheddar's FetchContent as the directories of shims/ (RMM's own
# CMakeLists downloads rapids-cmake at configure time; its headers need one CCCL 3 shim). Cheddar is built with GMP
# (USE_GMP=ON) instead of libtommath, which only its host-side set-up uses. The copy of Cheddar's
# source that is built gets two changes: CMAKE_CUDA_ARCHITECTURES set to the one architecture asked
# for (its list starts at sm_60, which CUDA 13 no longer compiles), and the tests' parameter files
# read from the working directory instead of the build directory (PARAM_DIR), so that the bundle
# runs anywhere.
# Writes OUT/bundle/: boot_test, basic_test, libcheddar.so and the shared libraries they need
# (CUDA runtime 13.0, fmt, GMP), the parameter files, COMMIT and run.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 3 ] || { sed -n 7,8p "$0" >&2; exit 2; }
src=$(cd "$1" && pwd); rmm=$(cd "$2" && pwd); out=$(mkdir -p "$3" && cd "$3" && pwd); arch=${4:-sm_90}
[ -f "$src/unittest/Bootstrapping.cpp" ] || { echo "build.sh: $src is not a Cheddar checkout" >&2; exit 2; }
[ -f "$rmm/include/rmm/device_uvector.hpp" ] || { echo "build.sh: $rmm is not an RMM checkout" >&2; exit 2; }
[[ $arch =~ ^sm_([0-9]+)$ ]] || { echo "build.sh: architecture '$arch' is not sm_NN" >&2; exit 2; }

packages=(cmake ninja-build g++ libgmp-dev googletest libspdlog-dev libfmt-dev nlohmann-json3-dev python3-venv)
if ! dpkg -s "${packages[@]}" >/dev/null 2>&1; then
  sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${packages[@]}"
fi

# The toolkit: one directory (nvidia/cu13) with bin/nvcc, nvvm, include and lib.
[ -x "$out/venv/bin/pip" ] || python3 -m venv "$out/venv"
"$out/venv/bin/pip" install -q 'nvidia-cuda-nvcc==13.0.*' 'nvidia-cuda-crt==13.0.*' \
  'nvidia-cuda-cccl==13.0.*' 'nvidia-cuda-runtime==13.0.*' 'nvidia-nvvm==13.0.*'
cuda=$(echo "$out"/venv/lib/python3*/site-packages/nvidia/cu13)
# The wheels' layout beside a toolkit's: only the versioned libcudart name, and lib where
# nvcc.profile looks in lib64.
ln -sf libcudart.so.13 "$cuda/lib/libcudart.so"
[ -e "$cuda/lib64" ] || ln -s lib "$cuda/lib64"

rm -rf "$out/src" && cp -r "$src" "$out/src"
sed -i "s/^set (CMAKE_CUDA_ARCHITECTURES .*)/set (CMAKE_CUDA_ARCHITECTURES ${BASH_REMATCH[1]})/" "$out/src/CMakeLists.txt"
grep -q "^set (CMAKE_CUDA_ARCHITECTURES ${BASH_REMATCH[1]})" "$out/src/CMakeLists.txt" ||
  { echo "build.sh: Cheddar's CMakeLists.txt no longer sets CMAKE_CUDA_ARCHITECTURES as expected" >&2; exit 1; }
sed -i 's/^  PARAM_DIR=.*/  PARAM_DIR="."/' "$out/src/unittest/CMakeLists.txt"
grep -q '^  PARAM_DIR="."' "$out/src/unittest/CMakeLists.txt" ||
  { echo "build.sh: Cheddar's unittest/CMakeLists.txt no longer sets PARAM_DIR as expected" >&2; exit 1; }

cmake -S "$out/src" -B "$out/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DUSE_GMP=ON \
  -DCMAKE_CUDA_COMPILER="$cuda/bin/nvcc" -DCUDAToolkit_ROOT="$cuda" \
  -DFETCHCONTENT_FULLY_DISCONNECTED=ON \
  -DFETCHCONTENT_SOURCE_DIR_RMM="$here/shims/rmm" -DRMM_HEADERS_DIR="$rmm/include" \
  -DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=/usr/src/googletest \
  -DFETCHCONTENT_SOURCE_DIR_JSONCPP="$here/shims/nlohmann_json"
cmake --build "$out/build" --target boot_test basic_test

rm -rf "$out/bundle" && mkdir -p "$out/bundle"
cp "$out/build/unittest/boot_test" "$out/build/unittest/basic_test" "$out/build/libcheddar.so" \
   "$out/build/unittest/"*.json "$cuda/lib/libcudart.so.13" "$here/run.sh" "$out/bundle/"
# The Debian libraries it links (spdlog's fmt, GMP), which the GPU machine's distribution may lack.
for lib in libfmt.so libgmp.so; do
  cp -L "$(LD_LIBRARY_PATH="$out/bundle" ldd "$out/bundle/boot_test" | awk -v l="$lib" 'index($1, l) == 1 {print $3}')" "$out/bundle/"
done
git -C "$src" rev-parse --short HEAD > "$out/bundle/COMMIT" 2>/dev/null || echo unknown > "$out/bundle/COMMIT"
echo "build.sh: $out/bundle ($(du -sh "$out/bundle" | cut -f1)); on the GPU machine: bundle/run.sh OUT"
