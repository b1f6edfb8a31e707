// Kernel-level programs (fhe dialect) compiled with each lowering decision
// and run on random and extreme inputs: the CRT -> iCRT round trip at the
// edge of the iCRT's exactness bound, and the NTT-based negacyclic product
// against the GMP reference, for both CRT/iCRT loop orders, several NTT level
// groupings, incomplete NTTs and the iCRT scaling folded into the iNTT.
#include "E2EUtil.h"
#include "../runtime/TestUtil.h"

#include "fhec/runtime/Reference.h"

#include <gmpxx.h>

using namespace fhec;
using namespace fhec::test;

namespace {

struct Variant {
  const char *name;
  const char *order;   // crt/icrt attributes, "" for the default (operand_scan)
  const char *levels;  // ntt/intt levels attribute, "" for one stage per level
  int incomplete;      // skipped NTT stages
  bool scaled;         // iNTT produces coeff_scaled (fhe-fuse's folding)
  bool exactAlways = false;  // shifted digit iCRTs always take their exact path
  int logq = 300;            // coefficient bits
};

constexpr int kLogN = 10;

std::string poly(int logq) { return llvm::formatv("!fhe.poly<logN = {0}, logq = {1}>", kLogN, logq).str(); }
std::string rns(int minBits, const char *domain, int incomplete = 0) {
  std::string inc = incomplete ? llvm::formatv(", incomplete = {0}", incomplete).str() : "";
  return llvm::formatv("!fhe.rns<logN = {0}, basis = <min_bits = {1}>, domain = {2}, layout = prime_major{3}>", kLogN,
                       minBits, domain, inc)
      .str();
}

// The shifted iCRT: more than three 52-bit digits, so that the digit form
// starts its columns above zero. kShiftWords: whole 32- and 64-bit words
// (the GPU's streamed limbs then take two digits each, not three).
constexpr int kShift = 200, kShiftWords = 256;
std::string shifted(const Variant &v, int shift = kShift, bool round = false) {
  std::string a = std::string(v.order) + (*v.order ? ", " : "") + "shift = " + std::to_string(shift);
  return "{" + a + (round ? ", round" : "") + "}";
}

std::string attrs(const Variant &v, bool ntt) {
  std::string a;
  if (!ntt && *v.order) a = v.order;
  if (ntt && *v.levels) a = std::string("levels = array<i64: ") + v.levels + ">";
  return a.empty() ? "" : "{" + a + "}";
}

// round trip: icrt(crt(x)) = x and icrt(-crt(x)) = -x mod q, with a basis just
// above 16 q: |X| reaches P/16, the bound the iCRT's estimate of k relies on;
// with a shift (fhe-fuse's folding of a poly_shr), floor(X / 2^s) of both;
// the BigInt rounded shift round(-x / 2^s), s within a word and at a word's
// end (the rounding bit is then bit 63 of the word below), and the iCRT with
// that rounded shift (fhe-fuse's folding of a rounded poly_shr).
// product: icrt(intt(ntt(crt(a)) * ntt(crt(b)))) = a * b mod (X^N + 1, q).
std::string program(const Variant &v) {
  int rtBits = v.logq + 4, prodBits = kLogN + 2 * v.logq + 4;
  std::string p = poly(v.logq), c = rns(rtBits, "coeff"), pc = rns(prodBits, "coeff"),
              pe = rns(prodBits, "eval", v.incomplete), ps = rns(prodBits, v.scaled ? "coeff_scaled" : "coeff");
  return llvm::formatv(R"(
module attributes {{ckks.params = #ckks.params<logN = {0}, logQ = {1}, logp = 30>} {{
  func.func @roundtrip(%x: {2} {{fhe.role = "x"}) -> ({2}, {2}, {9}, {9}, {11}, {9}, {11}, {11}) {{
    %c = fhe.crt %x {3} : {2} -> {4}
    %r = fhe.icrt %c {3} : {4} -> {2}
    %z = fhe.sub %c, %c : {4}
    %n = fhe.sub %z, %c : {4}
    %rn = fhe.icrt %n {3} : {4} -> {2}
    %s = fhe.icrt %c {10} : {4} -> {9}
    %sn = fhe.icrt %n {10} : {4} -> {9}
    %sw = fhe.icrt %n {12} : {4} -> {11}
    %hr = fhe.poly_shr %rn {{shift = {13} : i64, round} : {2} -> {9}
    %hw = fhe.poly_shr %rn {{shift = {14} : i64, round} : {2} -> {11}
    %swr = fhe.icrt %n {15} : {4} -> {11}
    return %r, %rn, %s, %sn, %sw, %hr, %hw, %swr : {2}, {2}, {9}, {9}, {11}, {9}, {11}, {11}
  }
  func.func @product(%a: {2} {{fhe.role = "a"}, %b: {2} {{fhe.role = "b"}) -> {2} {{
    %ca = fhe.crt %a {3} : {2} -> {5}
    %ea = fhe.ntt %ca {7} : {5} -> {6}
    %cb = fhe.crt %b {3} : {2} -> {5}
    %eb = fhe.ntt %cb {7} : {5} -> {6}
    %h = fhe.hadamard %ea, %eb : {6}
    %i = fhe.intt %h {7} : {6} -> {8}
    %r = fhe.icrt %i {3} : {8} -> {2}
    return %r : {2}
  }
})",
                       kLogN, v.logq, p, attrs(v, false), c, pc, pe, attrs(v, true), ps, poly(v.logq - kShift),
                       shifted(v), poly(v.logq - kShiftWords), shifted(v, kShiftWords), kShift, kShiftWords,
                       shifted(v, kShiftWords, /*round=*/true))
      .str();
}

class KernelBitExact : public ::testing::TestWithParam<std::tuple<Variant, const char *>> {};

TEST_P(KernelBitExact, RoundTripAndProduct) {
  auto [v, target] = GetParam();
  if (std::string why = cannotRun(target); !why.empty()) GTEST_SKIP() << why;
  CompileOptions o;
  o.target = target;
  o.optLevel = 0;  // the attributes above are the decisions under test
  if (v.exactAlways) o.passOptions["fhe-to-loops"] = "icrt-exact-always=true";
  Program prog = compileProgram(program(v), o);
  ASSERT_TRUE(prog.module);
  rt::Executor exec(*prog.module, rt::test::makeParams(kLogN, v.logq, 30));
  rt::SecureRandom rng;

  // Extremes: 0, 1, q - 1 (the largest |X| the basis bound allows), random.
  rt::BigPoly x = rt::test::randomPoly(kLogN, v.logq, rng);
  std::fill(x.coeff(0), x.coeff(0) + x.limbs(), ~uint64_t(0));
  std::fill(x.coeff(1), x.coeff(1) + x.limbs(), 0);
  x.coeff(2)[0] = 1;
  std::fill(x.coeff(2) + 1, x.coeff(2) + x.limbs(), 0);
  x.maskTop();
  auto rt = exec.runPolys("roundtrip", {x});
  ASSERT_EQ(rt.size(), 8u);
  const rt::BigPoly minusX = rt::negate(x);
  const rt::BigPoly roundedWords = rt::shiftRight(minusX, kShiftWords, /*round=*/true);
  EXPECT_TRUE(rt[0] == x) << "icrt(crt(x)) != x";
  EXPECT_TRUE(rt[1] == minusX) << "icrt(-crt(x)) != -x";
  EXPECT_TRUE(rt[2] == rt::shiftRight(x, kShift)) << "icrt{shift}(crt(x)) != x >> shift";
  EXPECT_TRUE(rt[3] == rt::shiftRight(minusX, kShift)) << "icrt{shift}(-crt(x)) != floor(-x / 2^shift)";
  EXPECT_TRUE(rt[4] == rt::shiftRight(minusX, kShiftWords))
      << "icrt{shift = " << kShiftWords << "}(-crt(x)) != floor(-x / 2^shift)";
  EXPECT_TRUE(rt[5] == rt::shiftRight(minusX, kShift, /*round=*/true)) << "poly_shr{round} != round(-x / 2^s)";
  EXPECT_TRUE(rt[6] == roundedWords) << "poly_shr{shift = " << kShiftWords << ", round} != round(-x / 2^s)";
  EXPECT_TRUE(rt[7] == roundedWords) << "icrt{shift = " << kShiftWords << ", round}(-crt(x)) != round(-x / 2^s)";

  rt::BigPoly a = rt::test::randomPoly(kLogN, v.logq, rng), b = rt::test::randomPoly(kLogN, v.logq, rng);
  std::fill(a.coeff(0), a.coeff(0) + a.limbs(), ~uint64_t(0));
  a.maskTop();
  b = a;  // a * a with all-ones coefficients pushes |X| towards the product bound
  std::fill(b.coeff(5), b.coeff(5) + b.limbs(), 0);
  auto prod = exec.runPolys("product", {a, b});
  ASSERT_EQ(prod.size(), 1u);
  EXPECT_TRUE(prod[0] == rt::negacyclicProduct(a, b, v.logq)) << "product differs from the GMP reference";
}

// The client side's forms (encryption: round((v pk + e) / 2^s) with a
// ternary v): a centered CRT of a small signed polynomial and of a full-width
// one, and a rounded, shifted iCRT with and without an addend e.
std::string clientProgram(const Variant &v) {
  int prodBits = kLogN + 2 * v.logq + 4;
  std::string pc = rns(prodBits, "coeff"), pe = rns(prodBits, "eval", v.incomplete),
              ps = rns(prodBits, v.scaled ? "coeff_scaled" : "coeff");
  std::string sep = *v.order ? ", " : "";
  std::string crt = "{" + std::string(v.order) + sep + "centered}";
  std::string icrt = "{" + std::string(v.order) + sep + "shift = " + std::to_string(kShift) + ", round}";
  return llvm::formatv(R"(
module attributes {{ckks.params = #ckks.params<logN = {0}, logQ = {1}, logp = 30>} {{
  func.func @client(%v: {2} {{fhe.role = "v"}, %a: {3} {{fhe.role = "a"}, %e: {4} {{fhe.role = "e"})
      -> ({5}, {5}, {6}) {{
    %cv = fhe.crt %v {7} : {2} -> {8}
    %ev = fhe.ntt %cv {11} : {8} -> {9}
    %ca = fhe.crt %a {12} : {3} -> {8}
    %ea = fhe.ntt %ca {11} : {8} -> {9}
    %h = fhe.hadamard %ev, %ea : {9}
    %i = fhe.intt %h {11} : {9} -> {10}
    %r = fhe.icrt %i plus %e {13} : {10}, {4} -> {5}
    %rr = fhe.icrt %i {13} : {10} -> {5}
    %cw = fhe.crt %a {7} : {3} -> {8}
    %w = fhe.icrt %cw {12} : {8} -> {6}
    return %r, %rr, %w : {5}, {5}, {6}
  }
})",
                       kLogN, v.logq, poly(2), poly(v.logq), poly(30), poly(v.logq + kLogN + 2 - kShift),
                       poly(v.logq + 8), crt, pc, pe, ps, attrs(v, true), attrs(v, false), icrt)
      .str();
}

TEST_P(KernelBitExact, CenteredCrtAndRoundedIcrt) {
  auto [v, target] = GetParam();
  if (std::string why = cannotRun(target); !why.empty()) GTEST_SKIP() << why;
  CompileOptions o;
  o.target = target;
  o.optLevel = 0;
  if (v.exactAlways) o.passOptions["fhe-to-loops"] = "icrt-exact-always=true";
  Program prog = compileProgram(clientProgram(v), o);
  ASSERT_TRUE(prog.module);
  rt::Executor exec(*prog.module, rt::test::makeParams(kLogN, v.logq, 30));
  rt::SecureRandom rng;
  const size_t N = size_t(1) << kLogN;
  std::vector<int8_t> tern = rng.zeroOne(N, 0.5);
  std::vector<int64_t> err(N);
  for (auto &x : err) x = int64_t(rng.below(1 << 20)) - (1 << 19);
  err[0] = -(int64_t(1) << 29);  // the addend's range: [-2^29, 2^29)
  err[1] = (int64_t(1) << 29) - 1;
  std::fill(tern.begin(), tern.begin() + 8, int8_t(-1));
  rt::BigPoly a = rt::test::randomPoly(kLogN, v.logq, rng);
  std::fill(a.coeff(0), a.coeff(0) + a.limbs(), ~uint64_t(0));  // top bit set: a negative centered value
  a.maskTop();
  std::fill(a.coeff(1), a.coeff(1) + a.limbs(), 0);
  auto out = exec.runPolys("client", {rt::test::fromSmall(tern, kLogN, 2), a, rt::test::fromSigned(err, kLogN, 30)});
  ASSERT_EQ(out.size(), 3u);

  // The exact v a (|v a| < N 2^logq) mod 2^L, L = logq + logN + 2 bits, then
  // round((X + e) / 2^s) and round(X / 2^s) mod 2^(L - s).
  const int L = v.logq + kLogN + 2;
  rt::BigPoly x = rt::negacyclicProductSmall(a, tern, L);
  rt::BigPoly withE(kLogN, L - kShift), plain(kLogN, L - kShift), centered(kLogN, v.logq + 8);
  mpz_t t, half;
  mpz_inits(t, half, nullptr);
  mpz_setbit(half, kShift - 1);
  for (size_t i = 0; i < N; ++i) {
    x.get(i, t);
    mpz_add(t, t, half);
    rt::BigPoly *dst[] = {&plain, &withE};
    for (int k = 0; k < 2; ++k) {
      mpz_t u;
      mpz_init(u);
      mpz_set(u, t);
      if (k) {
        mpz_t e;
        mpz_init_set_si(e, long(err[i]));
        mpz_add(u, u, e);
        mpz_clear(e);
      }
      mpz_fdiv_r_2exp(u, u, L);  // (X + ...) mod 2^L, then the shift
      mpz_fdiv_q_2exp(u, u, kShift);
      dst[k]->set(i, u);
      mpz_clear(u);
    }
    a.get(i, t, /*centered=*/true);
    centered.set(i, t);
  }
  mpz_clears(t, half, nullptr);
  EXPECT_TRUE(out[0] == withE) << "icrt{shift, round} plus e differs from round((v a + e) / 2^s)";
  EXPECT_TRUE(out[1] == plain) << "icrt{shift, round} differs from round(v a / 2^s)";
  EXPECT_TRUE(out[2] == centered) << "icrt(crt{centered}(a)) differs from a read in [-q/2, q/2)";
}

// Hybrid key switching's balanced digits: digit j of a (mod 2^logq) is bits
// [jB, jB + w_j) of a + sum_{i<j} 2^(iB + B - 1), read centered by the CRT
// (poly_add_scalar, poly_shr, poly_reduce, crt {centered}: one fused kernel
// at -O2), checked through an iCRT to a wider modulus against the digits by
// their definition: each the residue in [-2^(B-1), 2^(B-1)) of what is left,
// the top one mod its width, centered.
constexpr int kDigitLogq = 290, kDigitBits = 100, kDigitWide = 120;

std::string digitsProgram() {
  std::string a = poly(kDigitLogq), c = rns(kDigitWide + 8, "coeff"), out = poly(kDigitWide);
  std::string body, rets, types;
  for (int j = 0; j < 3; ++j) {
    int width = std::min(kDigitBits, kDigitLogq - j * kDigitBits);
    mpz_class h = 0;
    for (int i = 0; i < j; ++i) h += mpz_class(1) << (i * kDigitBits + kDigitBits - 1);
    std::string x = "%a";
    if (j > 0) {
      body += llvm::formatv("    %y{0} = fhe.poly_add_scalar %a {{value = {1} : i{2}} : {3}\n", j, h.get_str(),
                            kDigitLogq, a);
      body += llvm::formatv("    %s{0} = fhe.poly_shr %y{0} {{shift = {1} : i64} : {2} -> {3}\n", j,
                            j * kDigitBits, a, poly(kDigitLogq - j * kDigitBits));
      x = llvm::formatv("%s{0}", j).str();
    }
    std::string from = j > 0 ? poly(kDigitLogq - j * kDigitBits) : a;
    body += llvm::formatv("    %d{0} = fhe.poly_reduce {1} : {2} -> {3}\n", j, x, from, poly(width));
    body += llvm::formatv("    %c{0} = fhe.crt %d{0} {{centered} : {1} -> {2}\n", j, poly(width), c);
    body += llvm::formatv("    %r{0} = fhe.icrt %c{0} : {1} -> {2}\n", j, c, out);
    rets += llvm::formatv("{0}%r{1}", j ? ", " : "", j).str();
    types += (j ? ", " : "") + out;
  }
  return llvm::formatv(R"(
module attributes {{ckks.params = #ckks.params<logN = {0}, logQ = {1}, logp = 30>} {{
  func.func @digits(%a: {2} {{fhe.role = "a"}) -> ({3}) {{
{4}    return {5} : {3}
  }
})",
                       kLogN, kDigitLogq, a, types, body, rets)
      .str();
}

class KernelDigits : public ::testing::TestWithParam<std::tuple<const char *, int>> {};

TEST_P(KernelDigits, BalancedDigitsMatchTheirDefinition) {
  auto [target, optLevel] = GetParam();
  if (std::string why = cannotRun(target); !why.empty()) GTEST_SKIP() << why;
  CompileOptions o;
  o.target = target;
  o.optLevel = optLevel;
  Program prog = compileProgram(digitsProgram(), o);
  ASSERT_TRUE(prog.module);
  rt::Executor exec(*prog.module, rt::test::makeParams(kLogN, kDigitLogq, 30));
  rt::SecureRandom rng;
  rt::BigPoly a = rt::test::randomPoly(kLogN, kDigitLogq, rng);
  // The carries' edges: digits at 2^(B-1) - 1, 2^(B-1), all ones; q - 1 (-1); q/2 (the most negative).
  const mpz_class one = 1, half = one << (kDigitBits - 1), digit = one << kDigitBits, q = one << kDigitLogq;
  std::vector<mpz_class> edges = {0, 1, half - 1, half, digit - 1, half * digit + half - 1, half * digit + half,
                                  digit * digit - 1, q - 1, q / 2, q / 2 - 1, q - half, q - half - 1};
  for (size_t i = 0; i < edges.size(); ++i) a.set(i, edges[i].get_mpz_t());
  auto out = exec.runPolys("digits", {a});
  ASSERT_EQ(out.size(), 3u);
  for (size_t i = 0; i < a.N(); ++i) {
    mpz_class rest;
    a.get(i, rest.get_mpz_t(), /*centered=*/true);
    for (int j = 0; j < 3; ++j) {
      const mpz_class m = one << std::min(kDigitBits, kDigitLogq - j * kDigitBits);
      mpz_class r;
      mpz_fdiv_r(r.get_mpz_t(), rest.get_mpz_t(), m.get_mpz_t());
      if (r >= m / 2) r -= m;
      rest = (rest - r) / m;
      mpz_class got;
      out[size_t(j)].get(i, got.get_mpz_t(), /*centered=*/true);
      ASSERT_TRUE(got == r) << target << " -O" << optLevel << ": coefficient " << i << ", digit " << j << ": "
                            << got.get_str() << " != " << r.get_str();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, KernelDigits,
                         ::testing::Combine(::testing::Values("cpu", "cpu-avx512", "cuda-emu"), ::testing::Values(0, 2)),
                         [](const auto &info) {
                           std::string t = std::get<0>(info.param);
                           std::replace(t.begin(), t.end(), '-', '_');
                           return t + "_O" + std::to_string(std::get<1>(info.param));
                         });

// A product with a constant (a linear transform's diagonal times a
// ciphertext polynomial): a * k mod (X^N + 1, 2^logq), k a 64-bit signed
// constant read centered. At -O1 and above fhe-hoist-constants moves k's CRT
// and NTT into __fhec_constants_prepare, which the executor runs once when it
// is made; the call reads the prepared value (role const0), and a second
// call and a second executor give the same words.
constexpr int kConstLogq = 100;

std::vector<int64_t> constantCoefficients() {
  std::vector<int64_t> k(size_t(1) << kLogN);
  for (size_t i = 0; i < k.size(); ++i) k[i] = int64_t(i * 7919 % 2001) - 1000;
  k[0] = INT64_MAX, k[1] = INT64_MIN + 1, k[2] = -1;  // the widest magnitudes a 64-bit constant holds
  return k;
}

std::string constantProgram() {
  std::string values;
  for (int64_t c : constantCoefficients()) values += (values.empty() ? "" : ", ") + std::to_string(c);
  int prodBits = kLogN + kConstLogq + 64 + 2;
  std::string p = poly(kConstLogq), k = poly(64), c = rns(prodBits, "coeff"), e = rns(prodBits, "eval");
  return llvm::formatv(R"(
module attributes {{ckks.params = #ckks.params<logN = {0}, logQ = {1}, logp = 30>} {{
  func.func @times_constant(%a: {2} {{fhe.role = "a"}) -> {2} {{
    %k = fhe.poly_constant {{value = dense<[{6}]> : tensor<{7}xi64>} : {3}
    %ck = fhe.crt %k {{centered} : {3} -> {4}
    %ek = fhe.ntt %ck : {4} -> {5}
    %ca = fhe.crt %a : {2} -> {4}
    %ea = fhe.ntt %ca : {4} -> {5}
    %h = fhe.hadamard %ea, %ek : {5}
    %i = fhe.intt %h : {5} -> {4}
    %r = fhe.icrt %i : {4} -> {2}
    return %r : {2}
  }
})",
                       kLogN, kConstLogq, p, k, c, e, values, size_t(1) << kLogN)
      .str();
}

class KernelConstants : public ::testing::TestWithParam<std::tuple<const char *, int>> {};

TEST_P(KernelConstants, PreparedOnceWhenTheModuleLoads) {
  auto [target, optLevel] = GetParam();
  if (std::string why = cannotRun(target); !why.empty()) GTEST_SKIP() << why;
  CompileOptions o;
  o.target = target;
  o.optLevel = optLevel;
  Program prog = compileProgram(constantProgram(), o);
  ASSERT_TRUE(prog.module);
  const rt::Manifest &m = prog.module->manifest();
  const rt::ManifestFunction *f = m.find("times_constant");
  ASSERT_TRUE(f);
  const bool hoisted = optLevel > 0;
  EXPECT_EQ(m.find(fhec::abi::kConstantsPrepareFunc) != nullptr, hoisted);
  EXPECT_EQ(std::count_if(f->args.begin(), f->args.end(), [](const rt::ManifestArg &a) { return a.role == "const0"; }),
            hoisted ? 1 : 0);
  rt::SecureRandom rng;
  rt::BigPoly a = rt::test::randomPoly(kLogN, kConstLogq, rng);
  std::fill(a.coeff(0), a.coeff(0) + a.limbs(), ~uint64_t(0));
  a.maskTop();
  const rt::BigPoly want =
      rt::negacyclicProduct(a, rt::test::fromSigned(constantCoefficients(), kLogN, kConstLogq), kConstLogq);
  const rt::Params params = rt::test::makeParams(kLogN, kConstLogq, 30);
  rt::Executor exec(*prog.module, params);
  for (int call = 0; call < 2; ++call) {
    auto out = exec.runPolys("times_constant", {a});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(out[0] == want) << target << " -O" << optLevel << ", call " << call << ": a k differs from the GMP reference";
  }
  rt::Executor second(*prog.module, params);
  EXPECT_TRUE(second.runPolys("times_constant", {a})[0] == want) << "a second executor's prepared constant differs";
}

INSTANTIATE_TEST_SUITE_P(Targets, KernelConstants,
                         ::testing::Combine(::testing::Values("cpu", "cpu-avx512", "cuda-emu"), ::testing::Values(0, 2)),
                         [](const auto &info) {
                           std::string t = std::get<0>(info.param);
                           std::replace(t.begin(), t.end(), '-', '_');
                           return t + "_O" + std::to_string(std::get<1>(info.param));
                         });

// On cpu-avx512, block 16 runs two vectors per pass, block 8 one, block 4
// and block 1 the scalar fallback; level groupings whose last forward level
// is shorter than six stages are regrouped for the in-register tail.
INSTANTIATE_TEST_SUITE_P(
    Variants, KernelBitExact,
    ::testing::Combine(
        ::testing::Values(Variant{"default", "", "", 0, false},
                          Variant{"matrix", "order = #fhe<order matrix>, block = 16", "", 0, false},
                          Variant{"matrix_block1", "order = #fhe<order matrix>, block = 1", "", 0, false},
                          Variant{"radix8", "", "3, 3, 3, 1", 0, false},
                          Variant{"radix16_scaled", "order = #fhe<order matrix>, block = 8", "4, 4, 2", 0, true},
                          Variant{"radix64_scaled", "order = #fhe<order matrix>, block = 64", "4, 6", 0, true},
                          Variant{"matrix_exact_icrt", "order = #fhe<order matrix>, block = 16", "", 0, false, true},
                          // 24 input digits (the CRT's high sum reaches past 2^104 on all-ones
                          // coefficients), odd bases of 25 and 49 primes on cpu-avx512.
                          Variant{"matrix_logq1200", "order = #fhe<order matrix>, block = 16", "", 0, true, false, 1200},
                          Variant{"radix1024", "", "10", 0, false},
                          Variant{"incomplete1", "", "3, 3, 3", 1, false},
                          Variant{"incomplete2_scaled", "order = #fhe<order matrix>, block = 4", "4, 4", 2, true}),
        // cuda-emu: the GPU NTT (a launch per level, sub-levels through shared
        // memory) on every grouping, incomplete and scaled, on the CPU.
        ::testing::Values("cpu", "cpu-avx512", "cuda-emu")),
    [](const auto &info) {
      std::string t = std::get<1>(info.param);
      std::replace(t.begin(), t.end(), '-', '_');
      return std::string(std::get<0>(info.param).name) + "_" + t;
    });

} // namespace
