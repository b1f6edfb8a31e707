// The security estimate against the published numbers it must reproduce
// (docs/security.md, "Cross-check"): the HE Standard v2 table for the uniform
// ternary secret and the lattice estimator's attack costs for sparse secrets
// as SparseLWEkit published them (lattice-estimator commit 6019056).
#include "fhec/runtime/Error.h"
#include "fhec/runtime/LatticeEstimator.h"
#include "fhec/runtime/Security.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

using namespace fhec::rt;

namespace {
SecurityEstimate ternary(int logN, int logq, double sigma = 3.19) {
  return estimateSecurity(logN, logq, SecretKind::Ternary, 0, sigma);
}
SecurityEstimate sparse(int logN, int logq, int h, double sigma = 3.19) {
  return estimateSecurity(logN, logq, SecretKind::Sparse, h, sigma);
}
lattice::Estimate model(int logN, double logq, long h, double sigma) {
  lattice::Instance in;
  in.n = 1L << logN;
  in.log2q = logq;
  in.sigma = sigma;
  if (h == 0) in.uniformTernary = true; else in.h = h;
  return lattice::estimate(in);
}
double attackBits(const lattice::Estimate &e, const char *key) {
  const lattice::AttackCost *a = e.find(key);
  EXPECT_NE(a, nullptr) << key;
  return a ? a->bits : 0;
}
} // namespace

// --- Uniform ternary: the HE Standard v2 table -----------------------------

TEST(Security, V2TableEntriesGiveTheirLevels) {
  // ePrint 2024/463 Table 5.2: N = 2^16: 1747 / 1199 / 929; N = 2^15: 868 / 597 / 462.
  EXPECT_NEAR(ternary(16, 1747).bits, 128, 1e-9);
  EXPECT_NEAR(ternary(16, 1199).bits, 192, 1e-9);
  EXPECT_NEAR(ternary(16, 929).bits, 256, 1e-9);
  EXPECT_NEAR(ternary(15, 868).bits, 128, 1e-9);
  EXPECT_NEAR(ternary(17, 3523).bits, 128, 1e-9);
  EXPECT_NEAR(ternary(10, 26).bits, 128, 1e-9);
  EXPECT_FALSE(ternary(16, 1747).extrapolated);
  EXPECT_EQ(ternary(16, 1747).method, "HE Standard v2 tables (ePrint 2024/463, Table 5.2)");
  EXPECT_EQ(ternary(16, 1747).attack, "");
  EXPECT_EQ(ternary(16, 1747).caveats(), "");
}

TEST(Security, V2TableVerdictsAtN16) {
  // The project's sanity points: 1740 is granted 128 bits, 1760 (above 1747) is not.
  EXPECT_TRUE(ternary(16, 1740).grants(128));
  EXPECT_TRUE(ternary(16, 1747).grants(128));
  SecurityEstimate over = ternary(16, 1760);
  EXPECT_LT(over.bits, 128);
  EXPECT_TRUE(over.extrapolated);
  EXPECT_FALSE(over.grants(128));
  EXPECT_FALSE(over.grants(100));  // below the table's lowest level: never granted
  EXPECT_NE(over.caveats().find("above the tables' 128-bit bound 1747"), std::string::npos) << over.caveats();
  // The old HE Standard (2018) bound 1772 is no longer 128 bits.
  EXPECT_FALSE(ternary(16, 1772).grants(128));
}

TEST(Security, InterpolatesMonotonicallyAndConservatively) {
  double last = 1e9;
  for (int logq = 400; logq <= 1000; logq += 7) {
    double b = ternary(15, logq).bits;
    EXPECT_LT(b, last) << logq;
    last = b;
  }
  double mid = ternary(15, 700).bits;
  EXPECT_GT(mid, 128);
  EXPECT_LT(mid, 192);
  EXPECT_TRUE(ternary(15, 700).grants(128));
  EXPECT_FALSE(ternary(15, 700).grants(192));
  // Below the 256-bit column: 256 is granted, more is not.
  EXPECT_TRUE(ternary(16, 500).grants(256));
  EXPECT_FALSE(ternary(16, 500).grants(300));
  // N = 2^10 has only a 128-bit entry.
  EXPECT_TRUE(ternary(10, 20).grants(128));
  EXPECT_FALSE(ternary(10, 20).grants(192));
}

TEST(Security, OutsideTheTableIsExtrapolatedAndNotGranted) {
  SecurityEstimate e = ternary(9, 10);
  EXPECT_TRUE(e.extrapolated);
  EXPECT_FALSE(e.grants(128));
  EXPECT_NE(e.str().find("extrapolated"), std::string::npos) << e.str();
  EXPECT_NE(ternary(16, 1700).summary().find(
                "about 132 bits (HE Standard v2 tables, uniform ternary secret, N = 2^16, log2 of the largest modulus = 1700)"),
            std::string::npos)
      << ternary(16, 1700).summary();
}

