// fhec-bench-ntt: the forward and inverse NTT of one prime at N = 2^lo ..
// 2^hi for each target, compiled by fhec and timed in one process, targets
// and sizes alternating round by round (the kernels' phase timers, warm
// caches). Each run is the round trip crt -> ntt -> intt -> icrt, checked to
// be the identity.
// Prints JSON on stdout; bench/ntt/bench.py renders the table.
//
// Usage: fhec-bench-ntt [--targets=cpu,cpu-avx512] [--min-log=12] [--max-log=17] [--rounds=41]
//                       [--keep-modules=DIR]  (DIR/<target>-<logN>.so, for profilers)
#include "codegen/Compiler.h"
#include "codegen/Pipeline.h"

#include "fhec/runtime/Error.h"
#include "fhec/runtime/Module.h"
#include "fhec/runtime/Params.h"
#include "fhec/runtime/Profile.h"
#include "fhec/runtime/Random.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace fhec;

namespace {

constexpr int kLogq = 40;  // one prime of any target holds 2^40 with the iCRT's margin

std::string program(int logN) {
  std::string p = llvm::formatv("!fhe.poly<logN = {0}, logq = {1}>", logN, kLogq).str();
  auto rns = [&](const char *domain) {
    return llvm::formatv("!fhe.rns<logN = {0}, basis = <min_bits = {1}>, domain = {2}, layout = prime_major>", logN,
                         kLogq + 4, domain)
        .str();
  };
  return llvm::formatv(R"(module attributes {{ckks.params = #ckks.params<logN = {0}, logQ = {1}, logp = 20>} {{
  func.func @f(%x: {2} {{fhe.role = "x"}) -> {2} {{
    %c = fhe.crt %x : {2} -> {3}
    %e = fhe.ntt %c : {3} -> {4}
    %i = fhe.intt %e : {4} -> {3}
    %r = fhe.icrt %i : {3} -> {2}
    return %r : {2}
  }
})",
                       logN, kLogq, p, rns("coeff"), rns("eval"))
      .str();
}

struct Case {
  std::string target;
  int logN;
  std::unique_ptr<rt::CompiledModule> module;
  std::unique_ptr<rt::Executor> exec;
  rt::BigPoly input;
  std::vector<double> ntt, intt;  // µs
  unsigned primeBits = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  std::string targets = "cpu,cpu-avx512", keepDir;
  int lo = 12, hi = 17, rounds = 41;
  for (int a = 1; a < argc; ++a) {
    llvm::StringRef arg(argv[a]);
    bool ok = true;
    if (arg.consume_front("--targets="))
      targets = arg.str();
    else if (arg.consume_front("--min-log="))
      ok = !arg.getAsInteger(10, lo);
    else if (arg.consume_front("--max-log="))
      ok = !arg.getAsInteger(10, hi);
    else if (arg.consume_front("--rounds="))
      ok = !arg.getAsInteger(10, rounds) && rounds > 0;
    else if (arg.consume_front("--keep-modules="))
      keepDir = arg.str();
    else
      ok = false;
    if (!ok || lo < 6 || hi > 17 || lo > hi) {
      llvm::errs() << "usage: fhec-bench-ntt [--targets=cpu,cpu-avx512] [--min-log=12] [--max-log=17] [--rounds=41]"
                      " [--keep-modules=DIR] (6 <= min-log <= max-log <= 17)\n";
      return 1;
    }
  }
  mlir::DialectRegistry registry;
  registerDialects(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  rt::SecureRandom rng;
  std::vector<Case> cases;
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(targets).split(names, ',', -1, false);
  for (llvm::StringRef t : names)
    for (int logN = lo; logN <= hi; ++logN) {
      Case c;
      c.target = t.str();
      c.logN = logN;
      CompileOptions o;
      o.target = c.target;
      std::string error;
      if (mlir::failed(resolveOptions(o, error))) {
        llvm::errs() << "fhec-bench-ntt: " << error << "\n";
        return 1;
      }
      auto module = mlir::parseSourceString<mlir::ModuleOp>(program(logN), &ctx);
      llvm::SmallString<128> so;
      if (!keepDir.empty()) so = llvm::formatv("{0}/{1}-{2}.so", keepDir, c.target, logN).str();
      if (!module || (keepDir.empty() && llvm::sys::fs::createTemporaryFile("fhec-bench-ntt", "so", so)) ||
          mlir::failed(compileToSharedLibrary(*module, o, std::string(so), error))) {
        llvm::errs() << "fhec-bench-ntt: compiling for " << c.target << " failed: " << error << "\n";
        return 1;
      }
      try {
        c.module = rt::CompiledModule::load(std::string(so));
      } catch (const rt::Error &e) {
        llvm::errs() << "fhec-bench-ntt: " << e.what() << "\n";
        return 1;
      }
      if (keepDir.empty()) llvm::sys::fs::remove(so);
      if (c.module->manifest().bases.size() != 1 || c.module->manifest().bases[0].size() != 1) {
        llvm::errs() << "fhec-bench-ntt: expected one prime for " << c.target << "\n";
        return 1;
      }
      c.primeBits = 64 - __builtin_clzll(c.module->manifest().bases[0][0]);
      c.module->setThreads(1);
      rt::Params params;
      params.logN = logN;
      params.logQ = kLogq;
      params.logp = 20;
      c.exec = std::make_unique<rt::Executor>(*c.module, params);
      c.input = rt::BigPoly(logN, kLogq);
      rng.fill(c.input.words.data(), c.input.words.size());
      c.input.maskTop();
      cases.push_back(std::move(c));
    }
  // Each round runs every case kWarm + 1 times back to back and keeps the
  // last: warm caches, as NTT libraries are usually measured (one prime's
  // twiddles and data fit in L2 up to 2^16).
  constexpr int kWarm = 2;
  for (int r = 0; r < rounds; ++r)
    for (Case &c : cases)
      for (int w = 0; w <= kWarm; ++w) {
        rt::resetPhaseTimes();
        std::vector<rt::BigPoly> out = c.exec->runPolys("f", {c.input});
        if (!(out.at(0) == c.input)) {
          llvm::errs() << "fhec-bench-ntt: " << c.target << " logN=" << c.logN << ": iCRT(iNTT(NTT(CRT(x)))) != x\n";
          return 2;
        }
        if (w < kWarm) continue;
        rt::PhaseTimes ph = rt::phaseTimes();
        c.ntt.push_back(ph[size_t(abi::Phase::Ntt)] * 1e6);
        c.intt.push_back(ph[size_t(abi::Phase::Intt)] * 1e6);
      }
  llvm::json::Array results;
  for (Case &c : cases)
    results.push_back(llvm::json::Object{{"target", c.target},
                                         {"logN", c.logN},
                                         {"prime_bits", c.primeBits},
                                         {"ntt_us_median", median(c.ntt)},
                                         {"intt_us_median", median(c.intt)},
                                         {"ntt_us_min", *std::min_element(c.ntt.begin(), c.ntt.end())},
                                         {"intt_us_min", *std::min_element(c.intt.begin(), c.intt.end())},
                                         {"rounds", rounds}});
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{{"results", std::move(results)}}))
               << "\n";
  return 0;
}
