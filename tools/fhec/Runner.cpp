#include "tools/fhec/Runner.h"
#include "codegen/ClientKernels.h"
#include "frontend/Program.h"
#include "target/Target.h"
#include "codegen/Compiler.h"
#include "frontend/Evaluate.h"

#include "fhec/runtime/Client.h"
#include "fhec/runtime/CudaDriver.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Module.h"
#include "fhec/runtime/Profile.h"
#include "fhec/runtime/Serialize.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cmath>
#include <thread>
#include <unistd.h>

using namespace mlir;

namespace fhec {

namespace {
using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

FailureOr<func::FuncOp> pickFunction(ModuleOp module, const std::string &name) {
  SmallVector<func::FuncOp> candidates;
  for (auto f : module.getOps<func::FuncOp>())
    if (!f.isExternal() && (name.empty() ? f.isPublic() : f.getName() == name)) candidates.push_back(f);
  if (candidates.size() == 1) return candidates.front();
  if (candidates.empty())
    return module.emitError() << (name.empty() ? std::string("no public function to run")
                                               : "no function named '" + name + "'");
  return module.emitError() << "several functions; choose one with --function";
}

// What the JSON report says about the machine: CPU model, its family and
// model numbers (virtual machines often name only "AMD EPYC": family 25 with
// IFMA is Zen 4, one zmm IFMA per cycle; family 26 is Zen 5, two), cores, IFMA.
llvm::json::Object machineInfo() {
  std::string model = "unknown", flags;
  int64_t family = -1, number = -1;
  if (auto buf = llvm::MemoryBuffer::getFileAsStream("/proc/cpuinfo")) {
    llvm::SmallVector<llvm::StringRef> lines;
    (*buf)->getBuffer().split(lines, '\n');
    for (llvm::StringRef l : lines) {
      auto [key, value] = l.split(':');
      key = key.trim();
      value = value.trim();
      if (key == "model name" && model == "unknown") model = value.str();
      if (key == "cpu family" && family < 0 && value.getAsInteger(10, family)) family = -1;
      if (key == "model" && number < 0 && value.getAsInteger(10, number)) number = -1;
      if (key == "flags" && flags.empty()) flags = value.str();
    }
  }
  return llvm::json::Object{{"cpu", model},
                            {"cpu_family", family},
                            {"cpu_model", number},
                            {"cores", int64_t(std::thread::hardware_concurrency())},
                            {"avx512ifma", llvm::StringRef(flags).contains("avx512ifma")}};
}

// Resident set size of this process (MiB), from /proc/self/statm.
double residentMiB() {
  auto buf = llvm::MemoryBuffer::getFileAsStream("/proc/self/statm");
  if (!buf) return 0;
  long long pages = 0, resident = 0;
  if (std::sscanf((*buf)->getBuffer().str().c_str(), "%lld %lld", &pages, &resident) != 2) return 0;
  return double(resident) * double(sysconf(_SC_PAGESIZE)) / double(1 << 20);
}

std::string path(const std::string &dir, const std::string &file) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, file);
  return std::string(p);
}
} // namespace

namespace {
// One compiled configuration of the program and its measurements.
struct Config {
  std::string label;
  CompileOptions compile;
  unsigned threads = 1;
  std::unique_ptr<rt::CompiledModule> module;
  std::unique_ptr<rt::Executor> exec;
  double compileSeconds = 0;
  std::vector<double> totals;
  std::vector<rt::PhaseTimes> phases;
  std::vector<rt::Ciphertext> outputs;
  std::vector<double> rssMiB;  ///< resident set after each run
  std::string verdict = "skipped";

  double phaseMs(int p) const {
    std::vector<double> v;
    for (auto &ph : phases) v.push_back(ph[p]);
    return median(v) * 1e3;
  }
  double totalMs() const { return median(totals) * 1e3; }
  /// Median over runs of the time a call spends outside every kernel.
  double outsideMs() const {
    std::vector<double> v;
    for (size_t r = 0; r < totals.size(); ++r) {
      double inside = 0;
      for (double t : phases[r]) inside += t;
      v.push_back(std::max(0.0, totals[r] - inside));
    }
    return median(v) * 1e3;
  }
};

std::string describe(const CompileOptions &c, unsigned threads) {
  std::string s = "-O" + std::to_string(c.optLevel) + " --target=" + c.target;
  for (const auto &d : c.disabledPasses) s += " --disable-pass=" + d;
  for (const auto &[name, o] : c.passOptions) s += " --pass-option='" + name + "{" + o + "}'";
  return s + " --threads=" + std::to_string(threads);
}

unsigned defaultThreads(unsigned requested) {
  unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  return requested ? requested : hw;
}
} // namespace

