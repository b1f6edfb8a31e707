// Bootstrapping's CoeffToSlot / SlotToCoeff matrices (dialect/CKKS/Transforms/Bootstrap.h):
// the factored special FFT against the dense one; and their constants.
#include "dialect/CKKS/Transforms/Bootstrap.h"
#include "dialect/CKKS/Transforms/HighPrecision.h"

#include <cmath>
#include <gtest/gtest.h>

namespace {

using fhec::ComplexMatrix;
using fhec::DiagonalMatrix;
using Complex = std::complex<double>;

ComplexMatrix dense(const DiagonalMatrix &a, unsigned n) {
  ComplexMatrix m(n, std::vector<Complex>(n));
  for (const auto &[d, diag] : a)
    for (unsigned j = 0; j < n; ++j) m[j][(j + size_t(d)) % n] += diag[j];
  return m;
}

unsigned bitReverse(unsigned j, unsigned n) {
  unsigned r = 0;
  for (unsigned b = 1; b < n; b <<= 1, j >>= 1) r = (r << 1) | (j & 1);
  return r;
}

double maxDistance(const ComplexMatrix &a, const ComplexMatrix &b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < a.size(); ++j) d = std::max(d, std::abs(a[i][j] - b[i][j]));
  return d;
}

DiagonalMatrix product(const std::vector<DiagonalMatrix> &applied, unsigned n) {
  DiagonalMatrix p = applied.front();
  for (size_t i = 1; i < applied.size(); ++i) p = fhec::multiply(applied[i], p, n);
  return p;
}

TEST(BootstrapMatrices, StagesTimesBitReversalAreTheSpecialFFT) {
  for (unsigned n : {2u, 8u, 32u}) {
    ComplexMatrix v = fhec::specialFFTMatrix(n);
    // V P: column k of V read at the bit-reversed k.
    ComplexMatrix vp(n, std::vector<Complex>(n));
    for (unsigned j = 0; j < n; ++j)
      for (unsigned k = 0; k < n; ++k) vp[j][k] = v[j][bitReverse(k, n)];
    std::vector<DiagonalMatrix> forward = fhec::specialFFTStages(n, false);
    EXPECT_LT(maxDistance(dense(product(forward, n), n), vp), 1e-12) << n << " slots";
    // P V^-1 = S_1^-1 ... S_L^-1: applied last stage first; times V P is I.
    std::vector<DiagonalMatrix> inverse = fhec::specialFFTStages(n, true);
    std::reverse(inverse.begin(), inverse.end());
    ComplexMatrix identity(n, std::vector<Complex>(n));
    for (unsigned j = 0; j < n; ++j) identity[j][j] = 1;
    DiagonalMatrix round = fhec::multiply(product(forward, n), product(inverse, n), n);
    EXPECT_LT(maxDistance(dense(round, n), identity), 1e-12) << n << " slots";
  }
}

TEST(BootstrapMatrices, GroupedStagesKeepTheProductAndBoundTheDiagonals) {
  const unsigned n = 64; // 6 stages
  std::vector<DiagonalMatrix> forward = fhec::specialFFTStages(n, false);
  ComplexMatrix whole = dense(product(forward, n), n);
  for (unsigned levels = 1; levels <= 6; ++levels) {
    std::vector<DiagonalMatrix> groups = fhec::groupStages(forward, levels, n);
    ASSERT_EQ(groups.size(), levels);
    EXPECT_LT(maxDistance(dense(product(groups, n), n), whole), 1e-12) << levels << " levels";
    size_t longest = (6 + levels - 1) / levels;
    for (const DiagonalMatrix &g : groups) EXPECT_LE(g.size(), (size_t(2) << longest) - 1) << levels << " levels";
  }
}

} // namespace

// The constants of dialect/CKKS/Transforms/HighPrecision.h: MPFR's, rounded once to double.
TEST(BootstrapConstants, RootsOfUnityAreCorrectlyRoundedAndExactWhereTheyCanBe) {
  for (uint64_t m : {4ull, 8ull, 12ull, 4096ull, 1ull << 17})
    for (uint64_t k = 0; k < m; k += std::max<uint64_t>(1, m / 4096)) {
      Complex w = fhec::rootOfUnity(k, m);
      double angle = 2 * M_PI * double(k) / double(m);
      // Near the C library's on a double angle, which is itself off by up to
      // an ulp of 2 pi (8.9e-16): cos(2 pi 8/12) comes out -0.50000000000000044.
      EXPECT_NEAR(w.real(), std::cos(angle), 1.5e-15) << k << "/" << m;
      EXPECT_NEAR(w.imag(), std::sin(angle), 1.5e-15) << k << "/" << m;
      // Symmetries a correctly rounded cos and sin keep exactly.
      Complex c = fhec::rootOfUnity(m - k, m);
      EXPECT_EQ(c, std::conj(w)) << k << "/" << m;
      if (m % 2 == 0) {
        EXPECT_EQ(fhec::rootOfUnity(k + m / 2, m), -w) << k << "/" << m;
      }
    }
  EXPECT_EQ(fhec::rootOfUnity(1, 4), Complex(0, 1));
  EXPECT_EQ(fhec::rootOfUnity(3, 12), Complex(0, 1));
  EXPECT_EQ(fhec::rootOfUnity(7, 4), Complex(0, -1));
  EXPECT_EQ(fhec::rootOfUnity(8, 12).real(), -0.5);
  EXPECT_EQ(fhec::rootOfUnity(1, 12).real(), fhec::rootOfUnity(2, 12).imag());  // cos(pi/6) = sin(pi/3)
  // The double nearest sqrt(2)/2 and 1/(2 pi) (0x3FE6A09E667F3BCD, 0x3FC45F306DC9C883).
  EXPECT_EQ(fhec::rootOfUnity(1, 8), Complex(0.7071067811865476, 0.7071067811865476));
  EXPECT_EQ(fhec::inverseTwoPi(), 0.15915494309189535);
}

TEST(BootstrapConstants, ChebyshevCoefficientsInterpolateTheScaledCosine) {
  const unsigned degree = 31, bound = 16, r = 4;
  std::vector<double> c = fhec::chebyshevCosineCoefficients(degree, bound, r);
  ASSERT_EQ(c.size(), degree + 1);
  auto series = [&](double t) {  // Clenshaw's recurrence, in long double
    long double b1 = 0, b2 = 0;
    for (unsigned k = degree; k >= 1; --k) {
      long double b = 2 * t * b1 - b2 + c[k];
      b2 = b1, b1 = b;
    }
    return double(t * b1 - b2 + c[0]);
  };
  auto f = [&](double t) { return std::cos(2 * M_PI * (t * (bound + 1) - 0.25) / 16); };
  // Exact at the interpolation points, up to rounding.
  for (unsigned j = 0; j <= degree; ++j) {
    double t = std::cos(M_PI * (j + 0.5) / (degree + 1));
    EXPECT_NEAR(series(t), f(t), 1e-14) << "point " << j;
  }
  // And close in between: degree 31's interpolation error is about 2^-32 here.
  double worst = 0;
  for (int i = -1000; i <= 1000; ++i) worst = std::max(worst, std::abs(series(i / 1000.0) - f(i / 1000.0)));
  EXPECT_LT(worst, 1e-9);
  // cos(2 pi (t (K + 1) - 1/4) / 2^r) is neither even nor odd: every coefficient counts.
  EXPECT_NE(c[0], 0.0);
  EXPECT_NE(c[1], 0.0);
}
