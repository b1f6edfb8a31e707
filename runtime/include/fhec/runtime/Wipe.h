// Wiping secret material (keys, noise, the digits of a secret product)
// before its memory is released or reused.
#pragma once
#include <cstddef>
#include <string.h>
#include <vector>

namespace fhec::rt {

/// Overwrites n bytes at p with zeros in a way the compiler may not elide
/// (explicit_bzero), for secret material about to be released.
inline void secureWipe(void *p, size_t n) {
  if (p && n) explicit_bzero(p, n);
}

/// Wipes every element of v, including spare capacity beyond size(), and
/// leaves v empty (its allocation is kept, so nothing unwiped is freed).
template <typename T, typename A> void secureWipe(std::vector<T, A> &v) {
  v.resize(v.capacity());
  secureWipe(v.data(), v.size() * sizeof(T));
  v.clear();
}

} // namespace fhec::rt
