// The client side at NTT speed (fhec/runtime/Client.h): key generation,
// encryption and decryption through the compiled client kernels give the
// keys and ciphertexts of the GMP reference bit for bit, fed the same
// (deterministic, test-only) random stream, on every CPU target.
#include "E2EUtil.h"
#include "../runtime/TestUtil.h"

#include "codegen/ClientKernels.h"
#include "frontend/Program.h"

#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Client.h"
#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Modular.h"
#include "fhec/runtime/Primes.h"

using namespace fhec;
using namespace fhec::test;

namespace {

struct Case {
  const char *target;
  int logN, logQ;
  int dnum = 1;  // hybrid key switching's digits: keys mod PQ, encryption divides by P
  int h = 0;     // 0: the uniform ternary secret; else a sparse one of weight h
  rt::Params params(int logQ = 0) const {
    rt::Params p = rt::test::makeParams(logN, logQ ? logQ : this->logQ, 30, h);
    p.dnum = dnum;
    return p;
  }
};

class ClientKernelsTest : public ::testing::TestWithParam<Case> {};

void expectSameKeys(const rt::KeySet &a, const rt::KeySet &b) {
  EXPECT_EQ(a.sk.s, b.sk.s);
  EXPECT_TRUE(a.sk.keySet == b.sk.keySet);
  EXPECT_TRUE(a.pk.ax == b.pk.ax);
  EXPECT_TRUE(a.pk.bx == b.pk.bx) << "public key bx differs";
  EXPECT_TRUE(a.evk.ax == b.evk.ax);
  EXPECT_TRUE(a.evk.bx == b.evk.bx) << "evaluation key bx differs";
}

TEST_P(ClientKernelsTest, SameKeysAndCiphertextsAsTheReference) {
  const Case c = GetParam();
  if (std::string why = cannotRun(c.target); !why.empty()) GTEST_SKIP() << why;
  rt::Params p = c.params();
  const int mid = c.logQ / 2 + 7;  // a decrypt kernel below logQ
  CompileOptions o;
  o.target = c.target;
  std::unique_ptr<rt::CompiledModule> module = compileClientKernels(p, o, {mid});
  ASSERT_EQ(module->manifest().target, c.target);
  rt::KernelArithmetic kernels(*module, p);
  EXPECT_EQ(kernels.decryptLevels(), (std::vector<int>{mid, c.logQ}));

  for (uint64_t seed : {1u, 2u}) {
    rt::test::DeterministicRandom r1(seed), r2(seed);
    rt::KeySet ref = rt::generateKeys(p, r1), got = rt::generateKeys(p, r2, kernels);
    expectSameKeys(ref, got);
    for (uint64_t g : {rt::galoisForRotation(c.logN, 1), rt::galoisForRotation(c.logN, 3),
                       rt::galoisForConjugation(c.logN)}) {
      rt::RotationKey a = rt::generateRotationKey(p, ref.sk, g, r1), b = rt::generateRotationKey(p, got.sk, g, r2, kernels);
      EXPECT_TRUE(a.bx == b.bx) << "rotation key of Galois element " << g << " differs";
    }
    // Fresh encryptions at the top, at the decrypt kernel's level and below it.
    for (int logq : {c.logQ, mid, mid - 40, 40}) {
      std::vector<rt::Complex> z(8);
      for (size_t i = 0; i < z.size(); ++i) z[i] = rt::Complex(0.25 * double(i) - 1, 0.5);
      rt::BigPoly m = rt::encode(z, c.logN, 30, logq);
      rt::Ciphertext a = rt::encrypt(p, ref.pk, m, 30, 8, r1), b = rt::encrypt(p, got.pk, m, 30, 8, r2, kernels);
      EXPECT_TRUE(a == b) << "ciphertexts at logq " << logq << " differ";
      rt::BigPoly da = rt::decrypt(ref.sk, a), db = rt::decrypt(got.sk, a, kernels);
      EXPECT_TRUE(da == db) << "decryptions at logq " << logq << " differ";
      auto back = rt::decode(db, 8, 30);
      for (size_t i = 0; i < z.size(); ++i) EXPECT_LT(std::abs(back[i] - z[i]), 1e-3);
    }
  }
}

TEST_P(ClientKernelsTest, RefusesOtherParametersAndForeignKeys) {
  const Case c = GetParam();
  if (std::string why = cannotRun(c.target); !why.empty()) GTEST_SKIP() << why;
  rt::Params p = c.params();
  CompileOptions o;
  o.target = c.target;
  std::unique_ptr<rt::CompiledModule> module = compileClientKernels(p, o);
  rt::KernelArithmetic kernels(*module, p);
  rt::Params other = rt::test::makeParams(c.logN, c.logQ, 30, /*h=*/c.h ? 32 : 0);
  if (!c.h) other.logp = 20;
  other.dnum = c.dnum;
  rt::SecureRandom rng;
  EXPECT_THROW(rt::generateKeys(other, rng, kernels), rt::Error);
  rt::Params otherDnum = p;
  otherDnum.dnum = c.dnum == 1 ? 2 : 1;  // keys of another modulus PQ
  try {
    rt::KernelArithmetic wrong(*module, otherDnum);
    ADD_FAILURE() << "client kernels for dnum = " << c.dnum << " accepted dnum = " << otherDnum.dnum;
  } catch (const rt::Error &e) {
    EXPECT_NE(std::string(e.what()).find("but the keys use"), std::string::npos) << e.what();
  }
  EXPECT_THROW(rt::KernelArithmetic(*module, rt::test::makeParams(c.logN, c.logQ + 64, 30)), rt::Error);
  // A ciphertext of another key set is refused before any product.
  rt::KeySet a = rt::generateKeys(p, rng, kernels), b = rt::generateKeys(p, rng, kernels);
  rt::Ciphertext ct = rt::encrypt(p, a.pk, rt::encode({1.0}, c.logN, 30, c.logQ), 30, 1, rng, kernels);
  EXPECT_THROW(rt::decrypt(b.sk, ct, kernels), rt::Error);
  EXPECT_NO_THROW(rt::decrypt(a.sk, ct, kernels));
  // Keys of another secret are refused, naming both.
  try {
    rt::Params otherSecret = rt::test::makeParams(c.logN, c.logQ, 30, c.h ? 0 : 64);
    otherSecret.dnum = c.dnum;
    rt::KernelArithmetic wrong(*module, otherSecret);
    ADD_FAILURE() << "client kernels for one secret accepted another";
  } catch (const rt::Error &e) {
    EXPECT_NE(std::string(e.what()).find(c.h ? "sparse ternary, h = 64 secret" : "uniform ternary secret"),
              std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(c.h ? "secret=ternary" : "secret=sparse h=64"), std::string::npos)
        << e.what();
  }
  if (!c.h) return;
  // Decryption's windows hold for secrets of weight up to h (64): a heavier
  // secret is refused, not decrypted wrong.
  rt::SecretKey heavy = a.sk;
  for (size_t i = 0; i < heavy.s.size(); i += 2)
    if (heavy.s[i] == 0) heavy.s[i] = 1;
  heavy.keySet = rt::KeySetId();
  try {
    kernels.decrypt(heavy, ct);
    ADD_FAILURE() << "a secret of weight above h was used";
  } catch (const rt::Error &e) {
    EXPECT_NE(std::string(e.what()).find("Hamming weight"), std::string::npos) << e.what();
  }
}

// Narrow decryption (Client.h): a message within the lowest window
// decrypts there; one coefficient beyond it, or a ciphertext of uniform ax
// and bx (a message as large as q), falls back to all windows. Either way
// the result is the reference's decryption bit for bit.
TEST_P(ClientKernelsTest, NarrowDecryptionHoldsOrFallsBack) {
  const Case c = GetParam();
  if (std::string why = cannotRun(c.target); !why.empty()) GTEST_SKIP() << why;
  const int logQ = 1200;  // three windows or more on every target
  rt::Params p = c.params(logQ);
  p.dnum = 1;
  CompileOptions o;
  o.target = c.target;
  std::unique_ptr<rt::CompiledModule> module = compileClientKernels(p, o);
  rt::KernelArithmetic kernels(*module, p);
  const unsigned logH = llvm::Log2_64_Ceil(p.maxSecretWeight());
  std::vector<DecryptWindow> plan = planDecryptWindows(logQ, logH, lookupTarget(c.target)->primeBits);
  ASSERT_GE(plan.size(), 3u);
  const int w = int(plan.front().bits);

  rt::test::DeterministicRandom rng(7);
  rt::KeySet keys = rt::generateKeys(p, rng, kernels);
  std::vector<rt::Complex> z = {{0.5, -0.25}, {1.0, 2.0}};
  rt::Ciphertext fresh = rt::encrypt(p, keys.pk, rt::encode(z, c.logN, 30, logQ), 30, 2, rng, kernels);
  auto expectReference = [&](const rt::Ciphertext &ct, int width, const std::string &what) {
    rt::BigPoly ref = rt::decrypt(keys.sk, ct);
    rt::BigPoly m = rt::decryptMessage(keys.sk, ct, kernels);
    EXPECT_EQ(m.logq, width) << what;
    EXPECT_TRUE(rt::signExtend(m, ct.logq()) == ref) << what;
    EXPECT_TRUE(rt::decrypt(keys.sk, ct, kernels) == ref) << what;
  };
  expectReference(fresh, w, "a fresh encryption");
  // The message's coefficient 3 moved by +-2^bits: within the window, beyond it.
  for (int bits : {w - 2, w, w + 3, logQ - 2})
    for (int64_t sign : {1, -1}) {
      rt::Ciphertext ct = fresh;
      std::vector<int64_t> x(p.N());
      x[3] = sign;
      rt::addSmallShifted(ct.bx, x, bits);
      expectReference(ct, bits < w - 1 ? w : logQ, "coefficient 3 moved by 2^" + std::to_string(bits));
    }
  rt::Ciphertext uniform = fresh;
  uniform.ax = rt::test::randomPoly(c.logN, logQ, rng);
  uniform.bx = rt::test::randomPoly(c.logN, logQ, rng);
  expectReference(uniform, logQ, "uniform ax and bx");
  // At a level below logQ: the narrow check's bound is the ciphertext's q.
  rt::Ciphertext low = fresh;
  low.ax = rt::reduce(fresh.ax, logQ - 300);
  low.bx = rt::reduce(fresh.bx, logQ - 300);
  expectReference(low, w, "a ciphertext at logq " + std::to_string(logQ - 300));

  // The extremes of Y - c = k q, k = h + 1 and k = -h at coefficient 0
  // (every other coefficient small too): a secret of the largest weight h
  // the parameters allow (N for the ternary one) and a ciphertext of
  // coefficients q - 1 = -1 mod q where each term of Y_0 is largest.
  const int N = int(p.N()), h = int(p.maxSecretWeight());
  rt::BigPoly minusOne(c.logN, logQ);
  for (uint64_t &x : minusOne.words) x = ~uint64_t(0);
  minusOne.maskTop();
  auto extreme = [&](bool top) {
    rt::SecretKey sk;
    sk.logN = c.logN;
    sk.s.assign(size_t(N), 0);
    rt::Ciphertext ct = fresh;
    ct.keySet = rt::KeySetId();
    ct.ax = rt::BigPoly(c.logN, logQ);
    ct.bx = rt::BigPoly(c.logN, logQ);
    // (ax s)_0 = ax_0 s_0 - sum_j ax_j s_(N-j).
    if (top) {  // Y_0 = (q - 1) + h (q - 1) = (h + 1) q - (h + 1)
      sk.s[0] = 1;
      for (int j = 1; j < h; ++j) sk.s[size_t(N - j)] = -1;
      for (int j = 0; j < h; ++j) std::copy(minusOne.coeff(0), minusOne.coeff(1), ct.ax.coeff(size_t(j)));
      std::copy(minusOne.coeff(0), minusOne.coeff(1), ct.bx.coeff(0));
    } else {  // Y_0 = -h (q - 1) = -h q + h
      for (int j = 1; j <= h; ++j) {
        // j = N is the term ax_0 s_0 (h = N only).
        sk.s[size_t((N - j) % N)] = j < N ? 1 : -1;
        std::copy(minusOne.coeff(0), minusOne.coeff(1), ct.ax.coeff(size_t(j % N)));
      }
    }
    rt::BigPoly ref = rt::decrypt(sk, ct);
    rt::BigPoly m = rt::decryptMessage(sk, ct, kernels);
    const char *what = top ? "k = h + 1" : "k = -h";
    EXPECT_EQ(m.logq, w) << what;
    EXPECT_TRUE(rt::signExtend(m, logQ) == ref) << what;
    mpz_t v;
    mpz_init(v);
    ref.get(0, v, /*centered=*/true);
    EXPECT_EQ(mpz_get_si(v), top ? -(h + 1) : h) << what;
    mpz_clear(v);
  };
  extreme(true);
  extreme(false);
}

// A message wrong by j 2^w at some coefficients passes the narrow check
// only if k + j 2^(w - logq) (+- 2^(b - logq), r's other reading) mod p is
// an allowed k in [-h, h + 1] (Client.h). |m| < q/2 and |c| <= 2^(w-1)
// leave 0 < |j| <= 2^(logq - w - 1): for the test's primes and levels, no
// such j up to 2^16 comes within 2h + 1 of a multiple of p, for h = 64 and
// for the ternary secret's largest weight h = N.
TEST(NarrowDecryption, SmallOverflowsAreAlwaysRefused) {
  for (const char *target : {"cpu", "cpu-avx512"})
    for (auto [logN, logH] : {std::pair{10, 6}, std::pair{12, 6}, std::pair{16, 6}, std::pair{10, 10},
                              std::pair{12, 12}, std::pair{16, 16}}) {
      const int64_t h = int64_t(1) << logH;
      const unsigned primeBits = lookupTarget(target)->primeBits;
      const int w = int(planDecryptWindows(1200, unsigned(logH), primeBits).front().bits), b = int(primeBits) - 1;
      const uint64_t p = rt::nttPrimes(logN, int(primeBits), 1)[0];
      auto pow2 = [&](int64_t e) {  // 2^e mod p, e may be negative
        return rt::powMod(e >= 0 ? 2 : (p + 1) / 2, uint64_t(e >= 0 ? e : -e), p);
      };
      for (int logq : {w + 1, 300, 600, 900, 1170, 1200}) {
        if (logq <= w) continue;  // one window: no narrow decryption there
        const uint64_t step = pow2(w - logq), other = pow2(b - logq);
        const int64_t most = int64_t(1) << std::min(16, logq - w - 1);
        for (int64_t j = 1; j <= most; ++j)
          for (uint64_t d : {rt::mulMod(uint64_t(j), step, p), p - rt::mulMod(uint64_t(j), step, p)})  // +-j
            for (uint64_t delta : {d, (d + other) % p, (d + p - other) % p})
              ASSERT_TRUE(delta > uint64_t(2 * h + 1) && p - delta > uint64_t(2 * h + 1))
                  << target << ", logN " << logN << ", h " << h << ", logq " << logq << ": j = +-" << j << " passes";
      }
    }
}

// Decryption's bit-windows cover ax exactly, each product within its basis.
TEST(DecryptWindows, CoverTheModulusWithinTheirBases) {
  for (unsigned primeBits : {50u, 60u})
    for (unsigned logq : {1u, 14u, 40u, 300u, 1200u, 2400u})
      for (unsigned logH : {0u, 6u, 16u}) {
        std::vector<DecryptWindow> w = planDecryptWindows(logq, logH, primeBits);
        ASSERT_FALSE(w.empty());
        int64_t next = 0;
        for (const DecryptWindow &x : w) {
          EXPECT_EQ(x.offset, next);
          EXPECT_GE(x.bits, 1);
          EXPECT_GE(int64_t(x.basisBits), int64_t(logH) + x.bits + 2);
          next = x.offset + x.bits;
        }
        EXPECT_EQ(next, int64_t(logq)) << "logq " << logq << ", logH " << logH << ", " << primeBits << "-bit primes";
        // A window alone asks for what it needs: within the key basis, whose prefix its secret is.
        if (w.size() == 1) {
          EXPECT_EQ(w[0].basisBits, logH + logq + 2) << "logq " << logq;
        }
      }
  // The paper's size on IFMA: five windows of five 50-bit primes (25 NTT rows).
  std::vector<DecryptWindow> paper = planDecryptWindows(1200, 6, 50);
  EXPECT_EQ(paper.size(), 5u);
  EXPECT_EQ(paper.front().bits, 241);
}

INSTANTIATE_TEST_SUITE_P(Targets, ClientKernelsTest,
                         ::testing::Values(Case{"cpu", 10, 300}, Case{"cpu-avx512", 10, 300, 1, 64},
                                           Case{"cpu", 12, 600, 1, 64}, Case{"cpu-avx512", 12, 600},
                                           Case{"cpu", 10, 300, 3}, Case{"cpu-avx512", 10, 300, 3, 64}),
                         [](const auto &info) {
                           std::string t = info.param.target;
                           std::replace(t.begin(), t.end(), '-', '_');
                           return t + "_logN" + std::to_string(info.param.logN) +
                                  (info.param.dnum > 1 ? "_dnum" + std::to_string(info.param.dnum) : "") +
                                  (info.param.h ? "_h" + std::to_string(info.param.h) : "_ternary");
                         });

} // namespace
