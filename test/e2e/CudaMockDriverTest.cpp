// The cuda target's runtime against the mock CUDA driver (test/runtime/mock-cuda,
// host memory, kernels that do not run): an executor whose call failed to
// launch a kernel stays usable, and its later calls go on to replay a graph;
// calls on ciphertexts on the device copy nothing and replay one graph.
// (test/targets/cuda-mock-driver.mlir checks the driver calls of `fhec run`.)
#include "E2EUtil.h"
#include "../runtime/TestUtil.h"

#include "fhec/runtime/CudaDriver.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Keys.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <tuple>

using namespace fhec;
using namespace fhec::test;

namespace {
const std::string kSquare = squareProgram(8, 100, 30, ", security = \"none\"");

int count(const std::string &text, const std::string &what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
#ifdef FHEC_MOCK_CUDA_DIR
// Points the mock at a fresh `log` (and FHEC_MOCK_CUDA_FAIL at `fail`, if
// given; both read at its first call) and loads it before the runtime opens
// libcuda.so.1, which then finds it by its soname. Returns why the test
// cannot use it ("" if it can).
std::string openMock(const std::string &log, const char *fail = nullptr) {
  std::remove(log.c_str());
  setenv("FHEC_MOCK_CUDA_LOG", log.c_str(), 1);
  if (fail) setenv("FHEC_MOCK_CUDA_FAIL", fail, 1);
  if (!dlopen(FHEC_MOCK_CUDA_DIR "/libcuda.so.1", RTLD_NOW | RTLD_GLOBAL)) {
    ADD_FAILURE() << dlerror();
    return "the mock driver does not load";
  }
  if (std::string why = rt::cudaUnavailableReason(); !why.empty())
    return "the runtime opened another CUDA driver first: " + why;
  return "";
}

CompileOptions cudaTarget() {
  CompileOptions options;
  options.target = "cuda";
  return options;
}

// @sq compiled for cuda, an executor with its evaluation key, and an input.
struct SquareOnCuda {
  Program prog = compileProgram(kSquare, cudaTarget());
  rt::Params p = rt::test::makeParams(8, 100, 30);
  rt::SecureRandom rng;
  rt::KeySet keys = rt::generateKeys(p, rng);
  rt::Executor exec{*prog.module, p};
  rt::Ciphertext c = rt::encrypt(p, keys.pk, rt::BigPoly(8, 100), 30, 64, rng);
  SquareOnCuda() { exec.setEvalKey(keys.evk); }
};
#endif
} // namespace

TEST(CudaMockDriver, ExecutorRecoversFromAFailedLaunch) {
#ifndef FHEC_MOCK_CUDA_DIR
  GTEST_SKIP() << "no mock CUDA driver (cuda.h was not found when the build was configured)";
#else
  // The 6th kernel launch fails (after the evaluation key's preparation, in
  // the first call of @sq).
  std::string log = testing::TempDir() + "fhec-cuda-mock-recover.log";
  if (std::string why = openMock(log, "cuLaunchKernel:6"); !why.empty()) GTEST_SKIP() << why;
  SquareOnCuda s;
  auto [exec, c, keys] = std::tie(s.exec, s.c, s.keys);

  try {
    exec.run("sq", {c});
    FAIL() << "the failed launch was not reported";
  } catch (const rt::Error &e) {
    EXPECT_NE(std::string(e.what()).find(": launch failed: too many resources requested for launch"),
              std::string::npos)
        << e.what();
  }
  // The next calls run: one at a time twice (the second launching the
  // first's kernels), then as a graph.
  for (int i = 0; i < 3; ++i) EXPECT_NO_THROW(exec.run("sq", {c}));
  // The evaluation key again, in new device buffers: the calls' arguments
  // change, and the graphs replay pointed at them.
  exec.setEvalKey(keys.evk);
  for (int i = 0; i < 3; ++i) EXPECT_NO_THROW(exec.run("sq", {c}));
  std::stringstream text;
  text << std::ifstream(log).rdbuf();
  // One graph for the key preparation (its second call launches the
  // first's kernels on the bx part) and one for @sq.
  EXPECT_EQ(count(text.str(), "cuGraphInstantiate"), 2) << text.str();
  EXPECT_EQ(count(text.str(), "cuGraphLaunch"), 1 + 2 + 3) << text.str();
  EXPECT_GE(count(text.str(), "cuGraphExecKernelNodeSetParams"), 5) << text.str();
  EXPECT_EQ(count(text.str(), "misuse"), 0) << text.str();
#endif
}

// Calls on ciphertexts on the device (a program's chained calls): nothing is
// copied, and once a call repeats the kernels of the one before, the later
// calls replay its graph, pointed at their own buffers (each call writes
// other outputs).
TEST(CudaMockDriver, CallsOnDeviceCiphertextsReplayOneGraph) {
#ifndef FHEC_MOCK_CUDA_DIR
  GTEST_SKIP() << "no mock CUDA driver (cuda.h was not found when the build was configured)";
#else
  std::string log = testing::TempDir() + "fhec-cuda-mock-device.log";
  if (std::string why = openMock(log); !why.empty()) GTEST_SKIP() << why;
  SquareOnCuda s;
  auto [exec, c, keys] = std::tie(s.exec, s.c, s.keys);
  rt::DeviceCiphertext x = rt::DeviceCiphertext::upload(c, rt::KernelPlace::Cuda);
  EXPECT_EQ(x.download(), c);

  std::vector<rt::DeviceCiphertext> a, b;
  for (int i = 0; i < 4; ++i) {
    exec.run("sq", {&x}, i % 2 ? b : a);
    EXPECT_EQ(exec.lastCallTransfers().toDevice, 0u);
    EXPECT_EQ(exec.lastCallTransfers().toHost, 0u);
  }
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_NE(a[0].ax(), b[0].ax());
  EXPECT_EQ(a[0].keySet, keys.pk.keySet);
  std::stringstream text;
  text << std::ifstream(log).rdbuf();
  // One at a time, then instantiated from the second call, replayed by the
  // third and fourth, each pointed at its own output. (The other graph is
  // the evaluation key's preparation, instantiated at its bx part.)
  EXPECT_EQ(count(text.str(), "cuGraphInstantiate"), 2) << text.str();
  EXPECT_EQ(count(text.str(), "cuGraphLaunch"), 2) << text.str();
  EXPECT_GE(count(text.str(), "cuGraphExecKernelNodeSetParams"), 2) << text.str();
  EXPECT_GE(count(text.str(), "cuMemAllocHost"), 1) << text.str();
  EXPECT_EQ(count(text.str(), "misuse"), 0) << text.str();
  // A host ciphertext's call copies it in and the result back, through the
  // same pinned buffers.
  std::vector<rt::Ciphertext> out = exec.run("sq", {c});
  EXPECT_EQ(exec.lastCallTransfers().toDevice, c.ax.words.size() * 16);
  EXPECT_EQ(exec.lastCallTransfers().toHost, out[0].ax.words.size() * 16);
#endif
}
