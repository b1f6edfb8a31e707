// UNSUPPORTED: cuda-driver
// RUN: not fhec run %S/cuda.mlir --target=cuda 2>&1 | FileCheck %s
// RUN: not fhec %S/cuda.mlir --target=cpu --emit=ptx 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not fhec %S/cuda.mlir --target=cuda --gpu-arch=sm_70 --emit=ptx 2>&1 | FileCheck %s --check-prefix=ARCH
// Without a GPU, `fhec run --target=cuda` says so before compiling and fails.
// CHECK: fhec run: error: --target=cuda runs on an NVIDIA GPU, but there is none here (no NVIDIA driver: libcuda.so.1 not found); --target=cuda-emu runs the same kernels on the CPU
// PTX: fhec: error: --emit=ptx needs --target=cuda
// ARCH: unknown --gpu-arch=sm_70 (expected sm_80 or sm_90)
