// The runtime refuses modules, keys and ciphertexts that do not fit together,
// with a message saying what is wrong.
#include "E2EUtil.h"
#include "../runtime/TestUtil.h"

#include "fhec/runtime/Error.h"
#include "fhec/runtime/Keys.h"

#include <memory>

using namespace fhec;
using namespace fhec::test;
using fhec::rt::test::errorOf;

namespace {
const std::string kProgram = squareProgram(10, 120, 30);

rt::Params params() { return rt::test::makeParams(10, 120, 30); }

// kProgram compiled, with an executor holding a fresh key set's evaluation key.
struct SquareExecutor {
  Program prog = compileProgram(kProgram);
  rt::SecureRandom rng;
  rt::KeySet keys = rt::generateKeys(params(), rng);
  std::unique_ptr<rt::Executor> exec;

  SquareExecutor() {
    if (!prog.module) return;
    exec = std::make_unique<rt::Executor>(*prog.module, params());
    exec->setEvalKey(keys.evk);
  }
};
} // namespace

TEST(ModuleErrors, ParametersKeysAndInputsMustMatchTheModule) {
  Program prog = compileProgram(kProgram);
  ASSERT_TRUE(prog.module);
  rt::Params other = params();
  other.logQ = 150;
  EXPECT_NE(errorOf([&] { rt::Executor e(*prog.module, other); }).find("compiled for"), std::string::npos);

  rt::SecureRandom rng;
  rt::Params p = params();
  rt::KeySet keys = rt::generateKeys(p, rng);
  rt::Executor exec(*prog.module, p);
  rt::Ciphertext c{rt::BigPoly(10, 120), rt::BigPoly(10, 120), 30, 64};
  EXPECT_NE(errorOf([&] { exec.run("sq", {c}); }).find("evaluation key"), std::string::npos);
  EXPECT_NE(errorOf([&] { exec.setEvalKey(rt::EvalKey{{rt::BigPoly(10, 120)}, {rt::BigPoly(10, 120)}, {}}); })
                .find("evaluation key does not match"),
            std::string::npos);
  exec.setEvalKey(keys.evk);
  rt::Ciphertext lower{rt::BigPoly(10, 90), rt::BigPoly(10, 90), 30, 64};
  EXPECT_NE(errorOf([&] { exec.run("sq", {lower}); }).find("expected logN=10 logq=120"), std::string::npos);
  rt::Ciphertext slots = c;
  slots.slots = 32;
  EXPECT_NE(errorOf([&] { exec.run("sq", {slots}); }).find("slots=64"), std::string::npos);
  EXPECT_NE(errorOf([&] { exec.run("sq", {c, c}); }).find("takes 1 ciphertexts"), std::string::npos);
  EXPECT_NE(errorOf([&] { exec.run("nope", {c}); }).find("no function"), std::string::npos);
  EXPECT_NO_THROW(exec.run("sq", {c}));
}

TEST(ModuleErrors, LoaderRejectsNonModulesAndBadManifests) {
  EXPECT_NE(errorOf([] { rt::CompiledModule::load("/nonexistent/module.so"); }).find("cannot load"),
            std::string::npos);
  const std::string head = "fhec-manifest " + std::to_string(fhec::abi::kAbiVersion) + "\n";
  auto error = [&](const std::string &body) { return errorOf([&] { rt::parseManifest(head + body); }); };
  EXPECT_NE(errorOf([] { rt::parseManifest("hello"); }).find("fhec-manifest"), std::string::npos);
  EXPECT_NE(errorOf([] { rt::parseManifest("fhec-manifest 99\n"); }).find("ABI version 99"), std::string::npos);
  EXPECT_NE(error("params logN=x logQ=1 logp=1\n").find("not a number"), std::string::npos);
  EXPECT_NE(error("target name=cpu kernels=host shoup_bits=40\n").find("Shoup base"), std::string::npos);
  EXPECT_NE(error("target name=cuda shoup_bits=32\n").find("kernels=''"), std::string::npos);
  EXPECT_NE(error("target name=cuda kernels=gpu shoup_bits=32\n").find("expected host, cuda or emulated"),
            std::string::npos);
  EXPECT_EQ(rt::parseManifest(head + "target name=cuda-emu kernels=emulated shoup_bits=32\n").kernels,
            rt::KernelPlace::Emulated);
  EXPECT_NE(error("arg kind=poly dir=in logq=3 role=ct0.ax\n").find("outside a function"), std::string::npos);
  EXPECT_NE(error("func name=f entry=e\n").find("missing 'workspace'"), std::string::npos);
  EXPECT_NE(error("func name=f entry=e workspace=-8\n").find("out of range"), std::string::npos);
  EXPECT_NE(error("func name=f entry=e workspace=0\narg kind=table table=bogus basis=0 param=0\n")
                .find("unknown table kind"),
            std::string::npos);
  EXPECT_NE(error("func name=f entry=e workspace=0\narg kind=rns dir=in basis=3 bits=64 role=evk.ax\n")
                .find("basis index out of range"),
            std::string::npos);
  EXPECT_NE(error("func name=f entry=e workspace=0\narg kind=rns dir=in basis=0 role=evk.ax\n").find("missing 'bits'"),
            std::string::npos);
  EXPECT_NE(error("func name=f entry=e workspace=0\narg kind=rns dir=in basis=0 bits=16 role=evk.ax\n")
                .find("16 bits (expected 32 or 64)"),
            std::string::npos);
  EXPECT_NE(error("func name=f entry=e workspace=0\narg kind=constant words=8\n").find("constant without symbol"),
            std::string::npos);
  EXPECT_NE(error("func name=f entry=e workspace=0\narg kind=constant symbol=c words=0\n").find("constant without"),
            std::string::npos);
  rt::Manifest m = rt::parseManifest(head + "func name=f entry=e workspace=0\narg kind=constant symbol=c words=8\n");
  ASSERT_EQ(m.functions[0].args.size(), 1u);
  EXPECT_EQ(m.functions[0].args[0].kind, rt::ManifestArg::Kind::Constant);
  EXPECT_EQ(m.functions[0].args[0].symbol, "c");
  EXPECT_EQ(m.functions[0].args[0].words, 8);
}

