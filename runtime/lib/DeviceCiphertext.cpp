#include "fhec/runtime/DeviceCiphertext.h"
#include "fhec/runtime/Error.h"

#include <mutex>

namespace fhec::rt {

namespace {
// The shared devices copy for one thread at a time (their queues are not
// the executors', which run calls concurrently).
std::mutex gCopies;
} // namespace

DeviceCiphertext DeviceCiphertext::allocate(KernelPlace place, int logN, int logq, int logp, int slots,
                                            KeySetId keySet) {
  DeviceCiphertext d;
  d.device_ = sharedDevice(place);
  if (!d.device_) throw Error("a ciphertext on the device needs a GPU target (cuda or cuda-emu), not the host");
  size_t bytes = polyWords(logN, logq) * sizeof(uint64_t);
  d.ax_ = DeviceBuffer(*d.device_, bytes);
  d.bx_ = DeviceBuffer(*d.device_, bytes);
  d.logN_ = logN, d.logq_ = logq, d.logp_ = logp, d.slots_ = slots;
  d.keySet = keySet;
  return d;
}

DeviceCiphertext DeviceCiphertext::upload(const Ciphertext &c, KernelPlace place) {
  if (c.ax.logq != c.bx.logq || c.ax.logN != c.bx.logN || c.ax.words.size() != c.bx.words.size())
    throw Error("cannot copy a ciphertext to the device: its ax and bx have different shapes");
  DeviceCiphertext d = allocate(place, c.logN(), c.logq(), c.logp, c.slots, c.keySet);
  if (d.ax_.bytes() != c.ax.words.size() * sizeof(uint64_t))
    throw Error("cannot copy a ciphertext to the device: its polynomials do not hold N * limbs(logq) words");
  std::lock_guard<std::mutex> lock(gCopies);
  d.device_->copyToDevice(d.ax(), c.ax.words.data(), d.ax_.bytes());
  d.device_->copyToDevice(d.bx(), c.bx.words.data(), d.bx_.bytes());
  d.device_->synchronize();
  return d;
}

Ciphertext DeviceCiphertext::download() const {
  if (empty()) throw Error("the ciphertext on the device is empty (moved from, or never made)");
  Ciphertext c(BigPoly::uninitialized(logN_, logq_), BigPoly::uninitialized(logN_, logq_), logp_, slots_, keySet);
  std::lock_guard<std::mutex> lock(gCopies);
  device_->copyToHost(c.ax.words.data(), ax(), ax_.bytes());
  device_->copyToHost(c.bx.words.data(), bx(), bx_.bytes());
  device_->synchronize();
  return c;
}

} // namespace fhec::rt
