#include "codegen/Emit.h"
#include "target/Target.h"

#include "fhec/runtime/Abi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Instrumentation/ThreadSanitizer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <algorithm>
#include <atomic>
#include <thread>

using namespace mlir;

namespace fhec {

namespace {
// The conditional subtractions of modular arithmetic (x >= p ? x - p : x) are
// data-dependent coin flips on ciphertext data: X86's cmov-to-branch
// conversion turns them into mispredicted branches (3.5x slower NTT on random
// residues). Keep them as cmov.
void keepConditionalMoves() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("x86-cmov-converter");
  if (it != options.end()) it->second->addOccurrence(0, "x86-cmov-converter", "false");
}

std::unique_ptr<llvm::TargetMachine> createTargetMachine(const CompileOptions &options, std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  keepConditionalMoves();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) return nullptr;
  // `cpu`: the portable x86-64 baseline, so a module runs on any 64-bit x86
  // machine; `cpu-avx512`: x86-64-v4 with IFMA and 512-bit vectors.
  const TargetSpec *spec = lookupTarget(options.target);
  if (!spec || spec->llvmCpu.empty()) {
    error = "no x86 code generation for target '" + options.target + "'";
    return nullptr;
  }
  llvm::TargetOptions to;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, spec->llvmCpu, spec->llvmFeatures, to, llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
}
} // namespace

std::unique_ptr<llvm::Module> translate(ModuleOp module, llvm::LLVMContext &ctx, const CompileOptions &options,
                                        std::string &error) {
  registerBuiltinDialectTranslation(*module.getContext());
  registerLLVMDialectTranslation(*module.getContext());
  registerOpenMPDialectTranslation(*module.getContext());
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(module, ctx, "fhec");
  if (!llvmModule) {
    error = "translation to LLVM IR failed";
    return nullptr;
  }
  auto tm = createTargetMachine(options, error);
  if (!tm) return nullptr;
  llvmModule->setTargetTriple(tm->getTargetTriple());
  llvmModule->setDataLayout(tm->createDataLayout());
  return llvmModule;
}

namespace {
void optimize(llvm::Module &module, llvm::TargetMachine &tm, const CompileOptions &options) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  // The kernels are vectorized where fhec wants them (cpu-avx512's 8-lane
  // loops); LLVM's auto-vectorizer would emulate the 64x64->128-bit products
  // of the scalar Shoup/Barrett code on vector lanes, which is slower.
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = false;
  tuning.SLPVectorization = false;
  llvm::PassBuilder pb(&tm, tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  if (options.sanitizeThread) {
    // Every access of the module's code is checked, as clang's -fsanitize=thread does.
    for (llvm::Function &f : module)
      if (!f.isDeclaration()) f.addFnAttr(llvm::Attribute::SanitizeThread);
    pb.registerOptimizerLastEPCallback([](llvm::ModulePassManager &mpm, llvm::OptimizationLevel,
                                          llvm::ThinOrFullLTOPhase) {
      mpm.addPass(llvm::ModuleThreadSanitizerPass());
      mpm.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::ThreadSanitizerPass()));
    });
  }
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(module, mam);
}
} // namespace

std::unique_ptr<llvm::Module> translateAndOptimize(ModuleOp module, llvm::LLVMContext &ctx,
                                                   const CompileOptions &options, std::string &error) {
  std::unique_ptr<llvm::Module> llvmModule = translate(module, ctx, options, error);
  if (!llvmModule) return nullptr;
  auto tm = createTargetMachine(options, error);
  if (!tm) return nullptr;
  optimize(*llvmModule, *tm, options);
  return llvmModule;
}

