// Polynomials in Z_q[X]/(X^N + 1) with q = 2^logq and BigInt coefficients in
// [0, q), stored as (N, limbs) coefficient-major little-endian 64-bit words.
// This is HEAAN's ZZ* polynomial and the memory form of !fhe.poly.
#pragma once
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include <gmp.h>

namespace fhec::rt {

inline int limbsFor(int bits) { return (bits + 63) / 64; }
/// 64-bit words of a polynomial's 2^logN coefficients below 2^logq (N limbs(logq)).
inline size_t polyWords(int logN, int logq) { return (size_t(1) << logN) * size_t(limbsFor(logq)); }

/// True when each of the 2^logN coefficients in `words` ((N, limbs(logq))
/// coefficient-major) is < 2^logq: the check a polynomial read from outside
/// (a file, a transport buffer) must pass.
bool wordsReduced(const uint64_t *words, int logN, int logq);
/// Copies such words from `src` to `dst` and checks them as wordsReduced
/// does, in one pass over memory (each block is checked while in cache).
bool copyReducedWords(uint64_t *dst, const uint64_t *src, int logN, int logq);

/// std::allocator, except that a value-initialized element is left
/// uninitialized: a vector of n words then costs no pass over memory (a
/// kernel's 10 MB result, written whole, is not zeroed first).
template <typename T> struct UninitializedAllocator : std::allocator<T> {
  template <typename U> struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <typename U> UninitializedAllocator(const UninitializedAllocator<U> &) noexcept {}
  template <typename U> void construct(U *p) noexcept { ::new (static_cast<void *>(p)) U; }
  template <typename U, typename... Args> void construct(U *p, Args &&...args) {
    ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
  }
};

struct BigPoly {
  int logN = 0;
  int logq = 0;
  std::vector<uint64_t, UninitializedAllocator<uint64_t>> words;  ///< (N, limbs)

  BigPoly() = default;
  /// The zero polynomial.
  BigPoly(int logN, int logq);
  /// A polynomial of that shape whose words are not initialized: only for a
  /// kernel's result, which writes every word.
  static BigPoly uninitialized(int logN, int logq);
  size_t N() const { return size_t(1) << logN; }
  int limbs() const { return limbsFor(logq); }
  uint64_t *coeff(size_t i) { return words.data() + i * limbs(); }
  const uint64_t *coeff(size_t i) const { return words.data() + i * limbs(); }
  bool operator==(const BigPoly &o) const {
    return logN == o.logN && logq == o.logq && words == o.words;
  }

  /// Clears the bits at and above logq in every coefficient (reduction mod q).
  void maskTop();
  /// Coefficient i as an integer in [0, q) or, if centered, in [-q/2, q/2).
  void get(size_t i, mpz_t out, bool centered = false) const;
  /// Sets coefficient i to v mod q (v may be negative).
  void set(size_t i, const mpz_t v);
  /// True when every coefficient is < q.
  bool isReduced() const;
};

// Coefficient-wise operations mod q (HE Add/Sub/Rescale of HEAAN's Ring).
BigPoly add(const BigPoly &a, const BigPoly &b);
BigPoly sub(const BigPoly &a, const BigPoly &b);
BigPoly negate(const BigPoly &a);
/// a X^k mod (X^N + 1, q) for 0 <= k < 2N (HEAAN's multByMonomial):
/// coefficient i moves to i + k mod 2N, negated when that index is >= N.
/// Throws Error for k outside [0, 2N).
BigPoly mulMonomial(const BigPoly &a, int64_t k);
/// floor(a / 2^bits) with logq decreased by bits (HEAAN's rightShift), or
/// with `round` round(a / 2^bits) = floor((a + 2^(bits-1)) / 2^bits).
/// Throws Error unless 0 <= bits < logq.
BigPoly shiftRight(const BigPoly &a, int bits, bool round = false);
/// a mod 2^newLogq for newLogq <= logq (modulus switching down).
BigPoly reduce(const BigPoly &a, int newLogq);
/// a read centered, in [-2^(logq-1), 2^(logq-1)), mod 2^newLogq for
/// newLogq >= logq: the same centered values at a larger modulus.
BigPoly signExtend(const BigPoly &a, int newLogq);
/// a * c mod q for an integer c (negative allowed).
BigPoly mulScalar(const BigPoly &a, const mpz_t c);
/// a + c mod q where c is added to the constant coefficient only.
BigPoly addConstantTerm(const BigPoly &a, const mpz_t c);
/// a += x_i 2^shift to every coefficient i, mod q, for small signed x (one
/// per coefficient, shift < logq): full-width additions of the
/// two's-complement operand, so that neither the sign of x_i nor a carry
/// chain's length steers a branch (x may be secret: an error, a key).
void addSmallShifted(BigPoly &a, const std::vector<int64_t> &x, int shift);

} // namespace fhec::rt