namespace {

/// A step that cannot go on: its message is printed already (or a
/// diagnostic was emitted); `fhec run` exits with 1.
struct RunFailed {};

[[noreturn]] void fail(const std::string &msg) {
  llvm::errs() << "fhec run: error: " << msg << "\n";
  throw RunFailed{};
}

/// One `fhec run`, step by step.
class ProgramRun {
public:
  ProgramRun(ModuleOp module, const RunOptions &opts) : module(module), opts(opts) {}
  int run();

private:
  void checkFunction();
  void compileConfigs();
  void compileClient();
  void loadKeysAndInputs();
  void generateKeys();
  void makePlaintexts();
  void encryptInputs();
  void timeConfigs();
  void checkResults();
  void save();
  void report();
  void writeJson();

  ModuleOp module;
  const RunOptions &opts;
  func::FuncOp func;
  rt::Params params;
  std::vector<Config> configs;
  std::unique_ptr<rt::CompiledModule> clientModule;
  std::unique_ptr<rt::KernelArithmetic> clientKernels;
  rt::ClientArithmetic *arith = nullptr;
  std::string clientLabel = "GMP reference";
  double clientCompileSeconds = 0, keygenSeconds = 0, encryptSeconds = 0, evkSeconds = 0, refSeconds = 0,
         decryptSeconds = 0;
  rt::SecureRandom rng;
  rt::KeySet keys;
  std::vector<rt::Ciphertext> inputs;
  std::vector<std::vector<rt::Complex>> messages, plaintexts;
  double maxErr = 0, meanErr = 0;
  bool ok = true, accurate = false;
};

void ProgramRun::checkFunction() {
  auto paramsAttr = ckks::getModuleParams(module);
  if (!paramsAttr) fail("the module has no 'ckks.params' attribute");
  FailureOr<func::FuncOp> funcOr = pickFunction(module, opts.function);
  if (failed(funcOr)) throw RunFailed{};
  func = *funcOr;
  for (Type t : func.getArgumentTypes())
    if (!isa<ckks::CiphertextType, ckks::PlaintextType>(t))
      fail("'fhec run' runs functions of ckks ciphertexts and plaintexts only");
  for (Type t : func.getResultTypes())
    if (!isa<ckks::CiphertextType>(t)) fail("'fhec run' runs functions that return ciphertexts only");
  params = runtimeParams(paramsAttr);
}

// The configurations, the main one then each --compare, compiled from
// copies: the original stays at the ckks level for the oracles.
void ProgramRun::compileConfigs() {
  configs.resize(1 + opts.compare.size());
  configs[0].compile = opts.compile;
  configs[0].threads = defaultThreads(opts.threads);
  for (size_t i = 0; i < opts.compare.size(); ++i) {
    configs[i + 1].compile = opts.compare[i].compile;
    configs[i + 1].threads = defaultThreads(opts.compare[i].threads);
  }
  for (Config &c : configs) c.label = describe(c.compile, c.threads);
  // Before compiling (PTX takes a while): a cuda run needs a GPU.
  for (Config &c : configs)
    if (const TargetSpec *t = lookupTarget(c.compile.target); t && t->gpu && !t->emulated)
      if (std::string why = rt::cudaUnavailableReason(); !why.empty())
        fail("--target=cuda runs on an NVIDIA GPU, but there is none here (" + why +
             "); --target=cuda-emu runs the same kernels on the CPU");
  llvm::SmallString<128> tmpDir;
  if (auto ec = llvm::sys::fs::createUniqueDirectory("fhec-run", tmpDir))
    fail("cannot create a temporary directory: " + ec.message());
  for (auto [i, c] : llvm::enumerate(configs)) {
    std::string soPath = i == 0 && !opts.keepModule.empty()
                             ? opts.keepModule
                             : path(std::string(tmpDir), "module" + std::to_string(i) + ".so");
    std::string error;
    auto t0 = Clock::now();
    OwningOpRef<ModuleOp> copy = module.clone();
    if (failed(compileToSharedLibrary(*copy, c.compile, soPath, error))) {
      if (error == "lowering failed") throw RunFailed{};
      fail(error);
    }
    c.compileSeconds = secondsSince(t0);
    c.module = rt::CompiledModule::load(soPath);
    if (i != 0 || opts.keepModule.empty()) llvm::sys::fs::remove(soPath);
  }
  llvm::sys::fs::remove(tmpDir);
}

// The client side: the client kernels for the main configuration's CPU
// target (a GPU program's client runs on the CPU), with decrypt kernels for
// the function's results, or the GMP reference with --gmp-client.
void ProgramRun::compileClient() {
  arith = &rt::gmpArithmetic();
  if (opts.gmpClient) return;
  auto t0 = Clock::now();
  std::vector<int> levels;
  for (Type t : func.getResultTypes()) levels.push_back(int(cast<ckks::CiphertextType>(t).getLogq()));
  try {
    clientModule = compileClientKernels(params, opts.compile, levels);
  } catch (const ProgramError &e) {
    fail(std::string("compiling the client kernels: ") + e.what());
  }
  clientKernels = std::make_unique<rt::KernelArithmetic>(*clientModule, params);
  clientModule->setThreads(int(configs[0].threads));
  clientCompileSeconds = secondsSince(t0);
  clientLabel = clientModule->manifest().target + " kernels";
  arith = clientKernels.get();
}

// --load: the keys and ciphertext inputs --save wrote, every one checked to
// come from the key generation of sk.bin.
void ProgramRun::loadKeysAndInputs() {
  rt::Params saved = rt::deserializeParams(rt::readFile(path(opts.loadDir, "params.bin")));
  if (!(saved == params))
    fail("--load: the saved parameters (" + saved.str() + ") differ from the program's (" + params.str() + ")");
  keys.params = params;
  const std::string skPath = path(opts.loadDir, "sk.bin"), pkPath = path(opts.loadDir, "pk.bin"),
                    evkPath = path(opts.loadDir, "evk.bin");
  keys.sk = rt::readSecretKeyFile(skPath, params);
  keys.pk = rt::deserializePublicKey(rt::readFile(pkPath), params);
  keys.evk = rt::deserializeEvalKey(rt::readFile(evkPath), params);
  auto sameKeySet = [&](const rt::KeySetId &id, const std::string &file) {
    rt::checkSameKeySet(keys.sk.keySet, "'" + skPath + "'", id, "--load: '" + file + "'");
  };
  sameKeySet(keys.pk.keySet, pkPath);
  sameKeySet(keys.evk.keySet, evkPath);
  // rk<g>.bin and ek<q0>.bin: each file's key must be the one its name says.
  auto loadKeys = [&](auto ids, const char *prefix, auto read, auto idOf, const char *holds, auto &into) {
    for (auto id : ids) {
      const std::string file = path(opts.loadDir, prefix + std::to_string(id) + ".bin");
      auto key = read(rt::readFile(file), params);
      if (idOf(key) != id) fail("--load: '" + file + "' holds the " + holds + std::to_string(idOf(key)));
      sameKeySet(key.keySet, file);
      into[id] = std::move(key);
    }
  };
  loadKeys(galoisElements(func), "rk", rt::deserializeRotationKey, [](const rt::RotationKey &k) { return k.galois; },
           "rotation key of Galois element ", keys.rotationKeys);
  loadKeys(encapsulationModuli(func), "ek", rt::deserializeEncapsulationKey,
           [](const rt::EncapsulationKey &k) { return k.logq0; }, "encapsulation key for q0 = 2^",
           keys.encapsulationKeys);
  unsigned numCt =
      unsigned(llvm::count_if(func.getArgumentTypes(), [](Type t) { return isa<ckks::CiphertextType>(t); }));
  for (unsigned i = 0; i < numCt; ++i) {
    const std::string ctPath = path(opts.loadDir, "in" + std::to_string(i) + ".ct");
    inputs.push_back(rt::deserializeCiphertext(rt::readFile(ctPath), params));
    sameKeySet(inputs.back().keySet, ctPath);
    messages.push_back(
        rt::decode(rt::decryptMessage(keys.sk, inputs.back(), *arith), inputs.back().slots, inputs.back().logp));
  }
}

void ProgramRun::generateKeys() {
  keys = rt::generateKeys(params, rng, *arith);
  for (uint64_t g : galoisElements(func))
    keys.rotationKeys[g] = rt::generateRotationKey(params, keys.sk, g, rng, *arith);
  for (int q0 : encapsulationModuli(func))
    keys.encapsulationKeys[q0] = rt::generateEncapsulationKey(params, keys.sk, q0, rng, *arith);
}

// Plaintext arguments: random real values, or those --save wrote (pt<j>.bin:
// the slots as little-endian complex doubles).
void ProgramRun::makePlaintexts() {
  for (Type t : func.getArgumentTypes()) {
    auto pt = dyn_cast<ckks::PlaintextType>(t);
    if (!pt) continue;
    std::vector<rt::Complex> v(pt.getSlots());
    if (opts.loadDir.empty()) {
      for (auto &x : v) x = rt::Complex(2 * rng.uniformReal() - 1, 0);
    } else {
      const std::string ptPath = path(opts.loadDir, "pt" + std::to_string(plaintexts.size()) + ".bin");
      std::string bytes = rt::readFile(ptPath);
      if (bytes.size() != v.size() * sizeof(rt::Complex))
        fail("--load: '" + ptPath + "' holds " + std::to_string(bytes.size()) + " bytes, not the " +
             std::to_string(v.size()) + " complex doubles of a plaintext argument");
      std::memcpy(v.data(), bytes.data(), bytes.size());
    }
    plaintexts.push_back(std::move(v));
  }
}

// Random complex slots in [-1, 1) for each ciphertext argument, encrypted.
void ProgramRun::encryptInputs() {
  for (Type t : func.getArgumentTypes()) {
    auto ct = dyn_cast<ckks::CiphertextType>(t);
    if (!ct) continue;
    std::vector<rt::Complex> z(ct.getSlots());
    for (auto &x : z) x = rt::Complex(2 * rng.uniformReal() - 1, 2 * rng.uniformReal() - 1);
    rt::BigPoly m = rt::encode(z, params.logN, int(ct.getLogp()), int(ct.getLogq()));
    inputs.push_back(rt::encrypt(params, keys.pk, m, int(ct.getLogp()), int(ct.getSlots()), rng, *arith));
    messages.push_back(std::move(z));
  }
}

// Executors (tables and workspace allocated once each), then the timed
// runs: every configuration in turn, `repeat` rounds, so that a drift of the
// machine's speed hits all of them alike.
void ProgramRun::timeConfigs() {
  for (Config &c : configs) {
    c.exec = std::make_unique<rt::Executor>(*c.module, params);
    c.module->setThreads(int(c.threads));
    auto t0 = Clock::now();
    c.exec->setEvalKey(keys.evk);
    for (const auto &[g, rk] : keys.rotationKeys) c.exec->setRotationKey(rk);
    for (const auto &[q0, ek] : keys.encapsulationKeys) c.exec->setEncapsulationKey(ek);
    if (&c == &configs[0]) evkSeconds = secondsSince(t0);
  }
  for (unsigned r = 0; r < opts.repeat; ++r) {
    for (Config &c : configs) {
      c.module->setThreads(int(c.threads));
      rt::resetPhaseTimes();
      auto t0 = Clock::now();
      c.exec->run(func.getName().str(), inputs, c.outputs, plaintexts);  // outputs allocated in the first round only
      c.totals.push_back(secondsSince(t0));
      c.phases.push_back(rt::phaseTimes());
      c.rssMiB.push_back(residentMiB());
    }
  }
}

// The oracles: every configuration's outputs against the GMP reference (bit
// for bit), the main one's decryption against the plaintext computation.
void ProgramRun::checkResults() {
  if (opts.checkReference) {
    auto t0 = Clock::now();
    auto ref = evaluateReference(func, params, EvaluationKeys::of(keys), inputs, plaintexts);
    refSeconds = secondsSince(t0);
    if (failed(ref)) throw RunFailed{};
    for (Config &c : configs) {
      bool same = ref->size() == c.outputs.size();
      for (size_t i = 0; same && i < c.outputs.size(); ++i) same = (*ref)[i] == c.outputs[i];
      c.verdict = same ? "bit-identical" : "MISMATCH";
      ok &= same;
    }
  }
  auto plain = evaluatePlain(func, messages, plaintexts);
  if (failed(plain)) throw RunFailed{};
  const std::vector<rt::Ciphertext> &outputs = configs[0].outputs;
  auto t0 = Clock::now();
  std::vector<std::vector<rt::Complex>> decrypted;
  for (const rt::Ciphertext &c : outputs)
    decrypted.push_back(rt::decode(rt::decryptMessage(keys.sk, c, *arith), c.slots, c.logp));
  decryptSeconds = secondsSince(t0);
  double sumErr = 0;
  size_t count = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto &got = decrypted[i];
    for (size_t s = 0; s < got.size(); ++s) {
      double e = std::abs(got[s] - (*plain)[i][s]);
      maxErr = std::max(maxErr, e);
      sumErr += e;
      ++count;
    }
  }
  meanErr = count ? sumErr / double(count) : 0;
  accurate = maxErr <= std::ldexp(1.0, -10);
  ok &= accurate;
}

