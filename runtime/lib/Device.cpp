// The devices of the GPU targets: the CUDA one is in CudaDriver.cpp; here is
// cuda-emu's stand-in, host memory that the executor stages to and from as
// it would a GPU's. Fresh allocations are poisoned, as device memory is
// undefined: a kernel that leaves part of an output unwritten shows up as a
// wrong result in the tests, not as a zero that happens to be right. Its
// allocations are noted for the GPU trace, which checks that kernels read
// and write nothing else (the host's memory is out of a GPU's reach).
#include "fhec/runtime/Device.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/GpuTrace.h"

#include <cstdlib>
#include <cstring>

namespace fhec::rt {

namespace {

class StagingHostDevice final : public Device {
public:
  uint64_t allocate(size_t bytes) override {
    size_t size = (bytes + 63) / 64 * 64;
    void *p = std::aligned_alloc(64, size ? size : 64);
    if (!p) throw Error("out of memory allocating " + std::to_string(bytes) + " bytes of cuda-emu device memory");
    std::memset(p, 0xA5, size ? size : 64);
    noteDeviceMemory(reinterpret_cast<uint64_t>(p), bytes);
    return reinterpret_cast<uint64_t>(p);
  }
  void release(uint64_t address) noexcept override {
    forgetDeviceMemory(address);
    std::free(reinterpret_cast<void *>(address));
  }
  void write(uint64_t dst, const void *src, size_t bytes) override {
    std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  }
  void read(void *dst, uint64_t src, size_t bytes) override {
    std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
  }
  void synchronize() override {}  // emulated launches return when their grid is done
};

} // namespace

std::unique_ptr<Device> deviceFor(KernelPlace place) {
  switch (place) {
  case KernelPlace::Cuda: return cudaDevice();
  case KernelPlace::Emulated: return std::make_unique<StagingHostDevice>();
  case KernelPlace::Host: return nullptr;
  }
  return nullptr;
}

} // namespace fhec::rt
