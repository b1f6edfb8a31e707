// fhec: compile CKKS programs to FHE kernels at any stage (ckks, fhe, loop
// MLIR, LLVM IR, assembly, object, shared library, PTX), or compile and run
// them (`fhec run`, Runner.h). A thin tool over the compile library
// (codegen/Compiler.h); every error is a diagnostic.
#include "codegen/ClientKernels.h"
#include "codegen/Compiler.h"
#include "codegen/Emit.h"
#include "frontend/Program.h"
#include "target/Target.h"
#include "tools/fhec/Runner.h"

#include "fhec/runtime/Params.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <optional>

using namespace mlir;
using namespace fhec;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory cat("fhec options");
cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"), cl::init("-"), cl::cat(cat));
cl::opt<std::string> outputFile("o", cl::desc("Output file (default: stdout)"), cl::value_desc("file"),
                                       cl::init("-"), cl::cat(cat));
cl::opt<std::string> targetOpt("target", cl::desc("Target: cpu (portable 64-bit), cpu-avx512 (AVX-512 IFMA), auto (the best CPU target this machine runs), cuda (NVIDIA GPUs: PTX, 30-bit primes, 32-bit words) or cuda-emu (the cuda kernels run on the CPU with the GPU's thread semantics; small sizes)"),
                                      cl::init("auto"), cl::cat(cat));
cl::opt<std::string> gpuArchOpt("gpu-arch", cl::desc("cuda: PTX target, sm_80 or sm_90 (default)"),
                                       cl::init("sm_90"), cl::cat(cat));
cl::opt<std::string> sanitizeOpt("sanitize",
                                        cl::desc("Instrument the compiled module: 'thread' (ThreadSanitizer, "
                                                 "--target=cuda-emu only; the module then runs only in a "
                                                 "-fsanitize=thread process such as build-tsan/bin/fhec-exec)"),
                                        cl::init(""), cl::cat(cat));
cl::opt<std::string> emitOpt("emit",
                                    cl::desc("What to produce: ckks (the scheme-level program, after --manage-scale), "
                                             "fhe (annotated fhe dialect), mlir (loop-level MLIR), "
                                             "llvm (LLVM IR of the host code), asm, obj, so (shared library for the runtime), "
                                             "ptx (the kernels of --target=cuda)"),
                                    cl::init("so"), cl::cat(cat));
cl::opt<unsigned> optLevel("O", cl::Prefix, cl::desc("Optimization level: -O0 (lowering passes only), "
                                                            "-O1 (per-kernel passes), -O2 (all passes; default)"),
                                  cl::init(2), cl::cat(cat));
cl::list<std::string> disablePass("disable-pass", cl::desc("Leave out an optimization pass (repeatable)"),
                                         cl::value_desc("name"), cl::cat(cat));
cl::list<std::string> passOption("pass-option",
                                        cl::desc("Options of an optimization pass, e.g. "
                                                 "'fhe-merge-ntt-levels{radix-log=4}' (repeatable)"),
                                        cl::value_desc("name{options}"), cl::cat(cat));
cl::opt<bool> allowInsecure("allow-insecure",
                                   cl::desc("Compile and run parameters whose security estimate is below the level "
                                            "#ckks.params requires (default 128 bits)"),
                                   cl::cat(cat));
cl::opt<bool> manageScaleOpt(
    "manage-scale",
    cl::desc("Run ckks-manage-scale first: rescale after every product and align the levels and scales of "
             "operands (for programs written without rescales)"),
    cl::cat(cat));
cl::opt<bool> clientOpt(
    "client",
    cl::desc("Compile the client kernels of the module's #ckks.params instead of its functions: key generation, "
             "encryption and decryption through NTT products (fhec/runtime/Client.h), with decrypt kernels for "
             "logQ and the levels of the functions' results; any --emit stage, a CPU target. Built for the "
             "secret of #ckks.params (decryption's windows hold up to its largest Hamming weight: h, or N "
             "for the uniform ternary secret; keys of another secret are refused)"),
    cl::cat(cat));
cl::opt<bool> gpuTraceOpt(
    "gpu-trace",
    cl::desc("--target=cuda-emu: instrument the kernels' memory accesses and instructions for the GPU cost model "
             "(bench/gpu/model.py; fhec-exec --gpu-trace=FILE records them)"),
    cl::cat(cat));
