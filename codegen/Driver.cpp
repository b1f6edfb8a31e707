#include "codegen/Driver.h"
#include "codegen/Emit.h"
#include "codegen/Runner.h"
#include "passes/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace fhec {

LogicalResult lowerModule(ModuleOp module, const CompileOptions &options, Stage stage) {
  PassManager pm(module.getContext());
  if (options.commandLinePassOptions) {
    if (failed(applyPassManagerCLOptions(pm))) return failure();
    applyDefaultTimingPassManagerCLOptions(pm);
  }
  buildFHEPipeline(pm, options);
  if (stage != Stage::FHE) buildLoopPipeline(pm, options);
  if (stage == Stage::LLVMDialect) buildLLVMPipeline(pm, options);
  return pm.run(module);
}

LogicalResult compileToSharedLibrary(ModuleOp module, const CompileOptions &options, const std::string &soPath,
                                     std::string &error) {
  if (failed(lowerModule(module, options, Stage::LLVMDialect))) {
    error = "lowering failed";
    return failure();
  }
  llvm::LLVMContext llvmCtx;
  auto llvmModule = translateAndOptimize(module, llvmCtx, options, error);
  if (!llvmModule) return failure();
  std::string objPath = soPath + ".o";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(objPath, ec, llvm::sys::fs::OF_None);
    if (ec) {
      error = "cannot write '" + objPath + "': " + ec.message();
      return failure();
    }
    if (failed(emitMachineCode(*llvmModule, options, /*assembly=*/false, os, error))) return failure();
  }
  LogicalResult linked = linkSharedLibrary(objPath, soPath, error);
  llvm::sys::fs::remove(objPath);
  return linked;
}

void registerDialects(DialectRegistry &registry) {
  registry.insert<ckks::CKKSDialect, fhe::FHEDialect, func::FuncDialect, arith::ArithDialect, scf::SCFDialect,
                  memref::MemRefDialect, LLVM::LLVMDialect, cf::ControlFlowDialect, index::IndexDialect>();
}

int driverMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  bool runMode = argc > 1 && std::string(argv[1]) == "run";
  std::vector<char *> args(argv, argv + argc);
  if (runMode) args.erase(args.begin() + 1);
  // Function-local so that only the fhec tool registers them (fhec-opt links this library too).
  static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"), cl::init("-"));
  static cl::opt<std::string> outputFile("o", cl::desc("Output file (default: stdout)"), cl::value_desc("file"), cl::init("-"));
  static cl::opt<std::string> targetOpt("target", cl::desc("Target: cpu (portable 64-bit) or auto"), cl::init("cpu"));
  static cl::opt<std::string> emitOpt("emit",
                               cl::desc("What to produce: fhe (annotated fhe dialect), mlir (loop-level MLIR), "
                                        "llvm (LLVM IR), asm, obj, so (shared library for the runtime)"),
                               cl::init("so"));
  static cl::opt<bool> noPhaseTimers("no-phase-timers", cl::desc("Do not instrument kernels with phase timers"));
  // `fhec run` options.
  static cl::opt<unsigned> repeatOpt("repeat", cl::desc("fhec run: timed executions (median reported)"), cl::init(1));
  static cl::opt<std::string> functionOpt("function", cl::desc("fhec run: function to run (default: the only one)"));
  static cl::opt<std::string> saveDir("save", cl::desc("fhec run: write params, keys, inputs and outputs to this directory"));
  static cl::opt<std::string> loadDir("load", cl::desc("fhec run: read params, keys and inputs from this directory"));
  static cl::opt<bool> noReference("no-reference", cl::desc("fhec run: skip the GMP reference check"));
  static cl::opt<std::string> keepModule("keep-module",
                                         cl::desc("fhec run: keep the compiled module at this path (for profilers)"));
  static cl::opt<std::string> jsonOut("json", cl::desc("fhec run: also write the results as JSON to this file"));
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::ParseCommandLineOptions(int(args.size()), args.data(),
                              "fhec: the FHE kernel compiler\n\n"
                              "  fhec in.mlir --target=cpu --emit=fhe|mlir|llvm|asm|obj|so -o out\n"
                              "  fhec run in.mlir   compile, generate keys, encrypt random inputs, run,\n"
                              "                     decrypt and check against the plaintext computation\n"
                              "                     and the GMP reference; print per-phase times\n");
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

  CompileOptions options;
  options.target = targetOpt;
  options.phaseTimers = !noPhaseTimers;
  options.commandLinePassOptions = true;
  if (failed(resolveTarget(options, error))) {
    llvm::errs() << "fhec: error: " << error << "\n";
    return 1;
  }

  if (runMode) {
    RunOptions ro;
    ro.compile = options;
    ro.repeat = std::max(1u, unsigned(repeatOpt));
    ro.function = functionOpt;
    ro.saveDir = saveDir;
    ro.loadDir = loadDir;
    ro.checkReference = !noReference;
    ro.jsonPath = jsonOut;
    ro.keepModule = keepModule;
    return runProgram(*module, ro);
  }

  const std::string emit = emitOpt;
  static const char *kinds[] = {"fhe", "mlir", "llvm", "asm", "obj", "so"};
  if (!llvm::is_contained(kinds, emit)) {
    llvm::errs() << "fhec: error: unknown --emit=" << emit << " (expected fhe, mlir, llvm, asm, obj or so)\n";
    return 1;
  }
  if (emit == "so") {
    if (outputFile == "-") {
      llvm::errs() << "fhec: error: --emit=so needs an output file (-o lib.so)\n";
      return 1;
    }
    if (failed(compileToSharedLibrary(*module, options, outputFile, error))) {
      if (error != "lowering failed") llvm::errs() << "fhec: error: " << error << "\n";
      return 1;
    }
    return 0;
  }
  Stage stage = emit == "fhe" ? Stage::FHE : emit == "mlir" ? Stage::Loops : Stage::LLVMDialect;
  if (failed(lowerModule(*module, options, stage))) return 1;
  auto out = openOutputFile(outputFile, &error);
  if (!out) {
    llvm::errs() << "fhec: error: " << error << "\n";
    return 1;
  }
  if (emit == "fhe" || emit == "mlir") {
    module->print(out->os());
    out->os() << "\n";
  } else {
    llvm::LLVMContext llvmCtx;
    auto llvmModule = translateAndOptimize(*module, llvmCtx, options, error);
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

} // namespace fhec