// --- The model on the uniform ternary secret (cross-check of the table) ----

TEST(Security, ModelReproducesTheV2TableForTernarySecrets) {
  // HE Standard v2 ran usvp, bdd, the primal hybrid and the MATZOV dual;
  // every 128-bit entry must come out within 3 bits of 128.
  const int entries[][2] = {{11, 53}, {12, 106}, {13, 214}, {14, 430}, {15, 868}, {16, 1747}, {17, 3523}};
  for (auto [logN, logq] : entries) {
    lattice::Estimate e = model(logN, logq, 0, 3.19);
    double best = std::min({attackBits(e, "usvp"), attackBits(e, "bdd"), attackBits(e, "bdd_hybrid"),
                            attackBits(e, "dual_hybrid")});
    EXPECT_NEAR(best, 128, 3) << "N = 2^" << logN;
  }
  lattice::Estimate at1747 = model(16, 1747, 0, 3.19);
  EXPECT_NEAR(attackBits(at1747, "usvp"), 128.2, 0.5);
  EXPECT_LT(model(16, 1760, 0, 3.19).cheapest().bits, 128);
  EXPECT_GE(model(16, 1740, 0, 3.19).cheapest().bits, 128);
}

TEST(Security, ModelReproducesTheEstimatorOnSeal) {
  // The estimator's own doctest: SEAL22_8192 (n = 8192, log2 q = 226.0,
  // ternary) under the MATZOV dual hybrid: 2^121.8 with beta = 306, zeta = 10, t = 40.
  lattice::Estimate e = model(13, 226.0, 0, 3.19);
  const lattice::AttackCost *d = e.find("dual_hybrid");
  ASSERT_NE(d, nullptr);
  EXPECT_NEAR(d->bits, 121.8, 0.3);
  EXPECT_EQ(d->beta, 306);
  EXPECT_EQ(d->zeta, 10);
  EXPECT_EQ(d->eta, 40);
}

// --- Sparse secrets: SparseLWEkit's lattice-estimator numbers --------------

TEST(Security, SparseLWEkitH192) {
  // N = 2^16, log2 QP = 1553, h = 192, sigma = 3.19: usvp 144.6, bdd 144.6,
  // bdd_hybrid 139.8, bdd_mitm_hybrid 134.0, dual_hybrid 145.3.
  lattice::Estimate e = model(16, 1553, 192, 3.19);
  EXPECT_NEAR(attackBits(e, "usvp"), 144.6, 3);
  EXPECT_NEAR(attackBits(e, "bdd"), 144.6, 3);
  EXPECT_NEAR(attackBits(e, "bdd_hybrid"), 139.8, 3);
  EXPECT_NEAR(attackBits(e, "bdd_mitm_hybrid"), 134.0, 3);
  EXPECT_NEAR(attackBits(e, "dual_hybrid"), 145.3, 3);
  SecurityEstimate s = sparse(16, 1553, 192);
  EXPECT_NEAR(s.bits, 134.0, 3);
  EXPECT_EQ(s.attack, "primal hybrid (MITM)");
  EXPECT_TRUE(s.grants(128));
  EXPECT_FALSE(s.grants(192));
  EXPECT_EQ(s.caveats(), "");
  EXPECT_NE(s.summary().find("sparse ternary secret, h = 192"), std::string::npos) << s.summary();
}

TEST(Security, SparseLWEkitOtherRows) {
  // The other rows of SparseLWEkit's table, (logN, sigma, logq, h): min attack.
  struct Row { int logN; double sigma; int logq; int h; double mitm, usvp; };
  const Row rows[] = {{17, 3.2, 2341, 128, 158.9, 197.9}, {16, 3.2, 1555, 192, 133.8, 144.3},
                      {15, 3.2, 777, 192, 132.6, 143.3},  {15, 3.19, 767, 192, 134.1, 145.2},
                      {17, 3.19, 3104, 192, 135.7, 145.8}};
  for (const Row &r : rows) {
    lattice::Estimate e = model(r.logN, r.logq, r.h, r.sigma);
    EXPECT_NEAR(attackBits(e, "bdd_mitm_hybrid"), r.mitm, 3) << r.logN << " " << r.logq;
    EXPECT_NEAR(attackBits(e, "usvp"), r.usvp, 3) << r.logN << " " << r.logq;
  }
}