cl::opt<bool> noPhaseTimers("no-phase-timers", cl::desc("Do not instrument kernels with phase timers"),
                                   cl::cat(cat));
// `fhec run` options.
cl::opt<unsigned> repeatOpt("repeat", cl::desc("fhec run: timed executions (median reported)"), cl::init(1),
                                   cl::cat(cat));
cl::opt<std::string> functionOpt("function", cl::desc("fhec run: function to run (default: the only one)"),
                                        cl::cat(cat));
cl::opt<std::string> saveDir("save", cl::desc("fhec run: write params, keys, inputs and outputs to this directory"),
                                    cl::cat(cat));
cl::opt<std::string> loadDir("load", cl::desc("fhec run: read params, keys and inputs from this directory"),
                                    cl::cat(cat));
cl::opt<bool> noReference("no-reference", cl::desc("fhec run: skip the GMP reference check"), cl::cat(cat));
cl::opt<bool> gmpClient("gmp-client",
                               cl::desc("fhec run: generate keys, encrypt and decrypt with the GMP reference "
                                        "instead of the client kernels"),
                               cl::cat(cat));
cl::opt<std::string> keepModule("keep-module",
                                       cl::desc("fhec run: keep the compiled module at this path (for profilers)"),
                                       cl::cat(cat));
cl::opt<std::string> jsonOut("json", cl::desc("fhec run: also write the results as JSON to this file"),
                                    cl::cat(cat));
cl::list<std::string> compareOpt(
    "compare",
    cl::desc("fhec run: also compile with these flags (e.g. '-O0', '-O2 --disable-pass=fhe-fuse', '--threads=1', "
             "'-O0 --target=cpu'; target and threads default to the main ones) and time every configuration in "
             "turn on the same inputs (repeatable)"),
    cl::value_desc("flags"), cl::cat(cat));
cl::opt<bool> printTargets("print-targets",
                                  cl::desc("Print every target, the CPU features its modules need and those this "
                                           "CPU lacks, as JSON, and exit"),
                                  cl::cat(cat));

// Whether this process carries the ThreadSanitizer run time (instrumented modules need it).
bool builtWithThreadSanitizer() {
#if defined(__SANITIZE_THREAD__)
  return true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
  return true;
#endif
#endif
  return false;
}

/// Takes --threads[=]N out of `args` (read here: libLLVM already registers a
/// hidden option of that name): N, 0 when absent, nullopt after a message.
std::optional<unsigned> takeThreads(std::vector<char *> &args) {
  unsigned threads = 0;
  for (size_t i = 1; i < args.size(); ++i) {
    llvm::StringRef a(args[i]);
    if (!a.consume_front("--threads") && !a.consume_front("-threads")) continue;
    if (a.empty() && i + 1 < args.size()) {
      a = args[i + 1];
      args.erase(args.begin() + i + 1);
    } else if (!a.consume_front("=")) {
      continue;
    }
    if (a.getAsInteger(10, threads) || threads == 0) {
      llvm::errs() << "fhec: error: --threads needs a positive number, got '" << a << "'\n";
      return std::nullopt;
    }
    args.erase(args.begin() + i--);
  }
  return threads;
}

