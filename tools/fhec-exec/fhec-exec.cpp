// fhec-exec: runs a compiled module with the runtime alone (no LLVM/MLIR), so
// that it runs where the compiler does not: on the GPU machines (bench/gpu),
// and built with ThreadSanitizer against modules compiled with
// --sanitize=thread (the cuda-emu race check).
//
//   fhec-exec MODULE.so DIR        keys and inputs of `fhec run --save=DIR`;
//                                  outputs checked against DIR/out<i>.ct
//   fhec-exec MODULE.so --random   fresh keys (CSPRNG) and random inputs
//     [--expect-from=REF.so]       outputs checked against REF's on the same
//                                  inputs (results do not depend on the target:
//                                  a cpu build of the program is the oracle)
//     [--function=NAME] [--repeat=N] [--json=FILE] [--threads=N]
//     [--on-device]                a GPU module's inputs copied to the device
//                                  once, its calls run on them there (as a
//                                  program's chained calls do), the outputs
//                                  copied back after each, outside its time
//     [--gpu-trace=FILE [--trace-blocks=K] [--trace-sampled-only]]
//                                  a cuda-emu module compiled with --gpu-trace:
//                                  record K blocks of each launch of the first
//                                  run for the GPU cost model (bench/gpu/model.py);
//                                  with --trace-sampled-only run only those
//                                  blocks (one run, --random, outputs not
//                                  checked: they are not the program's)
//
// Prints each output's check and the per-phase medians over N runs (for GPU
// modules: CUDA event times of each phase's kernels); every run's outputs
// must equal the first run's. Exit status: 0 when every checked output is
// bit-identical, 1 when one differs, 2 on a usage, file or module error.
#include "fhec/runtime/DeviceCiphertext.h"
#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/GpuTrace.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Module.h"
#include "fhec/runtime/Profile.h"
#include "fhec/runtime/Random.h"
#include "fhec/runtime/Serialize.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

using namespace fhec;