// --save: params, keys (sk with mode 0600), inputs, plaintexts and outputs.
void ProgramRun::save() {
  const std::string &dir = opts.saveDir;
  llvm::sys::fs::create_directories(dir);
  rt::writeFile(path(dir, "params.bin"), rt::serialize(params));
  rt::writeSecretKeyFile(path(dir, "sk.bin"), params, keys.sk);
  rt::writeFile(path(dir, "pk.bin"), rt::serialize(params, keys.pk));
  rt::writeFile(path(dir, "evk.bin"), rt::serialize(params, keys.evk));
  for (const auto &[g, rk] : keys.rotationKeys)
    rt::writeFile(path(dir, "rk" + std::to_string(g) + ".bin"), rt::serialize(params, rk));
  for (const auto &[q0, ek] : keys.encapsulationKeys)
    rt::writeFile(path(dir, "ek" + std::to_string(q0) + ".bin"), rt::serialize(params, ek));
  for (size_t i = 0; i < inputs.size(); ++i)
    rt::writeFile(path(dir, "in" + std::to_string(i) + ".ct"), rt::serialize(params, inputs[i]));
  for (size_t j = 0; j < plaintexts.size(); ++j)
    rt::writeFile(path(dir, "pt" + std::to_string(j) + ".bin"),
                  std::string(reinterpret_cast<const char *>(plaintexts[j].data()),
                              plaintexts[j].size() * sizeof(rt::Complex)));
  const std::vector<rt::Ciphertext> &outputs = configs[0].outputs;
  for (size_t i = 0; i < outputs.size(); ++i)  // outputs carry the inputs' key set
    rt::writeFile(path(dir, "out" + std::to_string(i) + ".ct"), rt::serialize(params, outputs[i]));
}

