// The CUDA driver API through dlopen: the few entry points the cuda target's
// runtime needs, declared here (no cuda.h at build time).
#include "fhec/runtime/Cuda.h"
#include "fhec/runtime/Device.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Profile.h"

#include <dlfcn.h>

#include <type_traits>

#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace {

using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUdeviceptr = unsigned long long;
using CUevent = void *;
constexpr CUresult CUDA_SUCCESS = 0;

struct Driver {
  std::string unavailable;  // why the driver cannot be used; empty if it can
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDeviceGetCount)(int *) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *, int) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule *, const void *) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void **, void **) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char **) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t) = nullptr;
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuEventCreate)(CUevent *, unsigned) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent) = nullptr;
  CUresult (*cuEventDestroy)(CUevent) = nullptr;
  CUcontext context = nullptr;

  std::string describe(CUresult r) const {
    const char *s = nullptr;
    if (cuGetErrorString && cuGetErrorString(r, &s) == CUDA_SUCCESS && s) return s;
    return "CUDA error " + std::to_string(r);
  }

  Driver() {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      unavailable = "no NVIDIA driver: libcuda.so.1 not found";
      return;
    }
    auto sym = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn && unavailable.empty()) unavailable = std::string("the NVIDIA driver lacks ") + name;
    };
    sym(cuInit, "cuInit");
    sym(cuDeviceGetCount, "cuDeviceGetCount");
    sym(cuDeviceGet, "cuDeviceGet");
    sym(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    sym(cuCtxSetCurrent, "cuCtxSetCurrent");
    sym(cuModuleLoadData, "cuModuleLoadData");
    sym(cuModuleGetFunction, "cuModuleGetFunction");
    sym(cuLaunchKernel, "cuLaunchKernel");
    sym(cuGetErrorString, "cuGetErrorString");
    sym(cuMemAlloc, "cuMemAlloc_v2");
    sym(cuMemFree, "cuMemFree_v2");
    sym(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    sym(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
    sym(cuCtxSynchronize, "cuCtxSynchronize");
    sym(cuEventCreate, "cuEventCreate");
    sym(cuEventRecord, "cuEventRecord");
    sym(cuEventElapsedTime, "cuEventElapsedTime");
    sym(cuEventDestroy, "cuEventDestroy_v2");
    if (!unavailable.empty()) return;
    int count = 0;
    CUdevice dev = 0;
    if (CUresult r = cuInit(0); r != CUDA_SUCCESS) {
      unavailable = "the CUDA driver does not start (cuInit: " + describe(r) + ")";
    } else if (cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
      unavailable = "no CUDA device";
    } else if (CUresult r = cuDeviceGet(&dev, 0); r != CUDA_SUCCESS) {
      unavailable = "cannot open CUDA device 0: " + describe(r);
    } else if (CUresult r = cuDevicePrimaryCtxRetain(&context, dev); r != CUDA_SUCCESS) {
      unavailable = "cannot create a context on CUDA device 0: " + describe(r);
    }
  }
};

const Driver &driver() {
  static const Driver d;
  return d;
}

std::mutex gMutex;
std::string gLaunchError;                                    // first error since the last take
std::string gLastKernel;                                     // the kernel launched last (for execution errors)
std::map<const char *, CUmodule> gModules;                   // PTX text -> loaded module
std::map<std::pair<CUmodule, std::string>, CUfunction> gFunctions;

} // namespace

namespace fhec::rt {

std::string cudaUnavailableReason() { return driver().unavailable; }

std::string takeCudaLaunchError() {
  std::lock_guard<std::mutex> lock(gMutex);
  return std::exchange(gLaunchError, std::string());
}

namespace {

// Device 0's memory through the driver API (the primary context, current on
// the calling thread for every call: the executor may run on any thread).
// Phases are timed by events recorded in the launch stream around their
// kernels, read once the kernels are done.
class CudaDevice final : public Device, public PhaseRecorder {
public:
  ~CudaDevice() override {
    if (current() == CUDA_SUCCESS)
      for (CUevent e : events_) d().cuEventDestroy(e);
  }
  PhaseRecorder *phaseRecorder() override { return this; }
  void begin(abi::Phase phase) override { open_[size_t(phase)] = record(); }
  void end(abi::Phase phase) override {
    CUevent start = std::exchange(open_[size_t(phase)], nullptr);
    if (!start) return;
    if (CUevent stop = record()) timed_.push_back({phase, start, stop});
  }

