// Compiled HE programs are bit-identical to the GMP reference, at several ring
// dimensions and moduli (both regions of HE Mul), and decrypt to the plaintext result.
#include "E2EUtil.h"
#include "../runtime/TestUtil.h"

#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Keys.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <map>

using namespace fhec;
using namespace fhec::test;
using fhec::rt::test::makeParams;

namespace {

struct Case {
  int logN, logQ, logp, logq;
};

// A compilation configuration: a target, an -O level, optionally minus one
// pass or with options of fhe-fuse, and threads.
struct Config {
  std::string name;
  unsigned optLevel;
  const char *disabled;  // nullptr: none
  int threads;           // 0: all cores
  const char *target = "cpu";
  bool cudaArithmeticOnHost = false;
  const char *fuseOptions = nullptr;  // fhe-fuse's options
  CompileOptions options() const {
    CompileOptions o;
    o.target = target;
    o.cudaArithmeticOnHost = cudaArithmeticOnHost;
    o.optLevel = optLevel;
    if (disabled) o.disabledPasses.push_back(disabled);
    if (fuseOptions) o.passOptions["fhe-fuse"] = fuseOptions;
    return o;
  }
};

// Per target: -O0 and -O2 on 1 and 2 threads, and -O2 without each
// optimization pass in turn. cpu-avx512 configurations skip on a CPU
// without its features.
std::vector<Config> configs() {
  std::vector<Config> c;
  for (auto [target, prefix] : {std::pair{"cpu", ""}, std::pair{"cpu-avx512", "avx512_"}}) {
    std::string p = prefix;
    for (unsigned level : {0u, 2u})
      for (int threads : {1, 2})
        c.push_back({p + "O" + std::to_string(level) + "_" + std::to_string(threads) + "thread" + (threads > 1 ? "s" : ""),
                     level, nullptr, threads, target});
    for (const OptimizationPass &pass : optimizationPasses()) {
      std::string name = p + "O2_no_" + pass.name;
      std::replace(name.begin(), name.end(), '-', '_');
      c.push_back({name, 2, pass.name, 0, target});
    }
    // fhe-fuse without its row pipelines: the transform and residue kernels on their own.
    c.push_back({p + "O2_no_rows", 2, nullptr, 0, target, false, "rows=false"});
  }
  // The cuda target's arithmetic (30-bit primes, i32 words, Shoup base 2^32,
  // 32-bit digit CRT/iCRT) through the host's loops, before its GPU mapping.
  for (unsigned level : {0u, 2u})
    c.push_back({"cuda_arithmetic_O" + std::to_string(level), level, nullptr, 0, "cuda-emu", true});
  return c;
}

// The cuda target's kernels as GPU grids (blocks x threads, outlined,
// launched through the runtime) run on the CPU: small sizes only.
std::vector<Config> cudaEmuConfigs() {
  std::vector<Config> c;
  for (unsigned level : {0u, 2u})
    c.push_back({"cuda_emu_O" + std::to_string(level), level, nullptr, 0, "cuda-emu"});
  return c;
}

#define SKIP_UNLESS_RUNNABLE(config)                                                                                   \
  if (std::string why = cannotRun((config).target); !why.empty()) GTEST_SKIP() << why

std::string mulRescaleProgram(const Case &c, int slots) {
  std::string in = ct(c.logN, c.logq, c.logp, slots), wide = ct(c.logN, c.logq, 2 * c.logp, slots),
              out = ct(c.logN, c.logq - c.logp, c.logp, slots);
  return llvm::formatv(R"(
module attributes {{ckks.params = #ckks.params<logN = {0}, logQ = {1}, logp = {2}>} {{
  func.func @f(%a: {3}, %b: {3}) -> ({5}, {4}) {{
    %m = ckks.mul %a, %b : ({3}, {3}) -> {4}
    %r = ckks.rescale %m : {4} -> {5}
    return %r, %m : {5}, {4}
  }
})",
                       c.logN, c.logQ, c.logp, in, wide, out)
      .str();
}

// Encrypts random inputs, runs `name` compiled and in the reference, checks
// both. Output k of `reduceTo` (a modulus raise's, which decrypts to m + q I)
// has its decryption reduced mod 2^reduceTo[k] = q before decoding.
void checkProgram(Program &prog, const std::string &name, const rt::Params &params, double maxError,
                  const std::map<size_t, int> &reduceTo = {}) {
  rt::SecureRandom rng;
  rt::KeySet keys = rt::generateKeys(params, rng);
  mlir::func::FuncOp f = prog.func(name);
  ASSERT_TRUE(f);
  std::vector<rt::Ciphertext> inputs;
  std::vector<std::vector<rt::Complex>> messages;
  for (mlir::Type t : f.getArgumentTypes()) {
    auto c = mlir::cast<ckks::CiphertextType>(t);
    std::vector<rt::Complex> z(c.getSlots());
    for (auto &x : z) x = rt::Complex(2 * rng.uniformReal() - 1, 2 * rng.uniformReal() - 1);
    inputs.push_back(rt::encrypt(params, keys.pk, rt::encode(z, params.logN, int(c.getLogp()), int(c.getLogq())),
                                 int(c.getLogp()), int(c.getSlots()), rng));
    messages.push_back(z);
  }
  for (uint64_t g : galoisElements(f)) keys.rotationKeys[g] = rt::generateRotationKey(params, keys.sk, g, rng);
  for (int q0 : encapsulationModuli(f))
    keys.encapsulationKeys[q0] = rt::generateEncapsulationKey(params, keys.sk, q0, rng);
  rt::Executor exec(*prog.module, params);
  exec.setEvalKey(keys.evk);
  for (const auto &[g, rk] : keys.rotationKeys) exec.setRotationKey(rk);
  for (const auto &[q0, ek] : keys.encapsulationKeys) exec.setEncapsulationKey(ek);
  std::vector<rt::Ciphertext> got = exec.run(name, inputs);
  auto want = evaluateReference(f, params, EvaluationKeys::of(keys), inputs);
  ASSERT_TRUE(mlir::succeeded(want));
  ASSERT_EQ(got.size(), want->size());
  auto plain = evaluatePlain(f, messages);
  ASSERT_TRUE(mlir::succeeded(plain));
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(got[i] == (*want)[i]) << "output " << i << " differs from the GMP reference";
    rt::BigPoly m = rt::decrypt(keys.sk, got[i]);
    if (reduceTo.count(i)) m = rt::reduce(m, reduceTo.at(i));
    auto dec = rt::decode(m, got[i].slots, got[i].logp);
    double err = 0;
    for (size_t s = 0; s < dec.size(); ++s) err = std::max(err, std::abs(dec[s] - (*plain)[i][s]));
    EXPECT_LT(err, maxError) << "output " << i;
  }
}

class HEMulBitExact : public ::testing::TestWithParam<std::tuple<Case, Config>> {};

TEST_P(HEMulBitExact, MatchesReference) {
  auto [c, config] = GetParam();
  SKIP_UNLESS_RUNNABLE(config);
  int slots = 1 << std::min(c.logN - 1, 10);
  Program prog = compileProgram(mulRescaleProgram(c, slots), config.options());
  ASSERT_TRUE(prog.module);
  if (config.threads) prog.module->setThreads(config.threads);
  rt::Params params = makeParams(c.logN, c.logQ, c.logp);
  // Noise is a few units at scale 2^logp for a secret of weight 64, and
  // grows as the square root of the weight (about 2N/3 for the ternary
  // secret); a wrong result would be off by ~1.
  const double weight = 2.0 * double(params.N()) / 3.0;
  checkProgram(prog, "f", params, std::max(1e-3, std::ldexp(1.0, 14 - c.logp) * std::sqrt(weight / 64)));
}

auto caseName = [](const Case &c) { return llvm::formatv("logN{0}_logQ{1}_logq{2}", c.logN, c.logQ, c.logq).str(); };

// logq from 60 to 1200 bits, N from 2^10 to 2^14; logq < logQ runs HE Mul below
// the top level (region 2 reads a prefix of the evaluation key's basis). Every
// size in every configuration; N = 2^16 (its tables, its NTT levels) in the
// -O2 configuration of each target. The paper's size (N = 2^16, logQ 1200) is
// the main job's (`fhec run examples/he_mul.mlir` checks it against the
// reference) and bench/'s, not a test's.
INSTANTIATE_TEST_SUITE_P(Sizes, HEMulBitExact,
                         ::testing::Combine(::testing::Values(Case{10, 60, 20, 60}, Case{10, 300, 30, 300},
                                                              Case{11, 600, 30, 450}, Case{12, 1200, 30, 1200},
                                                              Case{13, 130, 40, 130}, Case{14, 200, 30, 100}),
                                            ::testing::ValuesIn(configs())),
                         [](const auto &info) {
                           return caseName(std::get<0>(info.param)) + "_" + std::get<1>(info.param).name;
                         });

INSTANTIATE_TEST_SUITE_P(LargeRing, HEMulBitExact,
                         ::testing::Combine(::testing::Values(Case{16, 80, 30, 80}), ::testing::ValuesIn([] {
                                              std::vector<Config> c;
                                              for (const Config &k : configs())
                                                if (k.name == "O2_2threads" || k.name == "avx512_O2_2threads" ||
                                                    k.name == "cuda_arithmetic_O2")
                                                  c.push_back(k);
                                              return c;
                                            }())),
                         [](const auto &info) {
                           return caseName(std::get<0>(info.param)) + "_" + std::get<1>(info.param).name;
                         });

INSTANTIATE_TEST_SUITE_P(CudaEmu, HEMulBitExact,
                         ::testing::Combine(::testing::Values(Case{10, 60, 20, 60}, Case{10, 300, 30, 300},
                                                              Case{11, 600, 30, 450}, Case{12, 1200, 30, 1200}),
                                            ::testing::ValuesIn(cudaEmuConfigs())),
                         [](const auto &info) {
                           return caseName(std::get<0>(info.param)) + "_" + std::get<1>(info.param).name;
                         });

class ProgramBitExact : public ::testing::TestWithParam<Config> {};

TEST_P(ProgramBitExact, EveryCkksOp) {
  std::string a = ct(11, 200, 30, 256), a60 = ct(11, 200, 60, 256), b = ct(11, 170, 30, 256),
              c = ct(11, 140, 30, 256), b60 = ct(11, 170, 60, 256), e = ct(11, 166, 30, 256),
              e2 = ct(11, 166, 26, 512), h = ct(11, 170, 30, 128), lo = ct(11, 60, 30, 256),
              up = ct(11, 190, 30, 256), upd = ct(11, 180, 30, 256), k75 = ct(11, 200, 75, 256),
              k155 = ct(11, 155, 30, 256), p50 = ct(11, 155, 50, 256), p135 = ct(11, 135, 30, 256);
  std::string text = llvm::formatv(R"(
module attributes {{ckks.params = #ckks.params<logN = 11, logQ = 200, logp = 30>} {{
  func.func @g(%x: {0}, %y: {0}) -> ({4}, {2}, {6}, {7}, {10}, {14}) {{
    %s = ckks.add %x, %y : {0}
    %d = ckks.sub %x, %y : {0}
    %n = ckks.negate %d : {0}
    %m = ckks.mul %s, %n : ({0}, {0}) -> {1}
    %r = ckks.rescale %m : {1} -> {2}
    %k = ckks.mul_const %x {{value = -0.75 : f64} : {0} -> {1}
    %kr = ckks.rescale %k {{round} : {1} -> {2}
    %sq = ckks.mul %kr, %r : ({2}, {2}) -> {3}
    %sqr = ckks.rescale %sq {{round} : {3} -> {4}
    %dn = ckks.mod_down %r : {2} -> {4}
    %t = ckks.add %sqr, %dn : {4}
    %u = ckks.add_const %t {{value = 0.125 : f64} : {4}
    %i = ckks.mul_monomial %u {{k = 1024} : {4}
    %w = ckks.mul_monomial %kr {{k = 4092} : {2}
    %v = ckks.div_by_po2 %w : {2} -> {5}
    %v2 = ckks.relabel %v : {5} -> {6}
    %h = ckks.relabel %kr : {2} -> {7}
    %lo = ckks.mod_down %i : {4} -> {8}
    %up = ckks.mod_raise %lo : {8} -> {9}
    %upd = ckks.div_by_po2 %up : {9} -> {10}
    %k45 = ckks.mul_const %y {{value = 0.3 : f64} : {0} -> {11}
    %k45r = ckks.rescale %k45 : {11} -> {12}
    %p20 = ckks.mul_plain %k45r {{values = dense<(0.5, -0.25)> : tensor<256xcomplex<f64>>} : {12} -> {13}
    %p20r = ckks.rescale %p20 : {13} -> {14}
    return %i, %w, %v2, %h, %upd, %p20r : {4}, {2}, {6}, {7}, {10}, {14}
  }
})",
                                   a, a60, b, b60, c, e, e2, h, lo, up, upd, k75, k155, p50, p135)
                         .str();
  SKIP_UNLESS_RUNNABLE(GetParam());
  Program prog = compileProgram(text, GetParam().options());
  ASSERT_TRUE(prog.module);
  if (GetParam().threads) prog.module->setThreads(GetParam().threads);
  checkProgram(prog, "g", makeParams(11, 200, 30), 1e-3, {{4, 50}});  // (m + 2^60 I) / 2^10
}

TEST_P(ProgramBitExact, SigmoidExample) {
  SKIP_UNLESS_RUNNABLE(GetParam());
  std::string text;
  {
    std::string path = std::string(FHEC_SOURCE_DIR) + "/examples/sigmoid.mlir";
    auto buf = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(bool(buf)) << path;
    text = (*buf)->getBuffer().str();
  }
  Program prog = compileProgram(text, GetParam().options());
  ASSERT_TRUE(prog.module);
  if (GetParam().threads) prog.module->setThreads(GetParam().threads);
  checkProgram(prog, "sigmoid", makeParams(13, 240, 30), 1e-3);
}

// Slot values for mul_plain / add_plain: `dense<[...]>` of n reals or complexes.
std::string denseValues(int n, bool complex) {
  std::string out = "dense<[";
  for (int i = 0; i < n; ++i) {
    double re = std::sin(0.37 * i), im = std::cos(0.11 * i) / 2;
    out += (i ? ", " : "") + (complex ? llvm::formatv("({0:e}, {1:e})", re, im).str() : llvm::formatv("{0:e}", re).str());
  }
  return out + "]> : tensor<" + std::to_string(n) + (complex ? "xcomplex<f64>>" : "xf64>");
}

// Rotations (by 1 and 7 from one op, and by 1000 >= slots on a sparse
// ciphertext, at two levels), conjugation, plaintext products and sums, and add/sub/mul of
// operands at different levels and scales (ckks.add's alignment), with the
// key-switching form `keySwitch` and `dnum` digits (hybrid key switching when > 1),
// for the ternary secret or (h > 0) a sparse one of weight h.
std::string rotationsProgram(const std::string &keySwitch, int dnum = 1, int h = 0) {
  std::string a = ct(11, 200, 30, 256), a60 = ct(11, 200, 60, 256), b = ct(11, 170, 30, 256),
              b60 = ct(11, 170, 60, 256);
  return llvm::formatv(R"(
module attributes {{ckks.params = #ckks.params<logN = 11, logQ = 200, logp = 30, security = "none", keyswitch = "{6}"{7}>} {{
  func.func @h(%x: {0}, %y: {0}) -> ({3}, {3}, {0}) {{
    %r:2 = ckks.rotate %x [1, 7] : {0}
    %r2 = ckks.rotate %y [1000] : {0}
    %c = ckks.conjugate %x : {0}
    %p = ckks.mul_plain %r#0 {{values = {4}} : {0} -> {1}
    %pr = ckks.rescale %p : {1} -> {2}
    %q0 = ckks.add_plain %c {{values = {5}} : {0}
    %q = ckks.add %q0, %r#1 : {0}
    %s = ckks.add %pr, %q : ({2}, {0}) -> {2}
    %m = ckks.mul %s, %r2 : ({2}, {0}) -> {3}
    %t = ckks.sub %m, %x : ({3}, {0}) -> {3}
    %rot = ckks.rotate %t [5] : {3}
    return %t, %rot, %c : {3}, {3}, {0}
  }
})",
                       a, a60, b, b60, denseValues(256, false), denseValues(256, true), keySwitch,
                       (dnum > 1 ? ", dnum = " + std::to_string(dnum) : std::string()) +
                           (h ? ", secret = \"sparse\", h = " + std::to_string(h) : std::string()))
      .str();
}

TEST_P(ProgramBitExact, RotationsPlaintextsAndAlignment) {
  SKIP_UNLESS_RUNNABLE(GetParam());
  Program prog = compileProgram(rotationsProgram("centered"), GetParam().options());
  ASSERT_TRUE(prog.module);
  if (GetParam().threads) prog.module->setThreads(GetParam().threads);
  checkProgram(prog, "h", makeParams(11, 200, 30), 1e-3);
}

// HEAAN 2.1's form (unsigned decomposition, sparse secret of h = 64) stays
// bit-identical to its reference on every target.
TEST_P(ProgramBitExact, HeaanKeySwitching) {
  SKIP_UNLESS_RUNNABLE(GetParam());
  Program prog = compileProgram(rotationsProgram("heaan", 1, 64), GetParam().options());
  ASSERT_TRUE(prog.module);
  if (GetParam().threads) prog.module->setThreads(GetParam().threads);
  checkProgram(prog, "h", makeParams(11, 200, 30, 64), 1e-3);
}

// Hybrid key switching (dnum > 1): the balanced digits (centered form, dnum =
// 3: logP = 67, three digits at every level used here, the top one 66, 36 or
// 6 bits wide) and the unsigned ones (HEAAN's form, dnum = 2), with keys of
// dnum parts, bit-identical to the reference on every target.
TEST_P(ProgramBitExact, HybridKeySwitching) {
  SKIP_UNLESS_RUNNABLE(GetParam());
  for (auto [form, dnum] : {std::pair{"centered", 3}, std::pair{"heaan", 2}}) {
    Program prog = compileProgram(rotationsProgram(form, dnum), GetParam().options());
    ASSERT_TRUE(prog.module);
    if (GetParam().threads) prog.module->setThreads(GetParam().threads);
    rt::Params p = makeParams(11, 200, 30);
    p.dnum = dnum;
    checkProgram(prog, "h", p, 1e-3);
  }
}

// ckks.poly_eval (expanded by ckks-expand-poly-eval into its managed
// baby-step giant-step sequence): a Chebyshev series on [-2, 2] (depth 4 + 1)
// and a power-basis polynomial with a +-1 coefficient on [-1, 1] (depth 3).
TEST_P(ProgramBitExact, PolynomialEvaluation) {
  SKIP_UNLESS_RUNNABLE(GetParam());
  std::string a = ct(11, 200, 30, 256), r5 = ct(11, 50, 30, 256), r3 = ct(11, 110, 30, 256);
  std::string text = llvm::formatv(R"(
module attributes {{ckks.params = #ckks.params<logN = 11, logQ = 200, logp = 30, security = "none">} {{
  func.func @p(%x: {0}) -> ({1}, {2}) {{
    %c = ckks.poly_eval %x {{basis = "chebyshev", domain = array<f64: -2.0, 2.0>,
                            coefficients = array<f64: 0.1, 0.5, -0.25, 0.125, 0.0, 0.3, 0.05, -0.02, 0.01, 0.004, -0.002>}
        : {0} -> {1}
    %q = ckks.poly_eval %x {{basis = "power", coefficients = array<f64: 0.5, -1.0, 0.0, 0.25, 0.0, -0.125>} : {0} -> {2}
    return %c, %q : {1}, {2}
  }
})",
                                   a, r5, r3)
                         .str();
  Program prog = compileProgram(text, GetParam().options());
  ASSERT_TRUE(prog.module);
  if (GetParam().threads) prog.module->setThreads(GetParam().threads);
  checkProgram(prog, "p", makeParams(11, 200, 30), 1e-3);
}

// ckks.linear_transform by baby-step giant-step: the plan's own baby step
// (six diagonals, two of them wrapping) and a given one, on real and complex
// diagonals; the inner sums are accumulated in the evaluation domain, and so
// are the giant rotations' key-switch products (two and three of them), with
// one key-switching digit and with hybrid key switching's three (double
// hoisting). The third has four products per giant step: on GPU targets the
// baby rotations' digit-product sums then feed lazy sums of products.
TEST_P(ProgramBitExact, LinearTransform) {
  SKIP_UNLESS_RUNNABLE(GetParam());
  std::string a = ct(11, 200, 30, 256), a60 = ct(11, 200, 60, 256);
  auto diagonals = [](int k, bool complex) {
    std::string out = "dense<[";
    for (int i = 0; i < k; ++i) {
      out += i ? ", [" : "[";
      for (int j = 0; j < 256; ++j) {
        double re = std::sin(0.37 * j + i) / 2, im = std::cos(0.11 * j * (i + 1)) / 4;
        out += (j ? ", " : "") + (complex ? llvm::formatv("({0:e}, {1:e})", re, im).str() : llvm::formatv("{0:e}", re).str());
      }
      out += "]";
    }
    return out + "]> : tensor<" + std::to_string(k) + "x256x" + (complex ? "complex<f64>>" : "f64>");
  };
  for (int dnum : {1, 3}) {
    std::string text = llvm::formatv(R"(
module attributes {{ckks.params = #ckks.params<logN = 11, logQ = 200, logp = 30, security = "none", dnum = {4}>} {{
  func.func @l(%x: {0}) -> ({1}, {1}, {1}) {{
    %y = ckks.linear_transform %x {{offsets = array<i64: 0, 1, 2, 3, 5, 200>, diagonals = {2}} : {0} -> {1}
    %z = ckks.linear_transform %x {{offsets = array<i64: 1, 4, 9, 250>, diagonals = {3}, baby_step = 4 : i64} : {0} -> {1}
    %w = ckks.linear_transform %x {{offsets = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, diagonals = {5}, baby_step = 4 : i64} : {0} -> {1}
    return %y, %z, %w : {1}, {1}, {1}
  }
})",
                                     a, a60, diagonals(6, false), diagonals(4, true), dnum, diagonals(8, false))
                           .str();
    Program prog = compileProgram(text, GetParam().options());
    ASSERT_TRUE(prog.module);
    if (GetParam().threads) prog.module->setThreads(GetParam().threads);
    rt::Params p = makeParams(11, 200, 30);
    p.dnum = dnum;
    checkProgram(prog, "l", p, 1e-3);
  }
}

// A function @boot bootstrapping a logN 12, logq 90 ciphertext of `slots`
// (mod_logq 42 and `attrs`) to `outLogq`, at logQ, bit-exact against the GMP
// reference and within 2^-14 of the input's slots, with HEAAN's sparse secret
// (h = 64: ModRaise under it) or the ternary one (h = 0: ModRaise under an
// ephemeral sparse secret, sparse-secret encapsulation). An EvalMod failure
// (|I| beyond the bound) would leave an error near 1 in its slot: the max
// error bound counts none in every slot. dnum > 1: hybrid key switching,
// whose linear transforms are double-hoisted.
void checkBootstrap(const Config &config, unsigned logQ, unsigned slots, const std::string &attrs, unsigned outLogq,
                    int h, int dnum = 1) {
  std::string in = ct(12, 90, 30, slots), out = ct(12, outLogq, 30, slots);
  std::string secret = h ? ", secret = \"sparse\", h = " + std::to_string(h) : std::string();
  if (dnum > 1) secret += ", dnum = " + std::to_string(dnum);
  std::string text = llvm::formatv(R"(
module attributes {{ckks.params = #ckks.params<logN = 12, logQ = {2}, logp = 30{4}>} {{
  func.func @boot(%x: {0}) -> {1} {{
    %r = ckks.bootstrap %x {{mod_logq = 42{3}} : {0} -> {1}
    return %r : {1}
  }
})",
                                   in, out, logQ, attrs, secret)
                         .str();
  Program prog = compileProgram(text, config.options());
  ASSERT_TRUE(prog.module);
  rt::Params p = makeParams(12, logQ, 30, h);
  p.dnum = dnum;
  checkProgram(prog, "boot", p, std::ldexp(1.0, -14));
}

// ckks.bootstrap, expanded (ModRaise, SubSum, CoeffToSlot, EvalMod,
// SlotToCoeff), at logN 12 with 8 slots (2^-17 measured), for both secrets.
class BootstrapBitExact : public ::testing::TestWithParam<Config> {};

TEST_P(BootstrapBitExact, SparseSlots) {
  SKIP_UNLESS_RUNNABLE(GetParam());
  checkBootstrap(GetParam(), 700, 8, "", 142, 64);
}

TEST_P(BootstrapBitExact, SparseSlotsEncapsulated) {
  SKIP_UNLESS_RUNNABLE(GetParam());
  checkBootstrap(GetParam(), 700, 8, "", 134, 0); // 8 bits of decapsulation's lift
}

// Hybrid key switching (dnum = 2): CoeffToSlot and SlotToCoeff double-hoisted.
TEST_P(BootstrapBitExact, SparseSlotsEncapsulatedHybrid) {
  SKIP_UNLESS_RUNNABLE(GetParam());
  checkBootstrap(GetParam(), 700, 8, "", 134, 0, 2);
}

// Full slots (2048 at logN 12): CoeffToSlot and SlotToCoeff factored into two
// levels each, EvalMod on the real and the imaginary parts; a working scale of
// 2^56 (the error grows as N with full slots: 2^-13.8 at 2^50); the ternary
// secret, so through sparse-secret encapsulation. On the CPU targets:
// cuda-emu runs the same ops in the sparse tests, and this one would add
// minutes there.
class FullSlotBootstrapBitExact : public ::testing::TestWithParam<Config> {};

TEST_P(FullSlotBootstrapBitExact, Factored) {
  SKIP_UNLESS_RUNNABLE(GetParam());
  checkBootstrap(GetParam(), 900, 2048, ", log_scale = 56, level_budget = array<i64: 2, 2>", 216, 0);
}

// cuda-emu's bootstrap (its emulator takes minutes on two cores) with the
// default ternary secret, through sparse-secret encapsulation: HEAAN's sparse
// secret runs the same kinds of kernels, without encapsulation's.
class CudaEmuBootstrapBitExact : public ::testing::TestWithParam<Config> {};

TEST_P(CudaEmuBootstrapBitExact, SparseSlotsEncapsulated) {
  SKIP_UNLESS_RUNNABLE(GetParam());
  checkBootstrap(GetParam(), 700, 8, "", 134, 0);
}

TEST_P(CudaEmuBootstrapBitExact, SparseSlotsEncapsulatedHybrid) {
  SKIP_UNLESS_RUNNABLE(GetParam());
  checkBootstrap(GetParam(), 700, 8, "", 134, 0, 2);
}

// One -O2 configuration per target (a bootstrap is about 200 ckks ops).
std::vector<Config> bootstrapConfigs() {
  std::vector<Config> c;
  for (const Config &k : configs())
    if (k.name == "O2_2threads" || k.name == "avx512_O2_2threads" || k.name == "cuda_arithmetic_O2") c.push_back(k);
  return c;
}

INSTANTIATE_TEST_SUITE_P(Targets, BootstrapBitExact, ::testing::ValuesIn(bootstrapConfigs()),
                         [](const auto &info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(Targets, CudaEmuBootstrapBitExact, ::testing::ValuesIn([] {
                           std::vector<Config> c;
                           for (const Config &k : cudaEmuConfigs())
                             if (k.name == "cuda_emu_O2") c.push_back(k);
                           return c;
                         }()),
                         [](const auto &info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(Targets, FullSlotBootstrapBitExact, ::testing::ValuesIn([] {
                           std::vector<Config> c;
                           for (const Config &k : configs())
                             if (k.name == "O2_2threads" || k.name == "avx512_O2_2threads") c.push_back(k);
                           return c;
                         }()),
                         [](const auto &info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(Configs, ProgramBitExact, ::testing::ValuesIn(configs()),
                         [](const auto &info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(CudaEmu, ProgramBitExact, ::testing::ValuesIn(cudaEmuConfigs()),
                         [](const auto &info) { return info.param.name; });

} // namespace
