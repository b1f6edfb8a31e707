// Ciphertexts on the device (cuda-emu): a chain of calls copies nothing
// between the host and the device, its result is the cpu target's bit for
// bit, and copying it back is the one transfer, counted by the runtime.
#include "E2EUtil.h"
#include "../runtime/TestUtil.h"

#include "fhec/runtime/DeviceCiphertext.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Keys.h"

#include <functional>
#include <tuple>

using namespace fhec;
using namespace fhec::test;

namespace {
// @s0, @s1, @s2: a product and a rescale each, the next taking the last's result.
std::string chainProgram() {
  std::string text = "module attributes {ckks.params = #ckks.params<logN = 10, logQ = 150, logp = 30, "
                     "security = \"none\">} {\n";
  for (int i = 0, logq = 150; i < 3; ++i, logq -= 30) {
    std::string in = ct(10, logq, 30, 8), wide = ct(10, logq, 60, 8), out = ct(10, logq - 30, 30, 8);
    text += llvm::formatv("  func.func @s{0}(%a: {1}) -> {3} {{\n"
                          "    %m = ckks.mul %a, %a : ({1}, {1}) -> {2}\n"
                          "    %r = ckks.rescale %m : {2} -> {3}\n"
                          "    return %r : {3}\n  }\n",
                          i, in, wide, out)
                .str();
  }
  return text + "}\n";
}

CompileOptions target(const char *name) {
  CompileOptions options;
  options.target = name;
  return options;
}

// The program for cuda-emu and for cpu (the oracle), an executor of each
// with the evaluation key, and an input ciphertext.
struct Chain {
  Program gpu = compileProgram(chainProgram(), target("cuda-emu")), cpu = compileProgram(chainProgram(), target("cpu"));
  rt::Params p = rt::test::makeParams(10, 150, 30);
  rt::SecureRandom rng;
  rt::KeySet keys = rt::generateKeys(p, rng);
  rt::Executor gpuExec{*gpu.module, p}, cpuExec{*cpu.module, p};
  rt::Ciphertext c = rt::encrypt(p, keys.pk, rt::BigPoly(10, 150), 30, 8, rng);
  Chain() {
    gpuExec.setEvalKey(keys.evk);
    cpuExec.setEvalKey(keys.evk);
  }
};

std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const rt::Error &e) {
    return e.what();
  }
  return "";
}
} // namespace

TEST(DeviceCiphertext, AChainOfCallsCopiesNothing) {
  Chain t;
  auto [gpuExec, cpuExec, c, keys] = std::tie(t.gpuExec, t.cpuExec, t.c, t.keys);
  rt::Transfers start = rt::processTransfers();
  rt::DeviceCiphertext x = rt::DeviceCiphertext::upload(c, rt::KernelPlace::Emulated);
  EXPECT_EQ((rt::processTransfers() - start).toDevice, x.bytes());
  EXPECT_EQ(x.bytes(), c.ax.words.size() * 16);

  std::vector<rt::DeviceCiphertext> a, b, out;
  std::vector<rt::Ciphertext> want = {c};
  rt::Transfers before = rt::processTransfers();
  gpuExec.run("s0", {&x}, a);
  gpuExec.run("s1", {&a[0]}, b);
  gpuExec.run("s2", {&b[0]}, out);
  rt::Transfers after = rt::processTransfers();
  EXPECT_EQ(after.toDevice, before.toDevice);
  EXPECT_EQ(after.toHost, before.toHost);
  EXPECT_EQ(gpuExec.lastCallTransfers().toDevice + gpuExec.lastCallTransfers().toHost, 0u);

  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].logq(), 60);
  EXPECT_EQ(out[0].keySet, keys.pk.keySet);
  rt::Ciphertext got = out[0].download();
  EXPECT_EQ((rt::processTransfers() - after).toHost, out[0].bytes());
  EXPECT_EQ(got.keySet, keys.pk.keySet);
  for (const char *f : {"s0", "s1", "s2"}) want = cpuExec.run(f, want);
  EXPECT_EQ(got, want[0]);
  // The same chain's first call on the host ciphertext: the same result.
  EXPECT_EQ(gpuExec.run("s0", {c})[0], a[0].download());
}

TEST(DeviceCiphertext, BadInputsAreRefused) {
  Chain t;
  auto [gpuExec, cpuExec, c, p, rng] = std::tie(t.gpuExec, t.cpuExec, t.c, t.p, t.rng);
  rt::DeviceCiphertext x = rt::DeviceCiphertext::upload(c, rt::KernelPlace::Emulated), empty;
  std::vector<rt::DeviceCiphertext> out;

  EXPECT_NE(errorOf([&] { cpuExec.run("s0", {&x}, out); }).find("runs on the host (a cpu module)"), std::string::npos);
  EXPECT_NE(errorOf([&] { gpuExec.run("s0", {&empty}, out); }).find("input 0 has no words"), std::string::npos);
  EXPECT_NE(errorOf([&] { gpuExec.run("s1", {&x}, out); }).find("expected logN=10 logq=120"), std::string::npos);
  EXPECT_NE(errorOf([&] { empty.download(); }).find("is empty"), std::string::npos);
  EXPECT_NE(errorOf([&] { rt::DeviceCiphertext::upload(c, rt::KernelPlace::Host); }).find("needs a GPU target"),
            std::string::npos);
  rt::KeySet other = rt::generateKeys(p, rng);
  rt::DeviceCiphertext y = rt::DeviceCiphertext::upload(rt::encrypt(p, other.pk, rt::BigPoly(10, 150), 30, 8, rng),
                                                        rt::KernelPlace::Emulated);
  EXPECT_NE(errorOf([&] { gpuExec.run("s0", {&y}, out); }).find("key set"), std::string::npos);
  EXPECT_TRUE(out.empty());  // nothing was written
}