// The codec's writer and parser agree: every record kind read back the same,
// and written out byte for byte as the compiler's text.
TEST(ModuleErrors, ManifestWriterAndParserAgree) {
  const std::string text =
      "fhec-manifest " + std::to_string(fhec::abi::kAbiVersion) +
      "\n"
      "target name=cpu-avx512 kernels=host shoup_bits=52 features=avx512f,avx512ifma\n"
      "params logN=10 logQ=300 logp=30 dnum=3 secret=sparse h=64\n"
      "client secret_weight=64\n"
      "basis id=0 primes=1125899906826241,1125899906824193\n"
      "func name=f entry=__fhec_entry_f workspace=4096\n"
      "ct dir=in logq=120 logp=30 slots=64\n"
      "ct dir=out logq=90 logp=30 slots=64\n"
      "pt slots=64\n"
      "arg kind=table table=prime_consts basis=0 param=0\n"
      "arg kind=constant symbol=c0 words=8\n"
      "arg kind=workspace\n"
      "arg kind=poly dir=in logq=120 role=ct0.ax\n"
      "arg kind=rns dir=in basis=0 bits=64 role=evk.ax\n"
      "arg kind=poly dir=out logq=90 role=ct0.bx\n";
  rt::Manifest m = rt::parseManifest(text);
  EXPECT_EQ(m.kernels, rt::KernelPlace::Host);
  EXPECT_EQ(m.cpuFeatures, (std::vector<std::string>{"avx512f", "avx512ifma"}));
  EXPECT_EQ(m.dnum, 3);
  EXPECT_EQ(m.secret, rt::SecretKind::Sparse);
  ASSERT_EQ(m.functions.size(), 1u);
  ASSERT_EQ(m.functions[0].args.size(), 6u);
  EXPECT_TRUE(m.functions[0].args[5].output);
  EXPECT_EQ(rt::writeManifest(m), text);
  m.target.clear();
  EXPECT_NE(errorOf([&] { rt::writeManifest(m); }).find("target name"), std::string::npos);
}

TEST(ModuleErrors, ManifestDescribesTheCompiledFunctions) {
  Program prog = compileProgram(kProgram);
  ASSERT_TRUE(prog.module);
  const rt::Manifest &m = prog.module->manifest();
  EXPECT_EQ(m.logN, 10);
  EXPECT_EQ(m.logQ, 120);
  EXPECT_EQ(m.target, "cpu");
  EXPECT_EQ(m.shoupBits, 64);
  const rt::ManifestFunction *f = m.find("sq");
  ASSERT_TRUE(f);
  // HE Mul's temporaries live in a workspace the manifest sizes and the function receives.
  EXPECT_GT(f->workspaceBytes, 0);
  EXPECT_EQ(llvm::count_if(f->args, [](const rt::ManifestArg &a) { return a.kind == rt::ManifestArg::Kind::Workspace; }),
            1);
  ASSERT_EQ(f->inputs.size(), 1u);
  EXPECT_EQ(f->outputs[0].logp, 60);
  ASSERT_TRUE(m.find("__fhec_evk_prepare"));
  // Every basis is a prefix of the evaluation key's (one prime sequence).
  auto largest = *std::max_element(m.bases.begin(), m.bases.end(),
                                   [](const auto &a, const auto &b) { return a.size() < b.size(); });
  for (const auto &b : m.bases)
    for (size_t i = 0; i < b.size(); ++i) EXPECT_EQ(b[i], largest[i]);
}

