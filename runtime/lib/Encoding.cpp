#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace fhec::rt {

namespace {
// Special FFT of HEAAN: evaluates/interpolates at the primitive 2N-th roots
// zeta^(5^j), j < slots, where slots | N/2. ksi holds zeta^k for k < 2N.
struct SpecialFFT {
  size_t M;  // 2N
  // The twiddles of each butterfly level (len = 2, 4, .., slots), stored
  // one level after the other: zeta^(rotGroup[j] mod 4 len * M / (4 len))
  // for j < len / 2, and their inverses' for the inverse transform.
  std::vector<Complex> fwd, inv;

  SpecialFFT(int logN, size_t slots) : M(size_t(2) << logN) {
    std::vector<Complex> ksi(M + 1);
    for (size_t k = 0; k <= M; ++k) {
      double angle = 2.0 * M_PI * double(k) / double(M);
      ksi[k] = Complex(std::cos(angle), std::sin(angle));
    }
    std::vector<size_t> rotGroup(slots);
    size_t five = 1;
    for (size_t j = 0; j < slots; ++j) {
      rotGroup[j] = five;
      five = five * 5 % M;
    }
    for (size_t len = 2; len <= slots; len <<= 1) {
      size_t lenh = len >> 1, lenq = len << 2;
      for (size_t j = 0; j < lenh; ++j) {
        fwd.push_back(ksi[(rotGroup[j] % lenq) * (M / lenq)]);
        inv.push_back(ksi[(lenq - (rotGroup[j] % lenq)) * (M / lenq)]);
      }
    }
  }

  // x y without the C library's inf/nan recovery (__muldc3, a call per
  // product): the same value for finite operands.
  static Complex mul(Complex x, Complex y) {
    return Complex(x.real() * y.real() - x.imag() * y.imag(), x.real() * y.imag() + x.imag() * y.real());
  }

  static void bitReverse(std::vector<Complex> &v) {
    size_t n = v.size();
    for (size_t i = 1, j = 0; i < n; ++i) {
      size_t bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(v[i], v[j]);
    }
  }

  void forward(std::vector<Complex> &v) const {
    size_t n = v.size();
    bitReverse(v);
    const Complex *tw = fwd.data();
    for (size_t len = 2; len <= n; tw += len >> 1, len <<= 1) {
      size_t lenh = len >> 1;
      for (size_t i = 0; i < n; i += len)
        for (size_t j = 0; j < lenh; ++j) {
          Complex u = v[i + j], w = mul(v[i + j + lenh], tw[j]);
          v[i + j] = u + w;
          v[i + j + lenh] = u - w;
        }
    }
  }