/// The compile options the flags ask for, checked and resolved; nullopt after a message.
std::optional<CompileOptions> compileOptions(bool runMode) {
  CompileOptions options;
  std::string error;
  options.target = targetOpt;
  options.gpuArch = gpuArchOpt;
  options.optLevel = optLevel;
  if (!sanitizeOpt.empty() && sanitizeOpt != "thread") {
    llvm::errs() << "fhec: error: unknown --sanitize=" << sanitizeOpt << " (expected thread)\n";
    return std::nullopt;
  }
  options.sanitizeThread = sanitizeOpt == "thread";
  const TargetSpec *named = lookupTarget(targetOpt);  // null for auto
  const bool emulatedGpu = named && named->emulated;
  if (options.sanitizeThread && !emulatedGpu) {
    // cpu: libomp's synchronization is invisible to TSan (false reports);
    // cuda: only the host code would be instrumented, not the kernels.
    llvm::errs() << "fhec: error: --sanitize=thread instruments the cuda-emu target's kernels only (got --target="
                 << targetOpt << ")\n";
    return std::nullopt;
  }
  if (runMode && options.sanitizeThread && !builtWithThreadSanitizer()) {
    llvm::errs() << "fhec: error: fhec run cannot load a --sanitize=thread module: this fhec is not built with "
                    "ThreadSanitizer; compile with --emit=so and run the module with fhec-exec from a "
                    "-fsanitize=thread build (scripts/sanitize.sh builds build-tsan/)\n";
    return std::nullopt;
  }
  if (gpuTraceOpt && !emulatedGpu) {
    llvm::errs() << "fhec: error: --gpu-trace instruments the cuda-emu target's kernels only (got --target="
                 << targetOpt << ")\n";
    return std::nullopt;
  }
  options.gpuTrace = gpuTraceOpt;
  options.disabledPasses.assign(disablePass.begin(), disablePass.end());
  options.phaseTimers = !noPhaseTimers;
  options.commandLinePassOptions = true;
  for (const std::string &spec : passOption) {
    if (failed(parsePassOption(spec, options, error))) {
      llvm::errs() << "fhec: error: " << error << "\n";
      return std::nullopt;
    }
  }
  if (failed(resolveOptions(options, error))) {
    llvm::errs() << "fhec: error: " << error << "\n";
    return std::nullopt;
  }
  if (targetOpt == "auto") llvm::errs() << "fhec: target: " << describeAutoTarget() << "\n";
  return options;
}

