// The samplers of secret values, checked against their distributions with
// chi-square tests, each with negative controls (samplers that are slightly
// wrong must fail the same check, so that the check is known to have power).
//
// Every chi-square check rejects at alpha = 1e-6 (Wilson-Hilferty critical
// value), so a correct sampler fails a given check about once per million runs.
#include "TestUtil.h"

#include "fhec/runtime/Error.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Random.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <algorithm>
#include <tuple>

using namespace fhec::rt;
using namespace fhec::rt::test;

namespace {
constexpr double kAlpha = 1e-6;

struct ChiSquare {
  double stat = 0, critical = 0;
  int df = 0;
  bool pass() const { return stat <= critical; }
};

std::ostream &operator<<(std::ostream &os, const ChiSquare &c) {
  return os << "chi2 = " << c.stat << " with " << c.df << " degrees of freedom, critical value " << c.critical;
}

// Pearson's chi-square of observed against expected counts (no fitted parameters).
ChiSquare pearson(const std::vector<double> &observed, const std::vector<double> &expected) {
  ChiSquare c;
  for (size_t i = 0; i < observed.size(); ++i) c.stat += std::pow(observed[i] - expected[i], 2) / expected[i];
  c.df = int(observed.size()) - 1;
  c.critical = chiSquareCritical(c.df, kAlpha);
  return c;
}

// Samples against the discrete Gaussian P(x) ~ exp(-x^2 / (2 sigma^2)) over Z,
// the probabilities computed here (on |x| <= 40 sigma, the rest below 1e-300).
// One bucket per value x with expected count n P(x) >= 5 (a contiguous range
// [lo, hi], P being unimodal); the tails beyond are merged into the end buckets.
ChiSquare gaussianChiSquare(const std::vector<int64_t> &samples, double sigma) {
  const int64_t R = int64_t(std::ceil(40 * sigma));
  const double n = double(samples.size());
  std::vector<long double> P(size_t(2 * R + 1));
  long double total = 0;
  for (int64_t x = -R; x <= R; ++x) total += P[size_t(x + R)] = std::exp(-(long double)(x * x) / (2.0L * sigma * sigma));
  for (auto &p : P) p /= total;
  int64_t lo = 0, hi = 0;
  while (n * double(P[size_t(lo - 1 + R)]) >= 5) --lo;
  while (n * double(P[size_t(hi + 1 + R)]) >= 5) ++hi;
  std::vector<double> observed(size_t(hi - lo + 1), 0), expected(observed.size(), 0);
  for (int64_t x = -R; x <= R; ++x) expected[size_t(std::clamp(x, lo, hi) - lo)] += n * double(P[size_t(x + R)]);
  for (int64_t x : samples) observed[size_t(std::clamp(x, lo, hi) - lo)] += 1;
  return pearson(observed, expected);
}

std::vector<int64_t> gaussianSamples(SecureRandom &rng, double sigma, size_t n) {
  std::vector<int64_t> v(n);
  for (auto &x : v) x = rng.gaussian(sigma);
  return v;
}
} // namespace

// 2^20 samples per check. Power of the negative controls (noncentrality
// lambda = n * sum (P' - P)^2 / P against df ~ 30 and a critical value ~ 80):
// a width off by 5% gives lambda ~ n * 2 * 0.05^2 ~ 5000, a shift by one of
// every 16th sample lambda ~ n / (256 sigma^2) ~ 400; both fail with
// overwhelming probability.
TEST(Random, DiscreteGaussianMatchesItsDistribution) {
  SecureRandom rng;
  const size_t n = size_t(1) << 20;
  for (double sigma : {3.2, 8.0}) {
    std::vector<int64_t> x = gaussianSamples(rng, sigma, n);
    ChiSquare c = gaussianChiSquare(x, sigma);
    EXPECT_TRUE(c.pass()) << "sigma " << sigma << ": " << c;
    EXPECT_GE(c.df, 20);
    double sum = 0, sq = 0;
    int64_t maxAbs = 0;
    for (int64_t v : x) {
      sum += double(v);
      sq += double(v) * double(v);
      maxAbs = std::max(maxAbs, std::abs(v));
    }
    // Mean: standard error sigma / 2^10; deviation: relative error ~ 2^-10.5.
    EXPECT_NEAR(sum / double(n), 0.0, 6 * sigma / 1024);
    EXPECT_NEAR(std::sqrt(sq / double(n)), sigma, 6 * sigma / 1448);
    EXPECT_LE(maxAbs, int64_t(std::ceil(12 * sigma)));
  }

  // Negative controls: the same check must reject slightly wrong samplers.
  ChiSquare wide = gaussianChiSquare(gaussianSamples(rng, 3.2 * 1.05, n), 3.2);
  EXPECT_FALSE(wide.pass()) << "a sampler 5% too wide passed: " << wide;
  ChiSquare narrow = gaussianChiSquare(gaussianSamples(rng, 3.2 * 0.95, n), 3.2);
  EXPECT_FALSE(narrow.pass()) << "a sampler 5% too narrow passed: " << narrow;
  std::vector<int64_t> shifted = gaussianSamples(rng, 3.2, n);
  for (size_t i = 0; i < n; i += 16) shifted[i] += 1;
  ChiSquare biased = gaussianChiSquare(shifted, 3.2);
  EXPECT_FALSE(biased.pass()) << "a sampler shifting 1/16 of its samples passed: " << biased;
}