  void inverse(std::vector<Complex> &v) const {
    size_t n = v.size();
    // Levels from len = n down: their tables start after those of the smaller ones.
    for (size_t len = n; len >= 2; len >>= 1) {
      size_t lenh = len >> 1;
      const Complex *tw = inv.data() + (lenh - 1);  // sum of the smaller levels' halves
      for (size_t i = 0; i < n; i += len)
        for (size_t j = 0; j < lenh; ++j) {
          Complex u = v[i + j] + v[i + j + lenh];
          Complex w = mul(v[i + j] - v[i + j + lenh], tw[j]);
          v[i + j] = u;
          v[i + j + lenh] = w;
        }
    }
    bitReverse(v);
    for (auto &x : v) x /= double(n);
  }
};

// The tables of (logN, slots), built once per process (2N + 1 sines and
// cosines: milliseconds at N = 2^16, more than the transform itself).
const SpecialFFT &specialFFT(int logN, size_t slots) {
  static std::mutex mu;
  static std::map<std::pair<int, size_t>, std::unique_ptr<SpecialFFT>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto &f = cache[{logN, slots}];
  if (!f) f = std::make_unique<SpecialFFT>(logN, slots);
  return *f;
}

// x 2^e, as std::ldexp (exact: x is an integer below 2^53), by a product
// with 2^e built from its exponent bits where 2^e is a normal double.
double scaled(double x, int e) {
  if (e < -1022 || e > 1023) return std::ldexp(x, e);
  uint64_t bits = uint64_t(e + 1023) << 52;
  double p;
  std::memcpy(&p, &bits, sizeof p);
  return x * p;
}

// x <- -x mod 2^logq over L limbs (two's complement, the bits above logq cleared).
void negateLimbs(uint64_t *x, int L, int logq) {
  uint64_t carry = 1;
  for (int k = 0; k < L; ++k) {
    uint64_t y = ~x[k] + carry;
    carry = carry && y == 0;
    x[k] = y;
  }
  if (int r = logq % 64) x[L - 1] &= (uint64_t(1) << r) - 1;
}

// Coefficient c (L limbs) = v mod 2^logq for a signed integer v = sign * mag
// where mag = |m| 2^shift, m < 2^53 (limbs written directly: no GMP per
// coefficient). v is below 2^(logq - 1) in magnitude (checked by the caller).
void setScaled(uint64_t *c, int L, int logq, bool negative, uint64_t m, long shift) {
  std::fill(c, c + L, 0);
  const long w = shift / 64, b = shift % 64;
  c[w] = m << b;
  if (b && w + 1 < L) c[w + 1] = m >> (64 - b);
  if (negative) negateLimbs(c, L, logq);
  else if (int r = logq % 64) c[L - 1] &= (uint64_t(1) << r) - 1;
}

// Coefficient c (L limbs, mod 2^logq) read centered in [-q/2, q/2) and
// divided by 2^logScale: the magnitude truncated to its top 53 bits, as
// mpz_get_d does.
//
// The magnitude's limbs are read in place (a decoded plaintext is 10 MB at
// N = 2^16): for a negative x, -x mod 2^logq is 0 below x's lowest nonzero
// limb j0, -x[j0] there and ~x[k] above (the bits above logq cleared).
double centeredAsDouble(const uint64_t *c, int L, int logq, int logScale) {
  const bool negative = (c[(logq - 1) / 64] >> ((logq - 1) % 64)) & 1;
  const uint64_t topMask = logq % 64 ? (uint64_t(1) << (logq % 64)) - 1 : ~uint64_t(0);
  // The top nonzero limb h of the magnitude: x's top limb that is not zero
  // (x >= 0), or not all ones below logq above j0 (x < 0; x != 0 then).
  int h = L - 1, j0 = 0;
  if (!negative) {
    if ((c[h] & topMask) == 0)
      for (--h; h >= 0 && c[h] == 0; --h) {
      }
    if (h < 0) return 0.0;
  } else {
    while (c[j0] == 0) ++j0;
    if (h > j0 && (~c[h] & topMask) == 0)
      for (--h; h > j0 && c[h] == ~uint64_t(0); --h) {
      }
  }
  auto mag = [&](int k) -> uint64_t {
    uint64_t v = !negative ? c[k] : k > j0 ? ~c[k] : k == j0 ? uint64_t(0) - c[k] : 0;
    return k == L - 1 ? v & topMask : v;
  };
  const uint64_t high = mag(h);
  const int lz = __builtin_clzll(high);
  const int bits = 64 * h + 64 - lz;
  uint64_t top = high << lz;
  if (lz && h > 0) top |= mag(h - 1) >> (64 - lz);
  double d = bits > 53 ? scaled(double(top >> 11), bits - 53 - logScale)
                       : scaled(double(top >> (64 - bits)), -logScale);
  return negative ? -d : d;
}

void checkSlots(int logN, size_t slots) {
  size_t N = size_t(1) << logN;
  if (slots == 0 || (slots & (slots - 1)) || slots > N / 2)
    throw Error("encoding: slots = " + std::to_string(slots) + " must be a power of two <= N/2 = " +
                std::to_string(N / 2));
}
} // namespace

BigPoly encode(const std::vector<Complex> &values, int logN, int logScale, int logq) {
  checkSlots(logN, values.size());
  if (logScale + 2 >= logq)
    throw Error("encoding: scale 2^" + std::to_string(logScale) + " leaves no room in q = 2^" +
                std::to_string(logq));
  size_t slots = values.size(), N = size_t(1) << logN, gap = (N / 2) / slots;
  std::vector<Complex> u = values;
  specialFFT(logN, slots).inverse(u);
  BigPoly m(logN, logq);
  const int L = m.limbs();
  // round(x * 2^logScale), exact for any scale: x = M * 2^(e - 53) with an
  // integer 53-bit M, so the product is M shifted left, or M * 2^-k rounded
  // (exact in double until it underflows, where it rounds to 0 anyway).
  auto put = [&](size_t idx, double x) {
    if (!std::isfinite(x)) throw Error("encoding: value is not finite");
    int e = 0;
    double M = std::ldexp(std::frexp(x, &e), 53);
    long shift = long(e) - 53 + logScale;
    uint64_t mag = 0;
    if (shift >= 0) {
      if (x != 0 && shift + 53 + 1 >= long(logq))
        throw Error("encoding: scaled value exceeds q/2 = 2^" + std::to_string(logq - 1));
      mag = uint64_t(std::fabs(M));
    } else {
      mag = uint64_t(std::fabs(std::round(std::ldexp(M, int(std::max(shift, -2000L))))));
      shift = 0;
      if (mag && 64 - __builtin_clzll(mag) + 1 >= logq)
        throw Error("encoding: scaled value exceeds q/2 = 2^" + std::to_string(logq - 1));
    }
    setScaled(m.coeff(idx), L, logq, x < 0 && mag != 0, mag, shift);
  };
  for (size_t i = 0; i < slots; ++i) {
    put(i * gap, u[i].real());
    put(i * gap + N / 2, u[i].imag());
  }
  return m;
}

std::vector<Complex> decode(const BigPoly &m, int slots, int logScale) {
  checkSlots(m.logN, size_t(slots));
  size_t N = m.N(), gap = (N / 2) / size_t(slots);
  std::vector<Complex> u(slots);
  const int L = m.limbs();
  auto read = [&](size_t idx) { return centeredAsDouble(m.coeff(idx), L, m.logq, logScale); };
  for (int i = 0; i < slots; ++i) u[i] = Complex(read(i * gap), read(i * gap + N / 2));
  specialFFT(m.logN, size_t(slots)).forward(u);
  return u;
}

} // namespace fhec::rt
