// The security estimate against the HE Standard's table entries it is built from.
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Security.h"

#include <gtest/gtest.h>

using namespace fhec::rt;

namespace {
constexpr int kDenseH(int logN) { return (2 << logN) / 3; }  // a uniform ternary secret's expected weight
} // namespace

TEST(Security, TableEntriesGiveTheirLevels) {
  // HE Standard Table 1 (ternary secret): n = 2^15, 881 / 611 / 476 bits of q.
  EXPECT_NEAR(estimateSecurity(15, 881, kDenseH(15), 3.2).bits, 128, 1e-9);
  EXPECT_NEAR(estimateSecurity(15, 611, kDenseH(15), 3.2).bits, 192, 1e-9);
  EXPECT_NEAR(estimateSecurity(15, 476, kDenseH(15), 3.2).bits, 256, 1e-9);
  EXPECT_NEAR(estimateSecurity(10, 27, kDenseH(10), 3.2).bits, 128, 1e-9);
  EXPECT_NEAR(estimateSecurity(16, 1772, kDenseH(16), 3.2).bits, 128, 1e-9);
  EXPECT_FALSE(estimateSecurity(15, 881, kDenseH(15), 3.2).extrapolated);
}

TEST(Security, InterpolatesMonotonically) {
  double last = 1e9;
  for (int logq = 400; logq <= 1000; logq += 7) {
    double b = estimateSecurity(15, logq, kDenseH(15), 3.2).bits;
    EXPECT_LT(b, last) << logq;
    last = b;
  }
  double mid = estimateSecurity(15, 700, kDenseH(15), 3.2).bits;
  EXPECT_GT(mid, 128);
  EXPECT_LT(mid, 192);
}

TEST(Security, PaperParametersAreBelow128Bits) {
  // Jung et al.: N = 2^16, evaluation key mod Q^2 = 2^2400, h = 64.
  SecurityEstimate e = estimateSecurity(16, 2400, 64, 3.2);
  EXPECT_NEAR(e.bits, 128.0 * 1772 / 2400, 1e-9);
  EXPECT_TRUE(e.extrapolated);
  EXPECT_TRUE(e.sparseSecret);
  EXPECT_NE(e.str().find("at most 95 bits"), std::string::npos) << e.str();
  EXPECT_NE(e.caveats().find("h = 64"), std::string::npos);
  // Doubling N doubles the tolerated modulus: the same Q is secure at 2^17.
  SecurityEstimate e17 = estimateSecurity(17, 2400, 64, 3.2);
  EXPECT_GT(e17.bits, 128);
  EXPECT_TRUE(e17.extrapolated);
}

TEST(Security, CaveatsAndErrors) {
  EXPECT_FALSE(estimateSecurity(14, 438, kDenseH(14), 3.2).sparseSecret);
  EXPECT_TRUE(estimateSecurity(14, 438, kDenseH(14), 3.0).smallSigma);
  EXPECT_NE(estimateSecurity(14, 438, kDenseH(14), 3.0).caveats().find("sigma = 3.00"), std::string::npos);
  EXPECT_EQ(estimateSecurity(14, 438, kDenseH(14), 3.2).caveats(), "");
  EXPECT_THROW(estimateSecurity(18, 100, 64, 3.2), Error);
  EXPECT_THROW(estimateSecurity(1, 100, 64, 3.2), Error);
  EXPECT_THROW(estimateSecurity(12, 0, 64, 3.2), Error);
}