// Report (Table 7 style): per-phase medians over the repetitions, one column
// per configuration.
void ProgramRun::report() {
  auto &os = llvm::outs();
  os << llvm::formatv("fhec run: @{0} on {1}, {2} run(s)\n", func.getName(), params.str(), opts.repeat);
  for (auto [i, c] : llvm::enumerate(configs)) {
    rt::Transfers t = c.exec->lastCallTransfers();
    os << llvm::formatv("  [{0}] {1}: compile {2:F2} s, workspace {3:F1} MiB, copied per call: {4} bytes to the device, "
                        "{5} back\n",
                        i, c.label, c.compileSeconds, double(c.exec->workspaceBytes()) / (1 << 20), t.toDevice,
                        t.toHost);
  }
  os << llvm::formatv("  client: {0}{1}\n", clientLabel,
                      clientModule ? llvm::formatv(", compiled in {0:F2} s", clientCompileSeconds).str() : "");
  os << llvm::formatv("  keygen {0:F3} s ({1} rotation key(s)) | encrypt {2:F3} s | decrypt {3:F3} s | keys to "
                      "RNS/NTT {4:F2} s\n",
                      keygenSeconds, keys.rotationKeys.size(), encryptSeconds, decryptSeconds, evkSeconds);
  os << llvm::formatv("  {0,-10}", "phase (ms)");
  for (size_t i = 0; i < configs.size(); ++i) os << llvm::formatv(" {0,10}", "[" + std::to_string(i) + "]");
  os << "\n";
  for (int p = 0; p < int(abi::Phase::Count); ++p) {
    os << llvm::formatv("  {0,-10}", abi::phaseName(abi::Phase(p)));
    for (const Config &c : configs) os << llvm::formatv(" {0,10:F1}", c.phaseMs(p));
    os << "\n";
  }
  os << llvm::formatv("  {0,-10}", "outside");
  for (const Config &c : configs) os << llvm::formatv(" {0,10:F1}", c.outsideMs());
  os << "\n" << llvm::formatv("  {0,-10}", "total");
  for (const Config &c : configs) os << llvm::formatv(" {0,10:F1}", c.totalMs());
  os << "\n";
  if (configs.size() > 1) {
    os << llvm::formatv("  {0,-10}", "vs [0]");
    for (const Config &c : configs) os << llvm::formatv(" {0,9:F2}x", c.totalMs() / configs[0].totalMs());
    os << "\n";
  }
  os << llvm::formatv("  resident memory after run 1: {0:F1} MiB, after run {1}: {2:F1} MiB\n",
                      configs[0].rssMiB.front(), opts.repeat, configs.back().rssMiB.back());
  for (auto [i, c] : llvm::enumerate(configs))
    os << llvm::formatv("  GMP reference [{0}]: {1}{2}\n", i, c.verdict,
                        opts.checkReference && i == 0 ? llvm::formatv(" ({0:F2} s)", refSeconds).str() : std::string());
  os << llvm::formatv("  decrypted vs plaintext: max error {0:e} (2^{1:F1}), mean {2:e}; bound 2^-10: {3}\n", maxErr,
                      maxErr > 0 ? std::log2(maxErr) : -INFINITY, meanErr, accurate ? "ok" : "EXCEEDED");
  os << (ok ? "PASS\n" : "FAIL\n");
}