namespace {

int usage() {
  std::fprintf(stderr, "usage: fhec-exec MODULE.so DIR [--function=NAME] [--repeat=N] [--json=FILE] [--threads=N]\n"
                       "       fhec-exec MODULE.so --random [--expect-from=REF.so] [--function=NAME] [--repeat=N]\n"
                       "                 [--json=FILE] [--on-device]\n"
                       "       [--gpu-trace=FILE [--trace-blocks=K] [--trace-sampled-only]]\n"
                       "                 (cuda-emu modules compiled with --gpu-trace)\n"
                       "  runs MODULE on the keys and inputs of `fhec run --save=DIR` and compares the results with\n"
                       "  DIR/out<i>.ct bit for bit; or on fresh keys and random inputs, compared with REF's results\n");
  return 2;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// The program function of a module: `name`, or its only one (not the key
// preparation every module with key switching has).
// Keys and inputs for function f: from `fhec run --save`'s directory, or fresh.
struct Workload {
  rt::Params params;
  std::optional<rt::EvalKey> evk;
  std::vector<rt::RotationKey> rotationKeys;
  std::vector<rt::EncapsulationKey> encapsulationKeys;
  std::vector<rt::Ciphertext> inputs;
  std::vector<std::vector<rt::Complex>> plaintexts;  ///< values of the plaintext arguments
};

Workload load(const std::string &dir, const rt::ManifestFunction &f) {
  auto file = [&](const std::string &name) { return dir + "/" + name; };
  Workload w;
  w.params = rt::deserializeParams(rt::readFile(file("params.bin")));
  if (f.needsEvalKey()) w.evk = rt::deserializeEvalKey(rt::readFile(file("evk.bin")), w.params);
  for (uint64_t g : f.galoisElements())
    w.rotationKeys.push_back(rt::deserializeRotationKey(rt::readFile(file("rk" + std::to_string(g) + ".bin")), w.params));
  for (int q0 : f.encapsulationModuli())
    w.encapsulationKeys.push_back(
        rt::deserializeEncapsulationKey(rt::readFile(file("ek" + std::to_string(q0) + ".bin")), w.params));
  for (size_t i = 0; i < f.inputs.size(); ++i)
    w.inputs.push_back(rt::deserializeCiphertext(rt::readFile(file("in" + std::to_string(i) + ".ct")), w.params));
  for (size_t j = 0; j < f.plaintexts.size(); ++j) {  // `fhec run --save`'s pt<j>.bin: complex doubles
    std::string bytes = rt::readFile(file("pt" + std::to_string(j) + ".bin"));
    std::vector<rt::Complex> v(bytes.size() / sizeof(rt::Complex));
    if (bytes.size() % sizeof(rt::Complex) || v.size() > size_t(f.plaintexts[j]))
      throw rt::Error("pt" + std::to_string(j) + ".bin does not hold the values of a plaintext argument");
    std::memcpy(v.data(), bytes.data(), bytes.size());
    w.plaintexts.push_back(std::move(v));
  }
  return w;
}

Workload generate(const rt::Manifest &m, const rt::ManifestFunction &f) {
  Workload w;
  w.params = m.params();
  rt::SecureRandom rng;
  rt::KeySet keys = rt::generateKeys(w.params, rng);
  if (f.needsEvalKey()) w.evk = keys.evk;
  for (uint64_t g : f.galoisElements()) w.rotationKeys.push_back(rt::generateRotationKey(w.params, keys.sk, g, rng));
  for (int q0 : f.encapsulationModuli())
    w.encapsulationKeys.push_back(rt::generateEncapsulationKey(w.params, keys.sk, q0, rng));
  for (const rt::ManifestCiphertext &in : f.inputs) {
    std::vector<rt::Complex> z(size_t(in.slots));
    for (auto &x : z) x = rt::Complex(2 * rng.uniformReal() - 1, 2 * rng.uniformReal() - 1);
    rt::BigPoly msg = rt::encode(z, w.params.logN, in.logp, in.logq);
    w.inputs.push_back(rt::encrypt(w.params, keys.pk, msg, in.logp, in.slots, rng));
  }
  for (int slots : f.plaintexts) {
    std::vector<rt::Complex> v(static_cast<size_t>(slots));
    for (auto &x : v) x = rt::Complex(2 * rng.uniformReal() - 1, 0);
    w.plaintexts.push_back(std::move(v));
  }
  return w;
}

rt::Executor makeExecutor(const rt::CompiledModule &module, const Workload &w) {
  rt::Executor exec(module, w.params);
  if (w.evk) exec.setEvalKey(*w.evk);
  for (const rt::RotationKey &rk : w.rotationKeys) exec.setRotationKey(rk);
  for (const rt::EncapsulationKey &ek : w.encapsulationKeys) exec.setEncapsulationKey(ek);
  return exec;
}

int run(int argc, char **argv) {
  std::vector<std::string> positional;
  std::string function, expectFrom, json, gpuTrace;
  int64_t traceBlocks = 8;
  bool random = false, onDevice = false, sampledOnly = false;
  int repeat = 1, threads = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *prefix) -> std::optional<std::string> {
      size_t n = std::char_traits<char>::length(prefix);
      if (a.compare(0, n, prefix) == 0) return a.substr(n);
      return std::nullopt;
    };
    if (auto v = value("--function=")) function = *v;
    else if (auto v = value("--expect-from=")) expectFrom = *v;
    else if (auto v = value("--json=")) json = *v;
    else if (auto v = value("--gpu-trace=")) gpuTrace = *v;
    else if (auto v = value("--trace-blocks=")) {
      traceBlocks = std::atoll(v->c_str());
      if (traceBlocks < 1) return usage();
    }
    else if (auto v = value("--threads=")) {
      threads = std::atoi(v->c_str());
      if (threads < 1) return usage();
    } else if (auto v = value("--repeat=")) {
      repeat = std::atoi(v->c_str());
      if (repeat < 1) return usage();
    } else if (a == "--random") random = true;
    else if (a == "--on-device") onDevice = true;
    else if (a == "--trace-sampled-only") sampledOnly = true;
    else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "fhec-exec: unknown option %s\n", a.c_str());
      return usage();
    } else positional.push_back(a);
  }
  if (positional.size() != (random ? 1u : 2u)) return usage();
  if (sampledOnly && (gpuTrace.empty() || !random || !expectFrom.empty() || repeat != 1)) {
    std::fprintf(stderr, "fhec-exec: --trace-sampled-only runs part of each launch: it needs --gpu-trace and "
                         "--random, one run and no --expect-from (its outputs are not the program's)\n");
    return 2;
  }

  auto module = rt::CompiledModule::load(positional[0]);
  const rt::Manifest &manifest = module->manifest();
  const rt::ManifestFunction *f = nullptr;
  try {
    f = &manifest.program(function);
  } catch (const rt::Error &e) {
    throw rt::Error(std::string(e.what()) + (function.empty() ? " with --function=NAME" : ""));
  }
  function = f->name;
  if (threads) module->setThreads(threads);  // (else OpenMP's default: every core)
  Workload w = random ? generate(manifest, *f) : load(positional[1], *f);
  // Sampling only, the preparations (the module's constants, the keys) are
  // sampled too (emulated whole, a bootstrap's rotation keys take longer than
  // its call): the trace lists their launches (__fhec_*) before the call's.
  if (sampledOnly) rt::startGpuTrace(traceBlocks, true);
  rt::Executor exec = makeExecutor(*module, w);

  std::vector<double> totals;
  std::vector<std::vector<double>> phases(static_cast<size_t>(abi::Phase::Count));
  std::vector<rt::Ciphertext> outputs;
  std::vector<rt::DeviceCiphertext> deviceInputs, deviceOutputs;
  std::vector<const rt::DeviceCiphertext *> deviceArgs;
  if (onDevice) {
    try {
      exec.requireDevice(f->name);
    } catch (const rt::Error &e) {
      throw rt::Error(std::string("--on-device: ") + e.what());
    }
    // The call's checks before the inputs go to the device.
    std::vector<rt::CiphertextView> views(w.inputs.begin(), w.inputs.end());
    exec.checkInputs(f->name, views, w.plaintexts);
    for (const rt::Ciphertext &c : w.inputs) deviceInputs.push_back(rt::DeviceCiphertext::upload(c, exec.place()));
    for (const rt::DeviceCiphertext &c : deviceInputs) deviceArgs.push_back(&c);
  }
  std::vector<std::string> firstRun;  // the first run's outputs: every later run must give them
  int status = 0;
  for (int r = 0; r < repeat; ++r) {
    rt::resetPhaseTimes();
    if (r == 0 && !gpuTrace.empty() && !sampledOnly) rt::startGpuTrace(traceBlocks);
    auto t0 = std::chrono::steady_clock::now();
    if (onDevice)
      exec.run(function, deviceArgs, deviceOutputs, w.plaintexts);
    else
      exec.run(function, w.inputs, outputs, w.plaintexts);  // outputs allocated by the first run only
    totals.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (onDevice) {
      outputs.clear();
      for (const rt::DeviceCiphertext &c : deviceOutputs) outputs.push_back(c.download());
    }
    if (r == 0 && !gpuTrace.empty()) {
      std::vector<rt::GpuLaunchTrace> launches = rt::stopGpuTrace();
      if (launches.empty())
        throw rt::Error("--gpu-trace: no traced launch (compile the module with --target=cuda-emu --gpu-trace)");
      std::ofstream out(gpuTrace);
      out << rt::gpuTraceJson(launches);
      if (!out) throw rt::Error("cannot write '" + gpuTrace + "'");
      // What would fault on a GPU (or read another buffer) is an error, not a figure.
      for (const rt::GpuLaunchTrace &t : launches)
        if (t.outsideDeviceMemory)
          throw rt::Error("--gpu-trace: kernel " + t.kernel + " made " + std::to_string(t.outsideDeviceMemory) +
                          " global accesses outside the device's memory; the first " + t.firstOutside);
    }
    rt::PhaseTimes t = rt::phaseTimes();
    for (size_t p = 0; p < t.size(); ++p) phases[p].push_back(t[p] * 1e3);
    // (A GPU module's later calls replay its first call's kernels as a CUDA graph.)
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::string bytes = rt::serialize(w.params, outputs[i]);
      if (r == 0) {
        firstRun.push_back(std::move(bytes));
      } else if (bytes != firstRun[i]) {
        std::printf("output %zu of run %d DIFFERS from the first run's\n", i, r + 1);
        status = 1;
      }
    }
  }

  // The expected outputs: saved, or the reference module's on the same inputs.
  std::vector<std::string> expected;
  if (!expectFrom.empty()) {
    auto ref = rt::CompiledModule::load(expectFrom);
    rt::Executor refExec = makeExecutor(*ref, w);
    for (const rt::Ciphertext &c : refExec.run(function, w.inputs, w.plaintexts))
      expected.push_back(rt::serialize(w.params, c));
  } else if (!random) {
    for (size_t i = 0; i < outputs.size(); ++i)
      expected.push_back(rt::readFile(positional[1] + "/out" + std::to_string(i) + ".ct"));
  }
  std::string checks;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const char *verdict =
        sampledOnly ? "not checked (--trace-sampled-only ran part of each launch)" : "not checked (no --expect-from)";
    if (i < expected.size()) {
      bool same = rt::serialize(w.params, outputs[i]) == expected[i];
      verdict = same ? "bit-identical" : "DIFFERS from the expected one";
      if (!same) status = 1;
    }
    std::printf("output %zu: %s\n", i, verdict);
    checks += std::string(checks.empty() ? "" : ", ") + "\"" + verdict + "\"";
  }
  std::printf("@%s on %s (logN=%d logQ=%d): median %.3f ms over %d run(s)\n", function.c_str(), manifest.target.c_str(),
              manifest.logN, manifest.logQ, median(totals), repeat);
  // What a call copied between host and device (the same every run).
  const rt::Transfers copied = exec.lastCallTransfers();
  std::printf("  copied per call: %llu bytes to the device, %llu back\n", (unsigned long long)copied.toDevice,
              (unsigned long long)copied.toHost);
  std::string phaseJson;
  for (size_t p = 0; p < phases.size(); ++p) {
    const char *name = abi::phaseName(abi::Phase(p));
    std::printf("  %-10s %10.3f ms\n", name, median(phases[p]));
    phaseJson += std::string(phaseJson.empty() ? "" : ", ") + "\"" + name + "\": " + std::to_string(median(phases[p]));
  }
  if (!json.empty()) {
    std::ofstream out(json);
    out << "{\"function\": \"" << function << "\", \"target\": \"" << manifest.target << "\", \"logN\": "
        << manifest.logN << ", \"logQ\": " << manifest.logQ << ", \"runs\": " << repeat
        << ", \"on_device\": " << (onDevice ? "true" : "false")
        << ", \"total_ms_median\": " << median(totals) << ", \"bytes_to_device_per_call\": " << copied.toDevice
        << ", \"bytes_to_host_per_call\": " << copied.toHost << ", \"phases_ms_median\": {" << phaseJson
        << "}, \"outputs\": [" << checks << "]}\n";
    if (!out) throw rt::Error("cannot write '" + json + "'");
  }
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
