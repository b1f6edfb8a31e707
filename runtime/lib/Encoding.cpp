#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace fhec::rt {

namespace {
// Special FFT of HEAAN: evaluates/interpolates at the primitive 2N-th roots
// zeta^(5^j), j < slots, where slots | N/2. ksi holds zeta^k for k < 2N.
struct SpecialFFT {
  size_t M;  // 2N
  std::vector<Complex> ksi;
  std::vector<size_t> rotGroup;

  SpecialFFT(int logN, size_t slots) : M(size_t(2) << logN), ksi(M + 1), rotGroup(slots) {
    for (size_t k = 0; k <= M; ++k) {
      double angle = 2.0 * M_PI * double(k) / double(M);
      ksi[k] = Complex(std::cos(angle), std::sin(angle));
    }
    size_t five = 1;
    for (size_t j = 0; j < slots; ++j) {
      rotGroup[j] = five;
      five = five * 5 % M;
    }
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
    for (size_t len = 2; len <= n; len <<= 1) {
      size_t lenh = len >> 1, lenq = len << 2;
      for (size_t i = 0; i < n; i += len)
        for (size_t j = 0; j < lenh; ++j) {
          size_t idx = (rotGroup[j] % lenq) * (M / lenq);
          Complex u = v[i + j], w = v[i + j + lenh] * ksi[idx];
          v[i + j] = u + w;
          v[i + j + lenh] = u - w;
        }
    }
  }

  void inverse(std::vector<Complex> &v) const {
    size_t n = v.size();
    for (size_t len = n; len >= 2; len >>= 1) {
      size_t lenh = len >> 1, lenq = len << 2;
      for (size_t i = 0; i < n; i += len)
        for (size_t j = 0; j < lenh; ++j) {
          size_t idx = (lenq - (rotGroup[j] % lenq)) * (M / lenq);
          Complex u = v[i + j] + v[i + j + lenh];
          Complex w = (v[i + j] - v[i + j + lenh]) * ksi[idx];
          v[i + j] = u;
          v[i + j + lenh] = w;
        }
    }
    bitReverse(v);
    for (auto &x : v) x /= double(n);
  }
};

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
  SpecialFFT(logN, slots).inverse(u);
  BigPoly m(logN, logq);
  mpz_t v;
  mpz_init(v);
  // round(x * 2^logScale), exact for any scale: x = M * 2^(e - 53) with an
  // integer 53-bit M, so the product is M shifted left, or M * 2^-k rounded
  // (exact in double until it underflows, where it rounds to 0 anyway).
  auto put = [&](size_t idx, double x) {
    if (!std::isfinite(x)) throw Error("encoding: value is not finite");
    int e = 0;
    double M = std::ldexp(std::frexp(x, &e), 53);
    long shift = long(e) - 53 + logScale;
    if (shift >= 0) {
      if (x != 0 && shift + 53 + 1 >= long(logq))
        throw Error("encoding: scaled value exceeds q/2 = 2^" + std::to_string(logq - 1));
      mpz_set_d(v, M);
      mpz_mul_2exp(v, v, mp_bitcnt_t(shift));
    } else {
      mpz_set_d(v, std::round(std::ldexp(M, int(std::max(shift, -2000L)))));
    }
    if (mpz_sizeinbase(v, 2) + 1 >= size_t(logq))
      throw Error("encoding: scaled value exceeds q/2 = 2^" + std::to_string(logq - 1));
    m.set(idx, v);
  };
  for (size_t i = 0; i < slots; ++i) {
    put(i * gap, u[i].real());
    put(i * gap + N / 2, u[i].imag());
  }
  mpz_clear(v);
  return m;
}

std::vector<Complex> decode(const BigPoly &m, int slots, int logScale) {
  checkSlots(m.logN, size_t(slots));
  size_t N = m.N(), gap = (N / 2) / size_t(slots);
  std::vector<Complex> u(slots);
  mpz_t v;
  mpz_init(v);
  auto read = [&](size_t idx) {
    m.get(idx, v, /*centered=*/true);
    long exp = 0;
    double d = mpz_get_d_2exp(&exp, v);  // v = d * 2^exp, 0.5 <= |d| < 1
    return std::ldexp(d, int(exp) - logScale);
  };
  for (int i = 0; i < slots; ++i) u[i] = Complex(read(i * gap), read(i * gap + N / 2));
  mpz_clear(v);
  SpecialFFT(m.logN, size_t(slots)).forward(u);
  return u;
}

} // namespace fhec::rt
