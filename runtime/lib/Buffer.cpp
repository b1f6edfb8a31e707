#include "fhec/runtime/Buffer.h"
#include "fhec/runtime/Error.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <utility>

namespace fhec::rt {

Buffer::Buffer(size_t words) : size_(words) {
  // Large buffers (workspace, tables, keys) on 2 MiB pages where the kernel
  // allows it: CRT/iCRT read dozens of prime rows N words apart at once, one
  // TLB entry per row and per 4 KiB otherwise.
  constexpr size_t kHugePage = size_t(2) << 20;
  size_t bytes = ((words * sizeof(uint64_t) + 63) / 64) * 64;
  size_t align = bytes >= kHugePage ? kHugePage : 64;
  bytes = (bytes + align - 1) / align * align;
  data_ = static_cast<uint64_t *>(std::aligned_alloc(align, bytes ? bytes : 64));
  if (!data_) throw Error("out of memory allocating " + std::to_string(bytes) + " bytes");
#ifdef MADV_HUGEPAGE
  if (align == kHugePage) madvise(data_, bytes, MADV_HUGEPAGE);  // advisory: failure only costs speed
#endif
  std::memset(data_, 0, bytes);
}
Buffer::Buffer(Buffer &&o) noexcept : data_(o.data_), size_(o.size_) { o.data_ = nullptr; o.size_ = 0; }
Buffer &Buffer::operator=(Buffer &&o) noexcept {
  std::swap(data_, o.data_);
  std::swap(size_, o.size_);
  return *this;
}
Buffer::~Buffer() { std::free(data_); }

} // namespace fhec::rt
