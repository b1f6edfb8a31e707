#include "fhec/runtime/Random.h"
#include "fhec/runtime/Error.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <sys/random.h>

namespace fhec::rt {

static void osRandom(void *dst, size_t bytes) {
  auto *p = static_cast<unsigned char *>(dst);
  while (bytes) {
    ssize_t got = getrandom(p, bytes, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("getrandom failed: ") + std::strerror(errno));
    }
    p += got;
    bytes -= size_t(got);
  }
}

uint64_t SecureRandom::next64() {
  if (pos_ == 64) {
    osRandom(buf_, sizeof(buf_));
    pos_ = 0;
  }
  return buf_[pos_++];
}

void SecureRandom::fill(uint64_t *words, size_t count) { osRandom(words, count * sizeof(uint64_t)); }

uint64_t SecureRandom::below(uint64_t bound) {
  if (bound == 0) throw Error("SecureRandom::below: empty range");
  uint64_t limit = ~uint64_t(0) - (~uint64_t(0) % bound);  // multiple of bound
  for (;;) {
    uint64_t x = next64();
    if (x < limit) return x % bound;
  }
}

double SecureRandom::uniformReal() { return double(next64() >> 11) * 0x1.0p-53; }

namespace {
// Cumulative table of the discrete Gaussian on [0, tail]: cdf[k] = 2^64 * P(|X| <= k)
// as a saturating 64-bit threshold, with P(X = 0) counted once.
struct GaussianTable {
  int tail;
  std::vector<uint64_t> cdf;
};
} // namespace

static const GaussianTable &gaussianTable(double sigma) {
  static std::mutex mu;
  static std::map<double, GaussianTable> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(sigma);
  if (it != cache.end()) return it->second;
  GaussianTable t;
  t.tail = int(std::ceil(12 * sigma));
  std::vector<long double> w(t.tail + 1);
  long double total = 0;
  for (int k = 0; k <= t.tail; ++k) {
    w[k] = std::exp(-(long double)k * k / (2 * (long double)sigma * sigma)) * (k == 0 ? 1 : 2);
    total += w[k];
  }
  long double acc = 0;
  for (int k = 0; k <= t.tail; ++k) {
    acc += w[k] / total;
    long double scaled = acc * 18446744073709551616.0L;
    t.cdf.push_back(k == t.tail || scaled >= 18446744073709551615.0L ? ~uint64_t(0) : uint64_t(scaled));
  }
  return cache.emplace(sigma, std::move(t)).first->second;
}

int64_t SecureRandom::gaussian(double sigma) {
  const GaussianTable &t = gaussianTable(sigma);
  uint64_t u = next64();
  int k = 0;
  while (k < t.tail && u >= t.cdf[k]) ++k;
  if (k == 0) return 0;
  return (next64() & 1) ? k : -k;
}

std::vector<int8_t> SecureRandom::hammingWeight(size_t n, int h) {
  if (h < 0 || size_t(h) > n) throw Error("hammingWeight: h out of range");
  std::vector<int8_t> s(n, 0);
  for (int placed = 0; placed < h;) {
    size_t i = below(n);
    if (s[i] != 0) continue;
    s[i] = (next64() & 1) ? 1 : -1;
    ++placed;
  }
  return s;
}

std::vector<int8_t> SecureRandom::zeroOne(size_t n, double rho) {
  std::vector<int8_t> v(n, 0);
  const uint64_t threshold = uint64_t(rho * 9007199254740992.0);  // rho * 2^53
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = next64();
    if ((x >> 11) < threshold) v[i] = (x & 1) ? 1 : -1;
  }
  return v;
}

} // namespace fhec::rt
