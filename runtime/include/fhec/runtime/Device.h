// Device memory for the GPU targets: a cuda module's kernels read and write a
// GPU's memory, so the executor keeps its tables, keys and workspace there
// (copied once) and stages each call's inputs and outputs. cuda-emu runs the
// same staging on host memory standing in for the GPU's, so that it is
// exercised, bit-exactly, on machines without one.
#pragma once

#include "fhec/runtime/KernelPlace.h"
#include "fhec/runtime/Profile.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace fhec::rt {

/// Bytes copied between the host and a device.
struct Transfers {
  uint64_t toDevice = 0, toHost = 0;
  Transfers operator-(const Transfers &o) const { return {toDevice - o.toDevice, toHost - o.toHost}; }
  Transfers operator+(const Transfers &o) const { return {toDevice + o.toDevice, toHost + o.toHost}; }
};

/// Every byte copied between the host and any device of this process so far.
Transfers processTransfers();

/// Where a module's buffers live when it is not the host's own memory, and
/// the queue (a CUDA stream) its kernels and copies run on. The devices of
/// one place share one address space (every CUDA device of a process is GPU
/// 0's primary context; every cuda-emu device, host memory), so that a
/// buffer of one is an argument of another's kernels. Addresses are the
/// device's, as the module's code receives them. One thread at a time.
class Device {
public:
  virtual ~Device() = default;
  virtual KernelPlace place() const = 0;
  /// `bytes` of device memory; Error when the device is out of memory.
  virtual uint64_t allocate(size_t bytes) = 0;
  virtual void release(uint64_t address) noexcept = 0;
  /// Copies `bytes` of host memory to the device, in order before the
  /// kernels launched next; `src` may be reused when it returns (a GPU
  /// stages it through pinned memory and copies asynchronously). Counted in
  /// transferred(); Error on failure.
  void copyToDevice(uint64_t dst, const void *src, size_t bytes) {
    write(dst, src, bytes);
    count({bytes, 0});
  }
  /// Copies `bytes` of device memory to `dst` after the kernels launched so
  /// far (the running call's too): `dst` holds them when synchronize()
  /// returns. Counted in transferred().
  void copyToHost(void *dst, uint64_t src, size_t bytes) {
    read(dst, src, bytes);
    count({0, bytes});
  }
  /// Every byte copied to and from this device so far.
  Transfers transferred() const { return {toDevice_.load(), toHost_.load()}; }
  /// The launches until synchronize() are a call of `function` (a key the
  /// caller keeps): a device may issue them at synchronize(), and replay a
  /// function's calls that launch the same kernels as one graph.
  virtual void beginCall(const void *function) { (void)function; }
  /// Issues the running call's kernels and the copies to the host, and waits
  /// for all (adding the phase times a phaseRecorder took); Error naming the
  /// kernel whose launch or execution failed.
  virtual void synchronize() = 0;
  /// What times the phases of the kernels launched on this device (null: the host clock).
  virtual PhaseRecorder *phaseRecorder() { return nullptr; }

protected:
  virtual void write(uint64_t dst, const void *src, size_t bytes) = 0;
  virtual void read(void *dst, uint64_t src, size_t bytes) = 0;

private:
  void count(Transfers t);
  std::atomic<uint64_t> toDevice_{0}, toHost_{0};
};

/// A device of its own for the kernels of `place` (an executor's: its own
/// queue): null for the host (CPU targets); emulated kernels read host
/// memory too, but through a staging device of host memory; Error when they
/// need a GPU that is not there.
std::unique_ptr<Device> deviceFor(KernelPlace place);

/// The device of `place` that the process's ciphertexts on it live in
/// (DeviceCiphertext): made at the first use, it outlives the executors;
/// null for the host. Error as deviceFor.
std::shared_ptr<Device> sharedDevice(KernelPlace place);

/// A CUDA device (a stream) on GPU 0 (CudaDriver.cpp); Error with the reason when there is none.
std::unique_ptr<Device> cudaDevice();

/// One allocation of a Device, released with this object.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(Device &device, size_t bytes) : device_(&device), address_(device.allocate(bytes)), bytes_(bytes) {}
  DeviceBuffer(DeviceBuffer &&o) noexcept { *this = std::move(o); }
  DeviceBuffer &operator=(DeviceBuffer &&o) noexcept {
    std::swap(device_, o.device_);
    std::swap(address_, o.address_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  ~DeviceBuffer() {
    if (device_ && address_) device_->release(address_);
  }
  uint64_t address() const { return address_; }
  size_t bytes() const { return bytes_; }

private:
  Device *device_ = nullptr;
  uint64_t address_ = 0;
  size_t bytes_ = 0;
};

} // namespace fhec::rt