  uint64_t allocate(size_t bytes) override {
    CUdeviceptr p = 0;
    check(current(), "selecting the GPU's context");
    check(d().cuMemAlloc(&p, bytes ? bytes : 1), "allocating " + std::to_string(bytes) + " bytes of GPU memory");
    return p;
  }
  void release(uint64_t address) noexcept override {
    if (d().cuCtxSetCurrent(d().context) == CUDA_SUCCESS) d().cuMemFree(address);
  }
  void copyToDevice(uint64_t dst, const void *src, size_t bytes) override {
    check(current(), "selecting the GPU's context");
    check(d().cuMemcpyHtoD(dst, src, bytes), "copying " + std::to_string(bytes) + " bytes to the GPU");
  }
  void copyToHost(void *dst, uint64_t src, size_t bytes) override {
    check(current(), "selecting the GPU's context");
    check(d().cuMemcpyDtoH(dst, src, bytes), "copying " + std::to_string(bytes) + " bytes from the GPU");
  }
  void synchronize() override {
    // Wait first: the kernels queued before a failed launch still use the
    // buffers the caller frees once this throws.
    CUresult r = current();
    if (r == CUDA_SUCCESS) r = d().cuCtxSynchronize();
    std::vector<Timed> timed = std::exchange(timed_, {});
    next_ = 0;
    for (CUevent &e : open_) e = nullptr;
    if (std::string e = takeCudaLaunchError(); !e.empty()) throw Error("cuda: " + e);
    if (r != CUDA_SUCCESS) {
      std::lock_guard<std::mutex> lock(gMutex);
      throw Error("cuda: a kernel failed (the last one launched: " + gLastKernel + "): " + d().describe(r));
    }
    for (const Timed &t : timed) {
      float ms = 0;
      if (d().cuEventElapsedTime(&ms, t.start, t.stop) == CUDA_SUCCESS) addPhaseSeconds(t.phase, ms * 1e-3);
    }
  }

private:
  struct Timed {
    abi::Phase phase;
    CUevent start, stop;
  };
  // The next event of the pool (events are reused after each synchronize).
  CUevent record() {
    if (current() != CUDA_SUCCESS) return nullptr;
    if (next_ == events_.size()) {
      CUevent e = nullptr;
      if (d().cuEventCreate(&e, 0) != CUDA_SUCCESS) return nullptr;  // the phase goes untimed
      events_.push_back(e);
    }
    CUevent e = events_[next_++];
    return d().cuEventRecord(e, nullptr) == CUDA_SUCCESS ? e : nullptr;
  }
  std::vector<CUevent> events_;
  size_t next_ = 0;
  std::vector<Timed> timed_;
  CUevent open_[size_t(abi::Phase::Count)] = {};

  static const Driver &d() { return driver(); }
  static CUresult current() { return d().cuCtxSetCurrent(d().context); }
  static void check(CUresult r, const std::string &what) {
    if (r != CUDA_SUCCESS) throw Error("cuda: " + what + " failed: " + d().describe(r));
  }
};

} // namespace

std::unique_ptr<Device> cudaDevice() {
  if (std::string why = cudaUnavailableReason(); !why.empty())
    throw Error("the cuda target needs an NVIDIA GPU, but there is none here (" + why + ")");
  return std::make_unique<CudaDevice>();
}

} // namespace fhec::rt

extern "C" void fhec_rt_gpu_cuda_launch(const char *ptx, const char *kernel, int64_t gx, int64_t gy, int64_t gz,
                                        int64_t bx, int64_t by, int64_t bz, int64_t sharedBytes, int64_t *slots,
                                        int32_t numSlots) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (!gLaunchError.empty()) return;  // the computation already failed
  const Driver &d = driver();
  auto fail = [&](const std::string &what) { gLaunchError = "kernel " + std::string(kernel) + ": " + what; };
  if (!d.unavailable.empty()) return fail(d.unavailable);
  if (CUresult r = d.cuCtxSetCurrent(d.context); r != CUDA_SUCCESS) return fail("cuCtxSetCurrent: " + d.describe(r));
  CUmodule &module = gModules[ptx];
  if (!module)
    if (CUresult r = d.cuModuleLoadData(&module, ptx); r != CUDA_SUCCESS) {
      module = nullptr;
      return fail("loading the module's PTX failed: " + d.describe(r));
    }
  CUfunction &fn = gFunctions[{module, kernel}];
  if (!fn)
    if (CUresult r = d.cuModuleGetFunction(&fn, module, kernel); r != CUDA_SUCCESS) {
      fn = nullptr;
      return fail("not in the module's PTX: " + d.describe(r));
    }
  gLastKernel = kernel;
  std::vector<void *> params(static_cast<size_t>(numSlots));
  for (int32_t i = 0; i < numSlots; ++i) params[i] = &slots[i];
  if (CUresult r = d.cuLaunchKernel(fn, unsigned(gx), unsigned(gy), unsigned(gz), unsigned(bx), unsigned(by),
                                    unsigned(bz), unsigned(sharedBytes), nullptr, params.data(), nullptr);
      r != CUDA_SUCCESS)
    return fail("launch failed: " + d.describe(r));
}