// A cpu-avx512 module records its target and features; where they are
// missing (all masked here, so the message is the same on every CPU), loading
// it fails with a message naming them, never SIGILL.
TEST(ModuleErrors, ModulesNeedTheirCpuFeatures) {
  auto ctx = makeContext();
  auto source = mlir::parseSourceString<mlir::ModuleOp>(kProgram, ctx.get());
  ASSERT_TRUE(source);
  llvm::SmallString<128> so;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("fhec-avx512", "so", so));
  CompileOptions o;
  o.target = "cpu-avx512";
  std::string error;
  ASSERT_TRUE(mlir::succeeded(compileToSharedLibrary(*source, o, std::string(so), error))) << error;
  ::setenv("FHEC_MASK_CPU_FEATURES", "avx512f,avx512dq,avx512vl,avx512ifma", 1);
  std::string masked = errorOf([&] { rt::CompiledModule::load(std::string(so)); });
  ::unsetenv("FHEC_MASK_CPU_FEATURES");
  EXPECT_NE(masked.find("compiled for the cpu-avx512 target and needs avx512f, avx512dq, avx512vl, avx512ifma, which this CPU lacks"),
            std::string::npos)
      << masked;
  if (cannotRun("cpu-avx512").empty()) {
    auto mod = rt::CompiledModule::load(std::string(so));
    EXPECT_EQ(mod->manifest().target, "cpu-avx512");
    EXPECT_EQ(mod->manifest().shoupBits, 52);
    EXPECT_EQ(mod->manifest().cpuFeatures, (std::vector<std::string>{"avx512f", "avx512dq", "avx512vl", "avx512ifma"}));
  }
  llvm::sys::fs::remove(so);
}

// run() into caller-held outputs: the same results as a fresh run, the
// polynomials' storage kept across calls, wrong shapes replaced, and the
// inputs refused as outputs.
TEST(ModuleErrors, RunIntoOutputsReusesTheirStorage) {
  SquareExecutor square;
  ASSERT_TRUE(square.exec);
  rt::Executor &exec = *square.exec;
  rt::SecureRandom &rng = square.rng;
  auto randomCt = [&] {
    rt::Ciphertext c{rt::BigPoly(10, 120), rt::BigPoly(10, 120), 30, 64};
    for (rt::BigPoly *q : {&c.ax, &c.bx}) {
      for (uint64_t &w : q->words) w = rng.next64();
      q->maskTop();
    }
    return c;
  };
  std::vector<rt::Ciphertext> in1{randomCt()}, in2{randomCt()}, outs;
  exec.run("sq", in1, outs);
  EXPECT_EQ(outs[0].ax, exec.run("sq", in1)[0].ax);
  const uint64_t *storage = outs[0].ax.words.data();
  exec.run("sq", in2, outs);
  std::vector<rt::Ciphertext> fresh = exec.run("sq", in2);
  EXPECT_EQ(outs[0].ax, fresh[0].ax);
  EXPECT_EQ(outs[0].bx, fresh[0].bx);
  EXPECT_EQ(outs[0].logp, fresh[0].logp);
  EXPECT_EQ(outs[0].ax.words.data(), storage);
  outs[0].bx = rt::BigPoly(10, 60);
  exec.run("sq", in2, outs);
  EXPECT_EQ(outs[0].bx, fresh[0].bx);
  EXPECT_NE(errorOf([&] { exec.run("sq", in1, in1); }).find("must not be the inputs"), std::string::npos);
}

TEST(ModuleErrors, RunOnViewsReadsTheInputsInPlace) {
  SquareExecutor square;
  ASSERT_TRUE(square.exec);
  rt::Executor &exec = *square.exec;
  rt::SecureRandom &rng = square.rng;
  // The words in a buffer of their own, as a transport would hold them.
  std::vector<uint64_t> buffer(2 * (size_t(1) << 10) * 2);
  for (uint64_t &w : buffer) w = rng.next64();
  for (size_t i = 1; i < buffer.size(); i += 2)  // the top word of each 2-word coefficient: < 2^(120 - 64)
    buffer[i] &= (uint64_t(1) << (120 - 64)) - 1;
  rt::CiphertextView view;
  view.ax = buffer.data();
  view.bx = buffer.data() + buffer.size() / 2;
  view.logN = 10, view.logq = 120, view.logp = 30, view.slots = 64;
  rt::Ciphertext copy{rt::BigPoly(10, 120), rt::BigPoly(10, 120), 30, 64};
  std::copy(view.ax, view.bx, copy.ax.words.begin());
  std::copy(view.bx, view.bx + buffer.size() / 2, copy.bx.words.begin());
  std::vector<rt::Ciphertext> outs;
  exec.run("sq", std::vector<rt::CiphertextView>{view}, outs);
  EXPECT_EQ(outs, exec.run("sq", {copy}));

  rt::CiphertextView empty = view;
  empty.bx = nullptr;
  EXPECT_NE(errorOf([&] { exec.run("sq", std::vector<rt::CiphertextView>{empty}, outs); }).find("has no words"),
            std::string::npos);
  rt::CiphertextView lower = view;
  lower.logq = 90;
  EXPECT_NE(errorOf([&] { exec.run("sq", std::vector<rt::CiphertextView>{lower}, outs); })
                .find("expected logN=10 logq=120"),
            std::string::npos);
  rt::Ciphertext mixed = copy;
  mixed.bx = rt::BigPoly(10, 90);
  EXPECT_NE(errorOf([&] { exec.run("sq", {mixed}); }).find("different shapes"), std::string::npos);
}