llvm::json::Object configJson(const Config &c) {
  llvm::json::Object phaseJson;
  for (int p = 0; p < int(abi::Phase::Count); ++p) phaseJson[abi::phaseName(abi::Phase(p))] = c.phaseMs(p);
  return llvm::json::Object{
      {"flags", c.label},
      {"target", c.compile.target},
      {"opt_level", int64_t(c.compile.optLevel)},
      {"disabled_passes", llvm::json::Array(c.compile.disabledPasses)},
      {"threads", int64_t(c.threads)},
      {"workspace_bytes", int64_t(c.exec->workspaceBytes())},
      {"bytes_to_device_per_call", int64_t(c.exec->lastCallTransfers().toDevice)},
      {"bytes_to_host_per_call", int64_t(c.exec->lastCallTransfers().toHost)},
      {"compile_s", c.compileSeconds},
      {"phases_ms_median", std::move(phaseJson)},
      {"outside_kernels_ms_median", c.outsideMs()},
      {"total_ms_median", c.totalMs()},
      {"total_ms_min", *std::min_element(c.totals.begin(), c.totals.end()) * 1e3},
      {"total_ms_runs", llvm::json::Array(llvm::map_range(c.totals, [](double t) { return t * 1e3; }))},
      {"rss_mib_runs", llvm::json::Array(c.rssMiB)},
      {"reference", c.verdict}};
}

