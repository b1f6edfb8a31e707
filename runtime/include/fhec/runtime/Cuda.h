// The CUDA driver, loaded at run time (dlopen of libcuda.so.1): machines
// without a GPU build and run everything else with nothing from CUDA.
#pragma once

#include <cstdint>
#include <string>

namespace fhec::rt {

/// Empty when a CUDA driver and at least one GPU are present; otherwise why
/// not ("no NVIDIA driver: libcuda.so.1 not found", "no CUDA device", ...).
std::string cudaUnavailableReason();

/// The first error a kernel launch of the cuda target recorded since the
/// last call (with the kernel's name), cleared by the call; empty if none.
std::string takeCudaLaunchError();

} // namespace fhec::rt

extern "C" {
/// Launch hook of cuda modules (fhec/runtime/Abi.h, kGpuCudaLaunchSymbol):
/// loads `ptx` once per context (cuModuleLoadData), launches `kernel` with
/// the 8-byte argument slots on the default stream. Errors are recorded for
/// takeCudaLaunchError (compiled code cannot unwind), and later launches skip.
void fhec_rt_gpu_cuda_launch(const char *ptx, const char *kernel, int64_t gx, int64_t gy, int64_t gz, int64_t bx,
                             int64_t by, int64_t bz, int64_t sharedBytes, int64_t *slots, int32_t numSlots);
}