LogicalResult emitObjectFiles(ModuleOp module, const CompileOptions &options, const std::string &prefix,
                              std::vector<std::string> &objects, std::string &error) {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> whole = translate(module, ctx, options, error);
  if (!whole) return failure();
  // Warm the target registry and the global codegen options on this thread.
  if (!createTargetMachine(options, error)) return failure();
  size_t defined = llvm::count_if(*whole, [](const llvm::Function &f) { return !f.isDeclaration(); });
  // Four parts per core, functions dealt out by size (SplitModule's round
  // robin), taken from a queue by one thread per core: kernels differ a lot in
  // size, and one part per core left a core idle for ~0.5 s (measured: -11%
  // compile time on 2 cores, interleaved runs).
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  unsigned parts = std::max(1u, std::min({4 * cores, 16u, unsigned(defined / 4)}));
  // Each part as bitcode, to be read into a context of its own thread.
  std::vector<llvm::SmallVector<char, 0>> bitcode;
  if (parts == 1) {
    bitcode.emplace_back();
    llvm::raw_svector_ostream os(bitcode.back());
    llvm::WriteBitcodeToFile(*whole, os);
  } else {
    llvm::SplitModule(*whole, parts, [&](std::unique_ptr<llvm::Module> part) {
      bitcode.emplace_back();
      llvm::raw_svector_ostream os(bitcode.back());
      llvm::WriteBitcodeToFile(*part, os);
    }, /*PreserveLocals=*/false, /*RoundRobin=*/true);
  }
  std::vector<std::string> errors(bitcode.size());
  objects.clear();
  for (size_t i = 0; i < bitcode.size(); ++i) objects.push_back(prefix + "." + std::to_string(i) + ".o");
  auto work = [&](size_t i) {
    llvm::LLVMContext partCtx;
    auto parsed = llvm::parseBitcodeFile(llvm::MemoryBufferRef(llvm::StringRef(bitcode[i].data(), bitcode[i].size()),
                                                               "part"),
                                         partCtx);
    if (!parsed) {
      errors[i] = "cannot read back a part of the module: " + llvm::toString(parsed.takeError());
      return;
    }
    auto tm = createTargetMachine(options, errors[i]);
    if (!tm) return;
    optimize(**parsed, *tm, options);
    std::error_code ec;
    llvm::raw_fd_ostream os(objects[i], ec, llvm::sys::fs::OF_None);
    if (ec) {
      errors[i] = "cannot write '" + objects[i] + "': " + ec.message();
      return;
    }
    llvm::legacy::PassManager pm;
    if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile)) {
      errors[i] = "the target cannot emit object files";
      return;
    }
    pm.run(**parsed);
  };
  std::vector<std::thread> threads;
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < bitcode.size();) work(i);
  };
  for (unsigned t = 1; t < std::min<size_t>(cores, bitcode.size()); ++t) threads.emplace_back(worker);
  worker();
  for (auto &t : threads) t.join();
  for (const std::string &e : errors)
    if (!e.empty()) {
      error = e;
      return failure();
    }
  return success();
}

LogicalResult emitMachineCode(llvm::Module &module, const CompileOptions &options, bool assembly,
                              llvm::raw_pwrite_stream &os, std::string &error) {
  auto tm = createTargetMachine(options, error);
  if (!tm) return failure();
  llvm::legacy::PassManager pm;
  auto type = assembly ? llvm::CodeGenFileType::AssemblyFile : llvm::CodeGenFileType::ObjectFile;
  if (tm->addPassesToEmitFile(pm, os, nullptr, type)) {
    error = "the target cannot emit this file type";
    return failure();
  }
  pm.run(module);
  return success();
}

LogicalResult linkSharedLibrary(const std::vector<std::string> &objects, const std::string &soPath,
                                std::string &error) {
  std::string driver;
  // clang: its -fopenmp links LLVM's libomp (gcc's would link libgomp, which
  // lacks the __kmpc_* entry points MLIR's OpenMP lowering calls).
  for (const char *name : {"clang-22", "clang"}) {
    if (auto p = llvm::sys::findProgramByName(name)) {
      driver = *p;
      break;
    }
  }
  if (driver.empty()) {
    error = "no clang (clang-22 or clang) found on PATH to link the shared library against libomp";
    return failure();
  }
  // -fopenmp links LLVM's libomp, which the __kmpc_* calls of the parallel loops need.
  // -Bsymbolic: the module's calls to its own functions bind to them, never to a
  // same-named symbol loaded before it (a program function @step would call libc's).
  llvm::SmallVector<llvm::StringRef> args = {driver, "-shared", "-fopenmp", "-Wl,-Bsymbolic", "-o", soPath};
  for (const std::string &o : objects) args.push_back(o);
  std::string msg;
  int rc = llvm::sys::ExecuteAndWait(driver, args, std::nullopt, {}, 0, 0, &msg);
  if (rc != 0) {
    error = "linking '" + soPath + "' with " + driver + " failed" + (msg.empty() ? "" : ": " + msg);
    return failure();
  }
  return success();
}

std::optional<std::string> embeddedPTX(mlir::ModuleOp module) {
  auto global = module.lookupSymbol<mlir::LLVM::GlobalOp>(abi::kGpuPtxSymbol);
  auto text = global && global.getValue() ? llvm::dyn_cast<mlir::StringAttr>(*global.getValue()) : nullptr;
  if (!text) return std::nullopt;
  return text.getValue().rtrim('\0').str();
}

} // namespace fhec