/// --client: replaces `module` by the client kernels of its #ckks.params.
int buildClient(MLIRContext &ctx, OwningOpRef<ModuleOp> &module, const CompileOptions &options, bool runMode) {
  if (runMode) {
    llvm::errs() << "fhec: error: --client compiles the client kernels; `fhec run` uses them already\n";
    return 1;
  }
  if (options.spec().gpu) {
    llvm::errs() << "fhec: error: the client kernels run on the CPU: --client needs a CPU target (cpu, "
                    "cpu-avx512 or auto), got --target="
                 << options.target << "\n";
    return 1;
  }
  auto p = ckks::getModuleParams(*module);
  if (!p) {
    llvm::errs() << "fhec: error: --client needs the module attribute 'ckks.params'\n";
    return 1;
  }
  rt::Params params = runtimeParams(p);
  try {
    module = buildClientKernels(ctx, params, options.spec(), resultLevels(*module));
  } catch (const ProgramError &e) {
    llvm::errs() << "fhec: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

/// `fhec run`: the main configuration and each --compare.
int runModule(ModuleOp module, const CompileOptions &options, unsigned threads) {
  std::string error;
  RunOptions ro;
  ro.compile = options;
  ro.repeat = std::max(1u, unsigned(repeatOpt));
  ro.function = functionOpt;
  ro.saveDir = saveDir;
  ro.loadDir = loadDir;
  ro.checkReference = !noReference;
  ro.jsonPath = jsonOut;
  ro.keepModule = keepModule;
  ro.gmpClient = gmpClient;
  ro.threads = threads;
  for (const std::string &flags : compareOpt) {
    // A comparison starts from the main target and threads; its flags override them.
    CompileOptions c;
    c.target = options.target;
    c.phaseTimers = options.phaseTimers;
    unsigned compareThreads = ro.threads;
    if (failed(parseCompileFlags(flags, c, compareThreads, error)) || failed(resolveOptions(c, error))) {
      llvm::errs() << "fhec: error: --compare='" << flags << "': " << error << "\n";
      return 1;
    }
    ro.compare.push_back({flags, c, compareThreads});
  }
  return runProgram(module, ro);
}

/// --emit: the module at the stage asked for, to -o.
int emitModule(ModuleOp module, const CompileOptions &options) {
  std::string error;
  const std::string emit = emitOpt;
  static const char *kinds[] = {"ckks", "fhe", "mlir", "llvm", "asm", "obj", "so", "ptx"};
  if (!llvm::is_contained(kinds, emit)) {
    llvm::errs() << "fhec: error: unknown --emit=" << emit << " (expected ckks, fhe, mlir, llvm, asm, obj, so or ptx)\n";
    return 1;
  }
  if (emit == "ptx" && !(options.spec().gpu && !options.spec().emulated)) {  // PTX: a GPU's, not emulated
    llvm::errs() << "fhec: error: --emit=ptx needs --target=cuda\n";
    return 1;
  }
  if (emit == "so") {
    if (outputFile == "-") {
      llvm::errs() << "fhec: error: --emit=so needs an output file (-o lib.so)\n";
      return 1;
    }
    if (failed(compileToSharedLibrary(module, options, outputFile, error))) {
      if (error != "lowering failed") llvm::errs() << "fhec: error: " << error << "\n";
      return 1;
    }
    return 0;
  }
  Stage stage = emit == "fhe" ? Stage::FHE : emit == "mlir" ? Stage::Loops : Stage::LLVMDialect;
  if (emit != "ckks" && failed(lowerModule(module, options, stage))) return 1;
  auto out = openOutputFile(outputFile, &error);
  if (!out) {
    llvm::errs() << "fhec: error: " << error << "\n";
    return 1;
  }
  if (emit == "ckks" || emit == "fhe" || emit == "mlir") {
    module.print(out->os());
    out->os() << "\n";
  } else if (emit == "ptx") {
    std::optional<std::string> ptx = embeddedPTX(module);
    if (!ptx) {
      llvm::errs() << "fhec: error: the module has no kernels\n";
      return 1;
    }
    out->os() << *ptx;
  } else {
    llvm::LLVMContext llvmCtx;
    auto llvmModule = translateAndOptimize(module, llvmCtx, options, error);
    if (!llvmModule) {
      llvm::errs() << "fhec: error: " << error << "\n";
      return 1;
    }
    if (emit == "llvm") {
      llvmModule->print(out->os(), nullptr);
    } else if (failed(emitMachineCode(*llvmModule, options, emit == "asm", out->os(), error))) {
      llvm::errs() << "fhec: error: " << error << "\n";
      return 1;
    }
  }
  out->keep();
  return 0;
}

int driverMain(int argc, char **argv) {
  bool runMode = argc > 1 && std::string(argv[1]) == "run";
  std::vector<char *> args(argv, argv + argc);
  if (runMode) args.erase(args.begin() + 1);
  std::optional<unsigned> threads = takeThreads(args);
  if (!threads) return 1;
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  // --help lists fhec's options; MLIR's (--mlir-print-ir-after-all,
  // --mlir-timing, ...) still work and are listed by --help-hidden.
  cl::HideUnrelatedOptions(cat);
  cl::ParseCommandLineOptions(int(args.size()), args.data(),
                              "fhec: the FHE kernel compiler\n\n"
                              "  fhec in.mlir --target=auto -O2 --emit=ckks|fhe|mlir|llvm|asm|obj|so|ptx -o out\n"
                              "  fhec run in.mlir   compile, generate keys, encrypt random inputs, run,\n"
                              "                     decrypt and check against the plaintext computation\n"
                              "                     and the GMP reference; print per-phase times\n\n"
                              "  --threads=<n>      fhec run: threads of the parallel loops (default: all cores)\n\n"
                              "Standard MLIR flags (--mlir-print-ir-after-all, --mlir-timing, ...) also work;\n"
                              "--help-hidden lists them.\n");
  if (printTargets) {
    llvm::outs() << targetsJson() << "\n";
    return 0;
  }
  DialectRegistry registry;
  registerDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &ctx);
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << "fhec: error: " << error << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module) return 1;
  if (std::string sec = describeSecurity(*module); !sec.empty()) {
    auto p = ckks::getModuleParams(*module);
    llvm::errs() << "fhec: security: " << sec
                 << (p.getRequiredSecurityBits() == 0 ? " [not enforced: security = \"none\"]"
                     : allowInsecure                  ? " [not enforced: --allow-insecure]"
                                                      : "")
                 << "\n";
  }
  if (failed(checkSecurity(*module, allowInsecure))) return 1;
  // Expansion and management rewrite the program itself: `fhec run` checks
  // the expanded, managed one.
  if (failed(expandPolynomials(*module))) return 1;
  if (manageScaleOpt && failed(manageScale(*module))) return 1;

  std::optional<CompileOptions> options = compileOptions(runMode);
  if (!options) return 1;
  if (clientOpt)
    if (int rc = buildClient(ctx, module, *options, runMode)) return rc;
  return runMode ? runModule(*module, *options, *threads) : emitModule(*module, *options);
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Errors are diagnostics; anything that escapes them is reported, not a crash.
  try {
    return driverMain(argc, argv);
  } catch (const std::exception &e) {
    llvm::errs() << "fhec: error: " << e.what() << "\n";
  } catch (...) {
    llvm::errs() << "fhec: error: unexpected internal error\n";
  }
  return 1;
}
