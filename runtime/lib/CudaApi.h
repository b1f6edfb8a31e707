// The part of the CUDA driver API (cuda.h, CUDA 12+) that the cuda target's
// runtime calls, declared here because nothing from CUDA is present at build
// time: the library is opened with dlopen when a module first needs it. The
// mock driver of the tests (test/runtime/mock-cuda/MockCudaDriver.cpp), built
// against the real cuda.h where the set-up script installed it, checks these
// declarations (the entry points' parameter and result sizes, the constants,
// the struct layout) against it.
#pragma once

#include <cstddef>

namespace fhec::rt::cu {

using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;
using CUgraph = void *;
using CUgraphNode = void *;
using CUgraphExec = void *;
using CUdeviceptr = unsigned long long;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;

/// CUDA_KERNEL_NODE_PARAMS (v2, the layout of cuGraphAddKernelNode_v2).
struct KernelNodeParams {
  CUfunction func;
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  void **kernelParams;
  void **extra;
  void *kern;  // CUkernel: unused when func is set
  CUcontext ctx;
};

/// The driver's entry points, by the names libcuda.so.1 exports (the _v2
/// versions that cuda.h's macros select).
struct Api {
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDeviceGetCount)(int *) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *, int) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char **) = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule *, const void *) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void **, void **) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemAllocHost)(void **, size_t) = nullptr;
  CUresult (*cuMemFreeHost)(void *) = nullptr;
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream) = nullptr;
  CUresult (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream) = nullptr;
  CUresult (*cuStreamCreate)(CUstream *, unsigned) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream) = nullptr;
  CUresult (*cuEventCreate)(CUevent *, unsigned) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent) = nullptr;
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent) = nullptr;
  CUresult (*cuEventDestroy)(CUevent) = nullptr;
  CUresult (*cuGraphCreate)(CUgraph *, unsigned) = nullptr;
  CUresult (*cuGraphAddKernelNode)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,
                                   const KernelNodeParams *) = nullptr;
  CUresult (*cuGraphAddEventRecordNode)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, CUevent) = nullptr;
  CUresult (*cuGraphInstantiate)(CUgraphExec *, CUgraph, unsigned long long) = nullptr;
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream) = nullptr;
  CUresult (*cuGraphExecKernelNodeSetParams)(CUgraphExec, CUgraphNode, const KernelNodeParams *) = nullptr;
  CUresult (*cuGraphExecDestroy)(CUgraphExec) = nullptr;
  CUresult (*cuGraphDestroy)(CUgraph) = nullptr;

  /// Calls fn(pointer, exported name) for every entry point.
  template <typename Fn> void forEach(Fn &&fn) {
    fn(cuInit, "cuInit");
    fn(cuDeviceGetCount, "cuDeviceGetCount");
    fn(cuDeviceGet, "cuDeviceGet");
    fn(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    fn(cuCtxSetCurrent, "cuCtxSetCurrent");
    fn(cuGetErrorString, "cuGetErrorString");
    fn(cuModuleLoadData, "cuModuleLoadData");
    fn(cuModuleGetFunction, "cuModuleGetFunction");
    fn(cuModuleUnload, "cuModuleUnload");
    fn(cuLaunchKernel, "cuLaunchKernel");
    fn(cuMemAlloc, "cuMemAlloc_v2");
    fn(cuMemFree, "cuMemFree_v2");
    fn(cuMemAllocHost, "cuMemAllocHost_v2");
    fn(cuMemFreeHost, "cuMemFreeHost");
    fn(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
    fn(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
    fn(cuStreamCreate, "cuStreamCreate");
    fn(cuStreamDestroy, "cuStreamDestroy_v2");
    fn(cuStreamSynchronize, "cuStreamSynchronize");
    fn(cuEventCreate, "cuEventCreate");
    fn(cuEventRecord, "cuEventRecord");
    fn(cuEventSynchronize, "cuEventSynchronize");
    fn(cuEventElapsedTime, "cuEventElapsedTime");
    fn(cuEventDestroy, "cuEventDestroy_v2");
    fn(cuGraphCreate, "cuGraphCreate");
    fn(cuGraphAddKernelNode, "cuGraphAddKernelNode_v2");
    fn(cuGraphAddEventRecordNode, "cuGraphAddEventRecordNode");
    fn(cuGraphInstantiate, "cuGraphInstantiateWithFlags");
    fn(cuGraphLaunch, "cuGraphLaunch");
    fn(cuGraphExecKernelNodeSetParams, "cuGraphExecKernelNodeSetParams_v2");
    fn(cuGraphExecDestroy, "cuGraphExecDestroy");
    fn(cuGraphDestroy, "cuGraphDestroy");
  }
};

} // namespace fhec::rt::cu
