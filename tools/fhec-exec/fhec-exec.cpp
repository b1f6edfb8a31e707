// fhec-exec: runs a compiled module on the inputs `fhec run --save=DIR` wrote
// and checks its outputs bit for bit against the ones saved there. It links
// only the runtime (no LLVM/MLIR), so it runs where the compiler does not:
// on the GPU machines, and built with ThreadSanitizer against modules
// compiled with --sanitize=thread (the cuda-emu race check).
//
//   fhec-exec MODULE.so DIR [--function=NAME] [--repeat=N]
//
// Exit status: 0 when every output is bit-identical, 1 when one differs,
// 2 on a usage, file or module error.
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Module.h"
#include "fhec/runtime/Serialize.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace fhec;

namespace {

int usage() {
  std::fprintf(stderr, "usage: fhec-exec MODULE.so DIR [--function=NAME] [--repeat=N]\n"
                       "  runs MODULE on DIR/in<i>.ct with DIR's keys (fhec run --save=DIR) and\n"
                       "  compares the results with DIR/out<i>.ct bit for bit\n");
  return 2;
}

int run(int argc, char **argv) {
  std::vector<std::string> positional;
  std::string function;
  int repeat = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--function=", 0) == 0) {
      function = a.substr(11);
    } else if (a.rfind("--repeat=", 0) == 0) {
      repeat = std::atoi(a.c_str() + 9);
      if (repeat < 1) return usage();
    } else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "fhec-exec: unknown option %s\n", a.c_str());
      return usage();
    } else {
      positional.push_back(a);
    }
  }
  if (positional.size() != 2) return usage();
  const std::string &dir = positional[1];
  auto file = [&](const std::string &name) { return dir + "/" + name; };

  auto module = rt::CompiledModule::load(positional[0]);
  const rt::Manifest &manifest = module->manifest();
  if (function.empty()) {
    // The program's functions (not the key preparation every module has).
    std::vector<std::string> names;
    for (const rt::ManifestFunction &g : manifest.functions)
      if (g.name != abi::kEvkPrepareFunc) names.push_back(g.name);
    if (names.size() != 1) {
      std::fprintf(stderr, "fhec-exec: the module has %zu functions; name one with --function\n", names.size());
      return 2;
    }
    function = names.front();
  }
  const rt::ManifestFunction *f = manifest.find(function);
  if (!f) {
    std::fprintf(stderr, "fhec-exec: the module has no function '%s'\n", function.c_str());
    return 2;
  }
  rt::Params params = rt::deserializeParams(rt::readFile(file("params.bin")));
  rt::Executor exec(*module, params);
  if (f->needsEvalKey()) exec.setEvalKey(rt::deserializeEvalKey(rt::readFile(file("evk.bin")), params));
  for (uint64_t g : f->galoisElements())
    exec.setRotationKey(rt::deserializeRotationKey(rt::readFile(file("rk" + std::to_string(g) + ".bin")), params));
  std::vector<rt::Ciphertext> inputs;
  for (size_t i = 0; i < f->inputs.size(); ++i)
    inputs.push_back(rt::deserializeCiphertext(rt::readFile(file("in" + std::to_string(i) + ".ct")), params));

  std::vector<double> ms;
  std::vector<rt::Ciphertext> outputs;
  for (int r = 0; r < repeat; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    outputs = exec.run(function, inputs);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  int status = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string expected = rt::readFile(file("out" + std::to_string(i) + ".ct"));
    bool same = rt::serialize(params, outputs[i]) == expected;
    std::printf("output %zu: %s\n", i, same ? "bit-identical" : "DIFFERS from the saved one");
    if (!same) status = 1;
  }
  std::printf("@%s on %s: median %.3f ms over %d run(s)\n", function.c_str(), manifest.target.c_str(), ms[ms.size() / 2],
              repeat);
  return status;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "fhec-exec: %s\n", e.what());
    return 2;
  }
}
