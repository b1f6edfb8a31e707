// The CUDA driver, loaded at run time (dlopen of libcuda.so.1): machines
// without a GPU build and run everything else with nothing from CUDA.
#pragma once

#include <cstdint>
#include <string>

namespace fhec::rt {

/// Empty when a CUDA driver and at least one GPU are present; otherwise why
/// not ("no NVIDIA driver: libcuda.so.1 not found", "no CUDA device", ...).
std::string cudaUnavailableReason();

} // namespace fhec::rt

extern "C" {
/// Launch hook of cuda modules (fhec/runtime/Abi.h, kGpuCudaLaunchSymbol):
/// adds the launch of `kernel` with the 8-byte argument slots to the running
/// call of the cuda device (Device::beginCall), which loads `ptx` once
/// (cuModuleLoadData) and issues the call's launches on its stream. Errors
/// are reported by the device's synchronize() (compiled code cannot unwind).
void fhec_rt_gpu_cuda_launch(const char *ptx, const char *kernel, int64_t gx, int64_t gy, int64_t gz, int64_t bx,
                             int64_t by, int64_t bz, int64_t sharedBytes, int64_t *slots, int32_t numSlots);
}
