#include "fhec/runtime/Random.h"
#include "fhec/runtime/Error.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <string.h>
#include <openssl/err.h>
#include <openssl/rand.h>

namespace fhec::rt {

SecureRandom::~SecureRandom() { secureWipe(buf_, sizeof(buf_)); }

void SecureRandom::generate(uint64_t *words, size_t count) {
  auto *p = reinterpret_cast<unsigned char *>(words);
  size_t bytes = count * sizeof(uint64_t);
  // RAND_priv_bytes takes an int length: requests in chunks below 2^30 bytes.
  while (bytes) {
    int n = int(std::min<size_t>(bytes, size_t(1) << 30));
    if (RAND_priv_bytes(p, n) != 1) {
      char why[256] = "unknown reason";
      ERR_error_string_n(ERR_get_error(), why, sizeof(why));
      throw Error(std::string("the CSPRNG (OpenSSL RAND_priv_bytes) failed: ") + why);
    }
    p += n;
    bytes -= size_t(n);
  }
}

uint64_t SecureRandom::next64() {
  if (pos_ == kBufferWords) {
    generate(buf_, kBufferWords);
    pos_ = 0;
  }
  // A word handed out may become secret material: do not keep a copy.
  uint64_t x = buf_[pos_];
  buf_[pos_++] = 0;
  return x;
}

void SecureRandom::fill(uint64_t *words, size_t count) { generate(words, count); }

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
// All ones if a < b (unsigned), else 0, without a branch: the borrow of a - b
// computed bitwise (Hacker's Delight, 2nd ed., section 2-12), so that the
// compiler has no comparison to turn into a jump.
inline uint64_t ltMask(uint64_t a, uint64_t b) {
  return uint64_t(0) - (((~a & b) | ((~a | b) & (a - b))) >> 63);
}

// (a, b) <- (min, max) by masks.
inline void minMax(uint64_t &a, uint64_t &b) {
  uint64_t d = (a ^ b) & ltMask(b, a);
  a ^= d;
  b ^= d;
}

// Ascending bitonic sort (Batcher) of a power-of-two number of words: a fixed
// sequence of compare-exchanges that depends only on the length.
void sortingNetwork(std::vector<uint64_t> &x) {
  const size_t n = x.size();
  for (size_t k = 2; k <= n; k <<= 1)
    for (size_t j = k >> 1; j > 0; j >>= 1)
      for (size_t i = 0; i < n; ++i) {
        size_t l = i ^ j;
        if (l <= i) continue;
        if ((i & k) == 0) minMax(x[i], x[l]);
        else minMax(x[l], x[i]);
      }
}

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
  if (!(sigma > 0) || !(sigma <= 1e6)) throw Error("gaussian: sigma " + std::to_string(sigma) + " is out of range");
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

// Constant-time CDT sampling: |x| = #{k < tail : u >= cdf[k]} over the whole
// table (no early exit, branch-free compares), and the sign is applied with a
// mask from a second word drawn every time, also for x = 0, so that neither
// the time nor the amount of randomness consumed depends on the sample (the
// full-table scan of FrodoKEM's Frodo.Sample, with 64-bit instead of 15-bit
// entries).
int64_t SecureRandom::gaussian(double sigma) {
  const GaussianTable &t = gaussianTable(sigma);
  const uint64_t u = next64(), signBit = next64() & 1;
  uint64_t k = 0;
  for (int i = 0; i < t.tail; ++i) k += 1 + ltMask(u, t.cdf[i]);  // +1 - [u < cdf[i]]
  const int64_t m = -int64_t(signBit);
  return (int64_t(k) ^ m) - m;  // k or -k
}

// k[i] = #{c < tail : u[i] >= cdf[c]} for i < n: every table entry for every
// sample, vector compares (clones for AVX-512 and AVX2, picked at load).
__attribute__((target_clones("avx512f", "avx2", "default"))) static void
cdtScan(const uint64_t *u, size_t n, const uint64_t *cdf, int tail, uint64_t *k) {
  for (size_t i = 0; i < n; ++i) k[i] = 0;
  for (int c = 0; c < tail; ++c) {
    const uint64_t t = cdf[c];
    for (size_t i = 0; i < n; ++i) k[i] += uint64_t(u[i] >= t);
  }
}

void SecureRandom::gaussian(double sigma, int64_t *out, size_t n) {
  const GaussianTable &t = gaussianTable(sigma);
  constexpr size_t kBatch = 1024;
  uint64_t w[2 * kBatch], u[kBatch], k[kBatch];
  for (size_t base = 0; base < n; base += kBatch) {
    const size_t b = std::min(kBatch, n - base);
    fill(w, 2 * b);  // per sample: u, then the sign's word
    for (size_t i = 0; i < b; ++i) u[i] = w[2 * i];
    cdtScan(u, b, t.cdf.data(), t.tail, k);
    for (size_t i = 0; i < b; ++i) {
      const int64_t m = -int64_t(w[2 * i + 1] & 1);
      out[base + i] = (int64_t(k[i]) ^ m) - m;  // k or -k
    }
  }
  secureWipe(w, sizeof(w));
  secureWipe(u, sizeof(u));
  secureWipe(k, sizeof(k));
}

// HWT(h) as NTRU Prime's Short_fromlist (Bernstein et al., "NTRU Prime",
// round-3 specification): word i carries its value in its 2 low bits (0 -> -1,
// 2 -> +1 for the first h words, 1 -> 0 for the others) under 62 random key
// bits; sorting the words by a data-independent network applies a uniformly
// random permutation (up to key collisions, probability < n^2 / 2^63). The
// secret positions never steer a branch or an index.
std::vector<int8_t> SecureRandom::hammingWeight(size_t n, int h) {
  if (h < 0 || size_t(h) > n) throw Error("hammingWeight: h out of range");
  size_t padded = 1;
  while (padded < n) padded <<= 1;
  std::vector<uint64_t> w(padded, ~uint64_t(0));  // padding sorts after every real word
  fill(w.data(), n);
  for (size_t i = 0; i < n; ++i) w[i] = i < size_t(h) ? w[i] & ~uint64_t(1) : (w[i] & ~uint64_t(3)) | 1;
  sortingNetwork(w);
  std::vector<int8_t> s(n);
  for (size_t i = 0; i < n; ++i) s[i] = int8_t(int(w[i] & 3) - 1);
  secureWipe(w);
  return s;
}

std::vector<int8_t> SecureRandom::uniformTernary(size_t n) {
  std::vector<int8_t> s(n);
  constexpr size_t kBatch = 1024;
  uint64_t w[kBatch];
  for (size_t base = 0; base < n; base += kBatch) {
    const size_t b = std::min(kBatch, n - base);
    fill(w, b);
    // floor(3 u / 2^64) is 0, 1 or 2, each for a third of the u (up to one u in 2^64).
    for (size_t i = 0; i < b; ++i) s[base + i] = int8_t(int((unsigned __int128)w[i] * 3 >> 64) - 1);
  }
  secureWipe(w, sizeof(w));
  return s;
}

std::vector<int8_t> SecureRandom::zeroOne(size_t n, double rho) {
  if (!(rho >= 0 && rho <= 1)) throw Error("zeroOne: rho " + std::to_string(rho) + " is not in [0, 1]");
  std::vector<int8_t> v(n, 0);
  const uint64_t threshold = uint64_t(rho * 9007199254740992.0);  // rho * 2^53
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = next64();
    // nonzero with probability rho (53 bits), sign from bit 0, both by masks.
    int64_t sign = int64_t(2 * (x & 1)) - 1;
    v[i] = int8_t(sign & int64_t(ltMask(x >> 11, threshold)));
  }
  return v;
}

} // namespace fhec::rt
