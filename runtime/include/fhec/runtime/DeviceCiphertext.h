// A ciphertext in the memory of a GPU target's device: what the functions of
// a cuda (or cuda-emu) module take and return, so that a program of several
// calls copies nothing between the host and the device (GPU libraries keep
// ciphertexts on the device the same way). It is copied to the host only
// when asked: to decrypt or serialize it, or to run it on another target.
#pragma once

#include "fhec/runtime/Ciphertext.h"
#include "fhec/runtime/Device.h"

#include <memory>
#include <utility>

namespace fhec::rt {

class DeviceCiphertext {
public:
  DeviceCiphertext() = default;
  /// Moves swap, so that a replaced value's buffers leave with the device
  /// that frees them (the members' default order would drop the device first).
  DeviceCiphertext(DeviceCiphertext &&o) noexcept { swap(o); }
  DeviceCiphertext &operator=(DeviceCiphertext &&o) noexcept {
    swap(o);
    return *this;
  }
  /// A copy of `c` on the process's device of `place` (sharedDevice),
  /// counted as c's bytes to the device. Error for the host, or when the
  /// device is out of memory.
  static DeviceCiphertext upload(const Ciphertext &c, KernelPlace place);
  /// Room for a ciphertext of this type on the device of `place`, its words
  /// undefined (what a call writes its outputs into).
  static DeviceCiphertext allocate(KernelPlace place, int logN, int logq, int logp, int slots, KeySetId keySet);
  /// Its copy on the host, counted as its bytes to the host. Error if empty.
  Ciphertext download() const;

  bool empty() const { return !device_; }
  KernelPlace place() const { return device_ ? device_->place() : KernelPlace::Host; }
  /// Device addresses of ax and bx: (N, limbs(logq)) 64-bit words each.
  uint64_t ax() const { return ax_.address(); }
  uint64_t bx() const { return bx_.address(); }
  /// Bytes of ax and bx together (what upload and download copy).
  size_t bytes() const { return ax_.bytes() + bx_.bytes(); }
  int logN() const { return logN_; }
  int logq() const { return logq_; }
  int logp() const { return logp_; }
  int slots() const { return slots_; }
  KeySetId keySet;  ///< as Ciphertext::keySet

private:
  void swap(DeviceCiphertext &o) noexcept {
    std::swap(device_, o.device_);
    std::swap(ax_, o.ax_);
    std::swap(bx_, o.bx_);
    std::swap(logN_, o.logN_), std::swap(logq_, o.logq_), std::swap(logp_, o.logp_), std::swap(slots_, o.slots_);
    std::swap(keySet, o.keySet);
  }
  std::shared_ptr<Device> device_;  // declared first: outlives the buffers
  DeviceBuffer ax_, bx_;
  int logN_ = 0, logq_ = 0, logp_ = 0, slots_ = 0;
};

} // namespace fhec::rt
