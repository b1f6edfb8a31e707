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
#include <utility>
#include <cstring>
#include <mutex>
#include <tuple>
#include <vector>

namespace fhec::rt {

namespace {
std::atomic<uint64_t> gToDevice{0}, gToHost{0};
} // namespace

Transfers processTransfers() { return {gToDevice.load(), gToHost.load()}; }

void Device::count(Transfers t) {
  toDevice_ += t.toDevice, toHost_ += t.toHost;
  gToDevice += t.toDevice, gToHost += t.toHost;
}

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
  KernelPlace place() const override { return KernelPlace::Emulated; }
  // Emulated launches return when their grid is done: a copy to the device
  // is done at once, and one to the host, like a GPU's, at synchronize().
  void write(uint64_t dst, const void *src, size_t bytes) override {
    std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  }
  void read(void *dst, uint64_t src, size_t bytes) override { reads_.emplace_back(dst, src, bytes); }
  void synchronize() override {
    for (auto [dst, src, bytes] : std::exchange(reads_, {})) std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
  }

private:
  std::vector<std::tuple<void *, uint64_t, size_t>> reads_;
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

std::shared_ptr<Device> sharedDevice(KernelPlace place) {
  static std::mutex mutex;
  // Never destroyed: ciphertexts (a Python program's) may outlive static destruction.
  static auto *devices = new std::shared_ptr<Device>[3];
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<Device> &d = devices[size_t(place)];
  if (!d && place != KernelPlace::Host) d = deviceFor(place);
  return d;
}

} // namespace fhec::rt