// The batch sampler (what key generation and encryption call) passes the
// same checks, and is the one-by-one sampler on the same words: fed one
// deterministic stream each, both give the same samples (2 words per sample
// in order, the last batch partial).
TEST(Random, BatchGaussianIsTheSameSampler) {
  SecureRandom rng;
  const size_t n = size_t(1) << 20;
  std::vector<int64_t> x(n);
  rng.gaussian(3.2, x.data(), n);
  ChiSquare c = gaussianChiSquare(x, 3.2);
  EXPECT_TRUE(c.pass()) << c;
  test::DeterministicRandom one(7), batch(7);
  std::vector<int64_t> a(3000), b(3000);
  for (auto &v : a) v = one.gaussian(3.2);
  batch.gaussian(3.2, b.data(), b.size());
  EXPECT_EQ(a, b);
  EXPECT_NE(std::count(a.begin(), a.end(), 0), int64_t(a.size()));
}

// HWT(h): exactly h nonzero entries, each position and sign equally likely.
// Chi-square over the 2n cells (position, sign) of the nonzero entries of
// many draws; a non-power-of-two n exercises the sorting network's padding.
TEST(Random, HammingWeightIsUniform) {
  SecureRandom rng;
  for (auto [n, h] : std::vector<std::pair<size_t, int>>{{256, 16}, {100, 7}, {64, 0}, {64, 64}, {1, 1}, {4096, 64}}) {
    std::vector<int8_t> s = rng.hammingWeight(n, h);
    ASSERT_EQ(s.size(), n);
    int weight = 0;
    for (int8_t v : s) {
      EXPECT_TRUE(v >= -1 && v <= 1);
      weight += v != 0;
    }
    EXPECT_EQ(weight, h) << "n " << n;
  }
  for (auto [n, h, draws] : std::vector<std::tuple<size_t, int, int>>{{256, 16, 4096}, {100, 7, 8192}}) {
    std::vector<double> observed(2 * n, 0), expected(2 * n, double(draws) * h / double(2 * n));
    for (int d = 0; d < draws; ++d) {
      std::vector<int8_t> s = rng.hammingWeight(n, h);
      for (size_t i = 0; i < n; ++i)
        if (s[i]) observed[2 * i + (s[i] > 0)] += 1;
    }
    ChiSquare c = pearson(observed, expected);
    EXPECT_TRUE(c.pass()) << "n " << n << ", h " << h << ": " << c;

    // Negative control: a sampler that never uses the last eighth of the
    // positions (lambda ~ draws * h / 7, thousands against a critical value
    // of ~ 2n + 5 sqrt(4n)).
    std::vector<double> skewed(2 * n, 0);
    for (int d = 0; d < draws; ++d) {
      std::vector<int8_t> s = rng.hammingWeight(n - n / 8, h);
      for (size_t i = 0; i < s.size(); ++i)
        if (s[i]) skewed[2 * i + (s[i] > 0)] += 1;
    }
    EXPECT_FALSE(pearson(skewed, expected).pass()) << "a sampler avoiding n/8 positions passed";
  }
  EXPECT_THROW(rng.hammingWeight(10, 11), Error);
  EXPECT_THROW(rng.hammingWeight(10, -1), Error);
}

