// fhec-fuzz-mlir: the bytes as an MLIR source file, through everything the
// `fhec` driver does short of machine code: parse and verify with fhec's
// dialects, then the whole -O2 pipeline of the `cpu` target (ckks -> fhe ->
// loops -> LLVM dialect with the module ABI) and the translation to LLVM IR.
//
// A line `// fhec-fuzz: FLAGS` in the input sets compile flags as `fhec run
// --compare` takes them (`-O0`, `--target=cpu-avx512`, `--disable-pass=NAME`,
// `--pass-option=NAME{...}`) plus `--no-phase-timers`; it is a comment to the
// parser.
//
// The driver's security estimate runs (describeSecurity, checkSecurity) but is
// not enforced, so that small insecure rings, which compile fastest, are
// fuzzed too (fhec refuses them without `security = "none"`).
//
// Every error must be a diagnostic (they are rendered and dropped; set
// FHEC_FUZZ_VERBOSE=1 to print them). Findings:
// crashes and sanitizer reports; hangs and memory blow-ups (libFuzzer's
// -timeout and -rss_limit_mb: verifiers must refuse sizes the compiler cannot
// handle); and these oracles, which abort:
//   - print(parse(x)) does not parse back, or prints differently then;
//   - a pass that succeeded leaves IR that does not verify;
//   - a module that went through the pipeline does not translate to LLVM IR.
#include "codegen/Compiler.h"
#include "codegen/Pipeline.h"
#include "fhec/runtime/Error.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {

const DialectRegistry &registry() {
  static DialectRegistry *r = [] {
    auto *reg = new DialectRegistry;
    fhec::registerDialects(*reg);
    registerBuiltinDialectTranslation(*reg);
    registerLLVMDialectTranslation(*reg);
    registerOpenMPDialectTranslation(*reg);
    return reg;
  }();
  return *r;
}

/// The diagnostics of one input, kept to explain an oracle's abort.
struct Diagnostics {
  std::string text;
  void add(Diagnostic &d) {
    // Rendering runs the dialects' attribute and type printers too.
    std::string one = d.str() + "\n";
    for (Diagnostic &note : d.getNotes()) one += "  note: " + note.str() + "\n";
    static const bool verbose = std::getenv("FHEC_FUZZ_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "%s", one.c_str());
    text += one;
    if (text.size() > 8192) text.erase(0, text.size() - 8192);
  }
};

[[noreturn]] void finding(const std::string &what, const Diagnostics &diags) {
  std::fprintf(stderr, "fhec-fuzz-mlir: %s\n--- diagnostics ---\n%s", what.c_str(), diags.text.c_str());
  std::abort();
}

/// Verifies the IR after every pass that succeeded (the pass manager's own
/// verifier is off, so that a verifier failure is told apart from a pass
/// reporting an error).
struct VerifyAfterEachPass : public PassInstrumentation {
  Diagnostics &diags;
  explicit VerifyAfterEachPass(Diagnostics &d) : diags(d) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    if (failed(verify(op)))
      finding("pass '" + pass->getArgument().str() + "' succeeded but left IR that does not verify", diags);
  }
};

std::string print(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
}

/// Reads `// fhec-fuzz: FLAGS` lines. False if the flags are malformed.
bool readOptions(llvm::StringRef text, fhec::CompileOptions &options) {
  std::string flags;
  llvm::StringRef rest = text;
  while (!rest.empty()) {
    auto [line, next] = rest.split('\n');
    rest = next;
    line = line.trim();
    if (!line.consume_front("// fhec-fuzz:")) continue;
    llvm::SmallVector<llvm::StringRef> words;
    line.split(words, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef w : words) {
      if (w == "--no-phase-timers")
        options.phaseTimers = false;
      else
        flags += " " + w.str();
    }
  }
  std::string error;
  unsigned threads = 0;
  return succeeded(fhec::parseCompileFlags(flags, options, threads, error)) &&
         succeeded(fhec::resolveOptions(options, error));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A null-terminated copy, as the driver's MemoryBuffer of a file is.
  std::string source(reinterpret_cast<const char *>(data), size);
  fhec::CompileOptions options;
  if (!readOptions(source, options)) return -1;  // not an input fhec would compile

  MLIRContext ctx(registry(), MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  Diagnostics diags;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    diags.add(d);
    return success();
  });

  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx, "fuzz.mlir");
  if (!module) return 0;

  // Round trip through the printer and the parser (what --emit=fhe|mlir and
  // fhec-opt users feed back in).
  std::string printed = print(*module);
  {
    OwningOpRef<ModuleOp> again = parseSourceString<ModuleOp>(printed, &ctx, "printed.mlir");
    if (!again) finding("the printed module does not parse back:\n" + printed, diags);
    if (print(*again) != printed) finding("the printed module prints differently once parsed back:\n" + printed, diags);
  }

  // The driver's security estimate (errors on out-of-range sizes are rt::Error,
  // which the driver reports; the estimate must not crash on any size).
  try {
    (void)fhec::describeSecurity(*module);
    (void)fhec::checkSecurity(*module, /*allowInsecure=*/false);
  } catch (const fhec::rt::Error &) {
  }

  PassManager pm(&ctx);
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>(diags));
  std::string error;
  if (failed(fhec::buildFHEPipeline(pm, options, error)) || failed(fhec::buildLoopPipeline(pm, options, error)) ||
      failed(fhec::buildLLVMPipeline(pm, options, error)))
    return 0;  // bad pass options or a target without code generation: refused like the driver does
  if (failed(pm.run(*module))) return 0;

  llvm::LLVMContext llvmCtx;
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(*module, llvmCtx, "fuzz");
  if (!llvmModule) finding("the lowered module does not translate to LLVM IR", diags);
  return 0;
}
