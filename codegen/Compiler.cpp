// The compile library: lowering, shared libraries, compile flags, the
// security check, and the errors and diagnostics of compiling a program.
#include "codegen/Compiler.h"
#include "codegen/Emit.h"
#include "dialect/CKKS/Transforms/Passes.h"

#include "fhec/runtime/Error.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Security.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>
#include <set>
#include <unistd.h>

using namespace mlir;

namespace fhec {

// ---- DiagnosticCollector ----------------------------------------------------

DiagnosticCollector::DiagnosticCollector(MLIRContext &ctx) : ctx_(ctx) {
  id_ = ctx.getDiagEngine().registerHandler([this](Diagnostic &d) {
    auto one = [this](Diagnostic &x) {
      std::string loc;
      llvm::raw_string_ostream ls(loc);
      if (auto f = dyn_cast<FileLineColLoc>(x.getLocation()))
        ls << f.getFilename().getValue() << ":" << f.getLine() << ":" << f.getColumn() << ": ";
      const char *sev = x.getSeverity() == DiagnosticSeverity::Error     ? "error"
                        : x.getSeverity() == DiagnosticSeverity::Warning ? "warning"
                        : x.getSeverity() == DiagnosticSeverity::Note    ? "note"
                                                                         : "remark";
      text_ += loc + sev + ": " + x.str() + "\n";
    };
    one(d);
    for (Diagnostic &note : d.getNotes()) one(note);
    return success();
  });
}

DiagnosticCollector::~DiagnosticCollector() { ctx_.getDiagEngine().eraseHandler(id_); }

void DiagnosticCollector::raise(ProgramError::Kind kind, const std::string &prefix) const {
  std::string t = text_;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  throw ProgramError(kind, prefix + (t.empty() ? "unknown error" : t));
}

rt::Params runtimeParams(ckks::ParamsAttr p) {
  rt::Params params;
  params.logN = int(p.getLogN());
  params.logQ = int(p.getLogQ());
  params.logp = int(p.getLogp());
  params.dnum = int(p.getDnum());
  params.secret = p.getSecretKind();
  params.h = int(p.getH());
  return params;
}


LogicalResult lowerModule(ModuleOp module, const CompileOptions &options, Stage stage) {
  PassManager pm(module.getContext());
  if (options.commandLinePassOptions) {
    if (failed(applyPassManagerCLOptions(pm))) return failure();
    applyDefaultTimingPassManagerCLOptions(pm);
  }
  std::string error;
  if (failed(buildFHEPipeline(pm, options, error)) ||
      (stage != Stage::FHE && failed(buildLoopPipeline(pm, options, error))) ||
      (stage == Stage::LLVMDialect && failed(buildLLVMPipeline(pm, options, error))))
    return module.emitError() << error;
  return pm.run(module);
}

LogicalResult expandPolynomials(ModuleOp module) {
  PassManager pm(module.getContext());
  pm.addPass(createCKKSExpandBootstrap());
  pm.addPass(createCKKSExpandPolyEval());
  return pm.run(module);
}

LogicalResult manageScale(ModuleOp module) {
  PassManager pm(module.getContext());
  pm.addPass(createCKKSManageScale());
  return pm.run(module);
}

LogicalResult compileToSharedLibrary(ModuleOp module, const CompileOptions &options, const std::string &soPath,
                                     std::string &error) {
  if (failed(lowerModule(module, options, Stage::LLVMDialect))) {
    error = "lowering failed";
    return failure();
  }
  // The output's directory must exist before any work: the error names it.
  llvm::SmallString<256> dir(soPath);
  llvm::sys::path::remove_filename(dir);
  if (dir.empty()) dir = ".";
  if (auto ec = llvm::sys::fs::access(dir, llvm::sys::fs::AccessMode::Write)) {
    error = "cannot write '" + soPath + "': " + ec.message();
    return failure();
  }
  // Objects in a directory of their own (one per part of the module).
  llvm::SmallString<128> tmp;
  if (auto ec = llvm::sys::fs::createUniqueDirectory("fhec-objects", tmp)) {
    error = "cannot create a temporary directory: " + ec.message();
    return failure();
  }
  std::vector<std::string> objects;
  LogicalResult compiled = emitObjectFiles(module, options, std::string(tmp) + "/module", objects, error);
  LogicalResult linked = succeeded(compiled) ? linkSharedLibrary(objects, soPath, error) : failure();
  for (const std::string &o : objects) llvm::sys::fs::remove(o);
  llvm::sys::fs::remove(tmp);
  return linked;
}

LogicalResult parsePassOption(llvm::StringRef spec, CompileOptions &options, std::string &error) {
  size_t brace = spec.find('{');
  if (brace == llvm::StringRef::npos || !spec.ends_with("}")) {
    error = "--pass-option='" + spec.str() + "': expected NAME{key=value ...}";
    return failure();
  }
  std::string &opts = options.passOptions[spec.take_front(brace).trim().str()];
  opts += (opts.empty() ? "" : " ") + spec.drop_front(brace + 1).drop_back().str();
  return success();
}

LogicalResult parseCompileFlags(llvm::StringRef flags, CompileOptions &options, unsigned &threads, std::string &error) {
  llvm::SmallVector<llvm::StringRef> words;
  flags.split(words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef w : words) {
    auto value = [&](llvm::StringRef name) -> std::optional<llvm::StringRef> {
      for (llvm::StringRef prefix : {"--", "-"})
        if (w.consume_front((prefix + name + "=").str())) return w;
      return std::nullopt;
    };
    unsigned n = 0;
    if (w.starts_with("-O") && !w.drop_front(2).getAsInteger(10, n)) {
      options.optLevel = n;
    } else if (auto v = value("target")) {
      options.target = v->str();
    } else if (auto v = value("disable-pass")) {
      options.disabledPasses.push_back(v->str());
    } else if (auto v = value("pass-option")) {
      if (failed(parsePassOption(*v, options, error))) return failure();
    } else if (auto v = value("threads")) {
      if (v->getAsInteger(10, threads)) {
        error = "--threads needs a number";
        return failure();
      }
    } else {
      error = "unknown flag '" + w.str() + "' (expected -O<n>, --target=, --disable-pass=, --pass-option=, --threads=)";
      return failure();
    }
  }
  return success();
}

namespace {
// Every key's estimate: the keys mod PQ (named ""), and with a dense secret
// the key to bootstrapping's ephemeral sparse secret, mod q0 P', per q0.
std::vector<std::pair<std::string, rt::SecurityEstimate>> keyEstimates(ModuleOp module, ckks::ParamsAttr p) {
  rt::Params keys = runtimeParams(p);  // the keys' secret and error distributions
  std::vector<std::pair<std::string, rt::SecurityEstimate>> out;
  out.push_back({"", rt::estimateSecurity(int(p.getLogN()), int(p.getLargestLogModulus()), keys.secret, keys.h,
                                          keys.sigma)});
  if (keys.secret == rt::SecretKind::Sparse) return out;
  std::set<unsigned> moduli;
  module.walk([&](Operation *op) {
    if (auto b = dyn_cast<ckks::BootstrapOp>(op)) moduli.insert(unsigned(b.getModLogq()));
    if (auto q0 = ckks::encapsulationModulus(op)) moduli.insert(*q0);
  });
  for (unsigned q0 : moduli)
    out.push_back({"the encapsulation key of bootstrapping at q0 = 2^" + std::to_string(q0),
                   rt::estimateSecurity(int(p.getLogN()), rt::encapsulationKeyLogModulus(int(q0)),
                                        rt::SecretKind::Sparse, rt::kEphemeralSecretWeight, keys.sigma)});
  return out;
}
} // namespace

std::string describeSecurity(ModuleOp module) {
  auto p = ckks::getModuleParams(module);
  if (!p) return "";
  std::string out;
  for (const auto &[what, e] : keyEstimates(module, p))
    out += what.empty() ? e.str() : "; " + what + ": " + e.str();
  return out;
}

LogicalResult checkSecurity(ModuleOp module, bool allowInsecure) {
  auto p = ckks::getModuleParams(module);
  if (!p) return success();
  unsigned required = p.getRequiredSecurityBits();
  if (required == 0 || allowInsecure) return success();
  for (const auto &[what, e] : keyEstimates(module, p)) {
    if (e.grants(int(required))) continue;
    // At the module's location, without dumping the module.
    InFlightDiagnostic d = mlir::emitError(module.getLoc())
                           << "insecure parameters " << p << ": estimated security "
                           << (what.empty() ? "" : "of " + what + " ") << e.summary() << " is below the required "
                           << required << " bits";
    if (std::string c = e.caveats(); !c.empty()) d.attachNote() << c;
    d.attachNote() << "use a larger N or a smaller logQ, or opt out explicitly with security = \"none\" in "
                   << "#ckks.params (like OpenFHE's HEStd_NotSet) or with --allow-insecure";
    return d;
  }
  return success();
}

std::unique_ptr<rt::CompiledModule> compileAndLoad(ModuleOp module, const CompileOptions &resolved,
                                                   const DiagnosticCollector &diags, int *keptFd) {
  llvm::SmallString<128> dir;
  if (auto ec = llvm::sys::fs::createUniqueDirectory("fhec-program", dir))
    throw ProgramError(ProgramError::Kind::Compile, "cannot create a temporary directory: " + ec.message());
  std::string so = std::string(dir) + "/module.so", error;
  std::unique_ptr<rt::CompiledModule> loaded;
  bool ok = succeeded(compileToSharedLibrary(module, resolved, so, error));
  if (ok) {
    try {
      loaded = rt::CompiledModule::load(so);
    } catch (const rt::Error &e) {
      ok = false;
      error = e.what();
    }
  }
  // The loaded library stays mapped after its file is removed; an open
  // descriptor keeps its bytes readable.
  if (ok && keptFd) *keptFd = ::open(so.c_str(), O_RDONLY | O_CLOEXEC);
  llvm::sys::fs::remove(so);
  llvm::sys::fs::remove(std::string(dir));
  if (!ok) {
    if (error == "lowering failed") diags.raise(ProgramError::Kind::Compile);
    throw ProgramError(ProgramError::Kind::Compile, error);
  }
  return loaded;
}

} // namespace fhec
