// Kernel-level programs (fhe dialect) compiled with each lowering decision
// and run on random and extreme inputs: the CRT -> iCRT round trip at the
// edge of the iCRT's exactness bound, and the NTT-based negacyclic product
// against the GMP reference, for both CRT/iCRT loop orders, several NTT level
// groupings, incomplete NTTs and the iCRT scaling folded into the iNTT.
#include "E2EUtil.h"
#include "../runtime/TestUtil.h"

#include "fhec/runtime/Reference.h"

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
// starts its columns above zero.
constexpr int kShift = 200;
std::string shifted(const Variant &v) {
  std::string a = std::string(v.order) + (*v.order ? ", " : "") + "shift = " + std::to_string(kShift);
  return "{" + a + "}";
}

std::string attrs(const Variant &v, bool ntt) {
  std::string a;
  if (!ntt && *v.order) a = v.order;
  if (ntt && *v.levels) a = std::string("levels = array<i64: ") + v.levels + ">";
  return a.empty() ? "" : "{" + a + "}";
}

// round trip: icrt(crt(x)) = x and icrt(-crt(x)) = -x mod q, with a basis just
// above 16 q: |X| reaches P/16, the bound the iCRT's estimate of k relies on;
// with a shift (fhe-fuse's folding of a poly_shr), floor(X / 2^s) of both.
// product: icrt(intt(ntt(crt(a)) * ntt(crt(b)))) = a * b mod (X^N + 1, q).
std::string program(const Variant &v) {
  int rtBits = v.logq + 4, prodBits = kLogN + 2 * v.logq + 4;
  std::string p = poly(v.logq), c = rns(rtBits, "coeff"), pc = rns(prodBits, "coeff"),
              pe = rns(prodBits, "eval", v.incomplete), ps = rns(prodBits, v.scaled ? "coeff_scaled" : "coeff");
  return llvm::formatv(R"(
module attributes {{ckks.params = #ckks.params<logN = {0}, logQ = {1}, logp = 30>} {{
  func.func @roundtrip(%x: {2} {{fhe.role = "x"}) -> ({2}, {2}, {9}, {9}) {{
    %c = fhe.crt %x {3} : {2} -> {4}
    %r = fhe.icrt %c {3} : {4} -> {2}
    %z = fhe.sub %c, %c : {4}
    %n = fhe.sub %z, %c : {4}
    %rn = fhe.icrt %n {3} : {4} -> {2}
    %s = fhe.icrt %c {10} : {4} -> {9}
    %sn = fhe.icrt %n {10} : {4} -> {9}
    return %r, %rn, %s, %sn : {2}, {2}, {9}, {9}
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
                       shifted(v))
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
  ASSERT_EQ(rt.size(), 4u);
  EXPECT_TRUE(rt[0] == x) << "icrt(crt(x)) != x";
  EXPECT_TRUE(rt[1] == rt::negate(x)) << "icrt(-crt(x)) != -x";
  EXPECT_TRUE(rt[2] == rt::shiftRight(x, kShift)) << "icrt{shift}(crt(x)) != x >> shift";
  EXPECT_TRUE(rt[3] == rt::shiftRight(rt::negate(x), kShift)) << "icrt{shift}(-crt(x)) != floor(-x / 2^shift)";

  rt::BigPoly a = rt::test::randomPoly(kLogN, v.logq, rng), b = rt::test::randomPoly(kLogN, v.logq, rng);
  std::fill(a.coeff(0), a.coeff(0) + a.limbs(), ~uint64_t(0));
  a.maskTop();
  b = a;  // a * a with all-ones coefficients pushes |X| towards the product bound
  std::fill(b.coeff(5), b.coeff(5) + b.limbs(), 0);
  auto prod = exec.runPolys("product", {a, b});
  ASSERT_EQ(prod.size(), 1u);
  EXPECT_TRUE(prod[0] == rt::negacyclicProduct(a, b, v.logq)) << "product differs from the GMP reference";
}

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
