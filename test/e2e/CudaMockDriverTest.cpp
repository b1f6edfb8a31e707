// The cuda target's runtime against the mock CUDA driver (test/runtime/mock-cuda,
// host memory, kernels that do not run): an executor whose call failed to
// launch a kernel stays usable, and its later calls go on to replay a graph.
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

using namespace fhec;
using namespace fhec::test;

namespace {
const std::string kSquare = squareProgram(8, 100, 30, ", security = \"none\"");

int count(const std::string &text, const std::string &what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
} // namespace

TEST(CudaMockDriver, ExecutorRecoversFromAFailedLaunch) {
#ifndef FHEC_MOCK_CUDA_DIR
  GTEST_SKIP() << "no mock CUDA driver (cuda.h was not found when the build was configured)";
#else
  // Read by the mock at its first call: the 6th kernel launch fails (after
  // the evaluation key's preparation, in the first call of @sq).
  std::string log = testing::TempDir() + "fhec-cuda-mock-recover.log";
  std::remove(log.c_str());
  setenv("FHEC_MOCK_CUDA_LOG", log.c_str(), 1);
  setenv("FHEC_MOCK_CUDA_FAIL", "cuLaunchKernel:6", 1);
  // Loaded before the runtime opens libcuda.so.1, which then finds it by its soname.
  ASSERT_TRUE(dlopen(FHEC_MOCK_CUDA_DIR "/libcuda.so.1", RTLD_NOW | RTLD_GLOBAL)) << dlerror();
  if (std::string why = rt::cudaUnavailableReason(); !why.empty())
    GTEST_SKIP() << "the runtime opened another CUDA driver first: " << why;

  CompileOptions options;
  options.target = "cuda";
  Program prog = compileProgram(kSquare, options);
  ASSERT_TRUE(prog.module);
  rt::Params p = rt::test::makeParams(8, 100, 30);
  rt::SecureRandom rng;
  rt::KeySet keys = rt::generateKeys(p, rng);
  rt::Executor exec(*prog.module, p);
  exec.setEvalKey(keys.evk);
  rt::Ciphertext c = rt::encrypt(p, keys.pk, rt::BigPoly(8, 100), 30, 64, rng);

  try {
    exec.run("sq", {c});
    FAIL() << "the failed launch was not reported";
  } catch (const rt::Error &e) {
    EXPECT_NE(std::string(e.what()).find(": launch failed: too many resources requested for launch"),
              std::string::npos)
        << e.what();
  }
  // The next calls run: one at a time twice (the second repeating the
  // first), then as a graph.
  for (int i = 0; i < 3; ++i) EXPECT_NO_THROW(exec.run("sq", {c}));
  // The evaluation key again, in new device buffers: the calls' arguments
  // change, and the same sequence starts over with a new graph.
  exec.setEvalKey(keys.evk);
  for (int i = 0; i < 3; ++i) EXPECT_NO_THROW(exec.run("sq", {c}));
  std::stringstream text;
  text << std::ifstream(log).rdbuf();
  EXPECT_EQ(count(text.str(), "cuGraphInstantiate"), 2) << text.str();
  EXPECT_EQ(count(text.str(), "cuGraphLaunch"), 2) << text.str();
  EXPECT_EQ(count(text.str(), "misuse"), 0) << text.str();
#endif
}