void ProgramRun::writeJson() {
  llvm::json::Object j = configJson(configs[0]);
  j["function"] = func.getName().str();
  j["logN"] = params.logN;
  j["logQ"] = params.logQ;
  j["logp"] = params.logp;
  j["runs"] = int64_t(opts.repeat);
  j["machine"] = machineInfo();
  j["client"] = clientLabel;
  j["client_seconds"] = llvm::json::Object{{"compile", clientCompileSeconds},
                                           {"keygen", keygenSeconds},
                                           {"encrypt", encryptSeconds},
                                           {"decrypt", decryptSeconds}};
  j["max_error"] = maxErr;
  j["mean_error"] = meanErr;
  j["pass"] = ok;
  llvm::json::Array all;
  for (const Config &c : configs) all.push_back(configJson(c));
  j["configs"] = std::move(all);
  std::error_code ec;
  llvm::raw_fd_ostream js(opts.jsonPath, ec);
  if (ec) fail("cannot write '" + opts.jsonPath + "': " + ec.message());
  js << llvm::json::Value(std::move(j)) << "\n";
}

int ProgramRun::run() {
  try {
    checkFunction();
    params.validate();
    compileConfigs();
    compileClient();
    auto t0 = Clock::now();
    if (!opts.loadDir.empty())
      loadKeysAndInputs();
    else
      generateKeys();
    keygenSeconds = secondsSince(t0);
    t0 = Clock::now();
    makePlaintexts();
    if (opts.loadDir.empty()) encryptInputs();
    encryptSeconds = secondsSince(t0);
    timeConfigs();
    checkResults();
    if (!opts.saveDir.empty()) save();
    report();
    if (!opts.jsonPath.empty()) writeJson();
    return ok ? 0 : 2;
  } catch (const RunFailed &) {
    return 1;
  } catch (const rt::Error &e) {
    llvm::errs() << "fhec run: error: " << e.what() << "\n";
    return 1;
  }
}

} // namespace

int runProgram(ModuleOp module, const RunOptions &opts) { return ProgramRun(module, opts).run(); }

} // namespace fhec