TEST(Security, SparseSmallModulusH32) {
  // N = 2^16, log2 QP = 121, h = 32 (sigma 3.2): bdd_hybrid 198.2,
  // bdd_mitm_hybrid 171.9; usvp, bdd and the dual need block sizes > 1754.
  lattice::Estimate e = model(16, 121, 32, 3.2);
  EXPECT_NEAR(attackBits(e, "bdd_mitm_hybrid"), 171.9, 3);
  EXPECT_NEAR(attackBits(e, "bdd_hybrid"), 198.2, 3);
  EXPECT_TRUE(std::isinf(attackBits(e, "usvp")));
  SecurityEstimate s = sparse(16, 121, 32, 3.2);
  EXPECT_NEAR(s.bits, 172, 3);
  EXPECT_TRUE(s.grants(128));
}

TEST(Security, SparseH64AtTheTernaryBoundIsRefused) {
  // HEAAN's h = 64 at the modulus where a uniform ternary secret is 128-bit:
  // the hybrid attacks bring it far below 128.
  SecurityEstimate s = sparse(16, 1760, 64);
  EXPECT_LT(s.bits, 115);
  EXPECT_FALSE(s.grants(128));
  EXPECT_EQ(s.attack, "primal hybrid (MITM)");
  EXPECT_FALSE(sparse(16, 2400, 64).grants(128));
}

TEST(Security, SparseBoundariesAtN16) {
  // The largest log2 QP at which the model still gives 128 bits, per weight
  // (docs/security.md). The HE guidelines' figures, h = 128 up to ~1450 and
  // h = 256 up to ~1637, are more conservative than this model: there it says
  // 133.8 and 131.1 bits (reported, not tuned away).
  EXPECT_GE(sparse(16, 1538, 128).bits, 128);
  EXPECT_LT(sparse(16, 1545, 128).bits, 128);
  EXPECT_GE(sparse(16, 1680, 256).bits, 128);
  EXPECT_LT(sparse(16, 1690, 256).bits, 128);
  EXPECT_NEAR(sparse(16, 1450, 128).bits, 133.8, 1);
  EXPECT_NEAR(sparse(16, 1637, 256).bits, 131.1, 1);
  // A sparser secret is never stronger, at any modulus.
  for (int logq : {600, 1000, 1400, 1700})
    EXPECT_LE(sparse(16, logq, 64).bits, sparse(16, logq, 192).bits + 0.5) << logq;
}

// --- Sigma, range, errors, speed --------------------------------------------

TEST(Security, SmallSigmaIsNeverGranted) {
  SecurityEstimate t = ternary(14, 300, 3.0);
  EXPECT_TRUE(t.smallSigma);
  EXPECT_FALSE(t.grants(128));
  EXPECT_NE(t.caveats().find("sigma = 3.00"), std::string::npos) << t.caveats();
  SecurityEstimate s = sparse(16, 1000, 192, 3.0);
  EXPECT_TRUE(s.smallSigma);
  EXPECT_FALSE(s.grants(128));
  EXPECT_FALSE(ternary(14, 300, 3.19).smallSigma);
  EXPECT_FALSE(ternary(14, 300, 3.2).smallSigma);
}

TEST(Security, SparseOutsideTheModelsRangeIsNotGranted) {
  SecurityEstimate s = sparse(8, 5, 16, 3.2);
  EXPECT_TRUE(s.extrapolated);
  EXPECT_FALSE(s.grants(80));
  EXPECT_NE(s.caveats().find("outside"), std::string::npos) << s.caveats();
}

TEST(Security, Errors) {
  EXPECT_THROW(ternary(18, 100), Error);
  EXPECT_THROW(ternary(1, 100), Error);
  EXPECT_THROW(ternary(12, 0), Error);
  EXPECT_THROW(sparse(12, 100, 0), Error);
  EXPECT_THROW(sparse(12, 100, 4097), Error);
  EXPECT_NO_THROW(sparse(12, 100, 4096));
  EXPECT_NO_THROW(sparse(2, 20, 4));
}

TEST(Security, FastAndDeterministic) {
  // Every compile and key generation asks; a sparse estimate runs the model
  // once (then it is memoised). Optimised builds take 2-25 ms per estimate;
  // the bound leaves room for sanitizer and unoptimised builds.
  for (auto [logN, logq, h] : {std::tuple{16, 1761, 64}, {17, 3000, 192}, {15, 801, 128}, {16, 1700, 30000}}) {
    auto t0 = std::chrono::steady_clock::now();
    lattice::Estimate e = model(logN, logq, h, 3.19);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(ms, 250) << logN << " " << logq << " " << h;
    EXPECT_EQ(model(logN, logq, h, 3.19).cheapest().bits, e.cheapest().bits);
  }
  EXPECT_EQ(sparse(16, 1553, 192).str(), sparse(16, 1553, 192).str());
}
