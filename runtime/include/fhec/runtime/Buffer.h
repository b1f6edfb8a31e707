// The runtime's host memory for kernels: word buffers aligned for AVX-512
// loads, on 2 MiB pages when large.
#pragma once
#include <cstddef>
#include <cstdint>

namespace fhec::rt {

/// A 64-byte aligned word buffer (kernels' inputs, outputs and tables).
class Buffer {
public:
  Buffer() = default;
  explicit Buffer(size_t words);
  Buffer(Buffer &&o) noexcept;
  Buffer &operator=(Buffer &&o) noexcept;
  Buffer(const Buffer &) = delete;
  ~Buffer();
  uint64_t *data() { return data_; }
  const uint64_t *data() const { return data_; }
  size_t size() const { return size_; }

private:
  uint64_t *data_ = nullptr;
  size_t size_ = 0;
};

} // namespace fhec::rt