// The uniform ternary secret: each entry -1, 0, 1 with probability 1/3, and
// independent of its neighbour (chi-square over the 9 pairs of consecutive
// entries); negative controls: the counts judged against ZO(1/2)'s
// probabilities (1/4, 1/2, 1/4), and ZO(1/2)'s samples judged as uniform.
TEST(Random, UniformTernaryIsUniform) {
  SecureRandom rng;
  const size_t n = size_t(1) << 20;
  std::vector<int8_t> s = rng.uniformTernary(n);
  ASSERT_EQ(s.size(), n);
  std::vector<double> single(3, 0), pairs(9, 0);
  for (size_t i = 0; i < n; ++i) {
    ASSERT_TRUE(s[i] >= -1 && s[i] <= 1);
    single[size_t(s[i] + 1)] += 1;
    if (i % 2) pairs[size_t(3 * (s[i - 1] + 1) + (s[i] + 1))] += 1;
  }
  ChiSquare c1 = pearson(single, std::vector<double>(3, double(n) / 3));
  EXPECT_TRUE(c1.pass()) << c1;
  ChiSquare c2 = pearson(pairs, std::vector<double>(9, double(n / 2) / 9));
  EXPECT_TRUE(c2.pass()) << c2;
  EXPECT_FALSE(pearson(single, {double(n) / 4, double(n) / 2, double(n) / 4}).pass());
  std::vector<int8_t> zo = rng.zeroOne(n, 0.5);
  std::vector<double> skewed(3, 0);
  for (int8_t x : zo) skewed[size_t(x + 1)] += 1;
  EXPECT_FALSE(pearson(skewed, std::vector<double>(3, double(n) / 3)).pass()) << "ZO(1/2) passed as uniform";
  EXPECT_TRUE(rng.uniformTernary(0).empty());
  EXPECT_EQ(rng.uniformTernary(1001).size(), 1001u);  // a partial batch
}

// ZO(rho): P(+1) = P(-1) = rho / 2, P(0) = 1 - rho.
TEST(Random, ZeroOneHasItsDistribution) {
  SecureRandom rng;
  const size_t n = size_t(1) << 20;
  for (double rho : {0.5, 0.125}) {
    std::vector<int8_t> v = rng.zeroOne(n, rho);
    std::vector<double> observed(3, 0), expected{n * rho / 2, n * (1 - rho), n * rho / 2};
    for (int8_t x : v) {
      ASSERT_TRUE(x >= -1 && x <= 1);
      observed[size_t(x + 1)] += 1;
    }
    ChiSquare c = pearson(observed, expected);
    EXPECT_TRUE(c.pass()) << "rho " << rho << ": " << c;
    // Negative control: rho = 0.5 samples judged as rho = 0.125 (and back).
    std::vector<int8_t> w = rng.zeroOne(n, rho == 0.5 ? 0.125 : 0.5);
    std::vector<double> other(3, 0);
    for (int8_t x : w) other[size_t(x + 1)] += 1;
    EXPECT_FALSE(pearson(other, expected).pass());
  }
  EXPECT_THROW(rng.zeroOne(8, 1.5), Error);
  for (int8_t x : rng.zeroOne(1000, 0.0)) EXPECT_EQ(x, 0);
  for (int8_t x : rng.zeroOne(1000, 1.0)) EXPECT_NE(x, 0);
}

TEST(Random, SecureWipe) {
  std::vector<uint64_t> v(100, ~uint64_t(0));
  v.resize(10);  // the wipe also covers the spare capacity
  const uint64_t *data = v.data();
  const size_t cap = v.capacity();
  secureWipe(v);
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.data(), data) << "the allocation is kept: nothing unwiped was freed";
  EXPECT_EQ(v.capacity(), cap);
  unsigned char raw[32];
  std::memset(raw, 0xAB, sizeof(raw));
  secureWipe(raw, sizeof(raw));
  for (unsigned char b : raw) EXPECT_EQ(b, 0);
  secureWipe(nullptr, 0);
}

// The secret key keeps its coefficients where they were: a move hands the
// allocation over (no copy left behind), the moved-from key is empty.
TEST(Random, SecretKeyMovesItsCoefficients) {
  SecureRandom rng;
  SecretKey a;
  a.logN = 6;
  a.s = rng.hammingWeight(64, 8);
  a.keySet = KeySetId{1, 2};
  const std::vector<int8_t> want = a.s;
  const int8_t *data = a.s.data();
  SecretKey b(std::move(a));
  EXPECT_EQ(b.s.data(), data);
  EXPECT_TRUE(a.s.empty());
  SecretKey c;
  c = std::move(b);
  EXPECT_EQ(c.s.data(), data);
  EXPECT_TRUE(b.s.empty());
  EXPECT_EQ(c.s, want);
  EXPECT_EQ(c.keySet, (KeySetId{1, 2}));
  SecretKey d = c;
  EXPECT_EQ(d.s, want);
  d = c;  // copy-assignment over a key wipes the old coefficients first
  EXPECT_EQ(d.s, want);
  auto &self = d;
  d = self;
  EXPECT_EQ(d.s, want);
}
