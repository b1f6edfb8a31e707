// Bootstrapping's CoeffToSlot / SlotToCoeff matrices (passes/Bootstrap.h):
// the factored special FFT against the dense one.
#include "passes/Bootstrap.h"

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
