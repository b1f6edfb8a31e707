#include "codegen/Emit.h"
#include "passes/Target.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

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

std::unique_ptr<llvm::Module> translateAndOptimize(ModuleOp module, llvm::LLVMContext &ctx,
                                                   const CompileOptions &options, std::string &error) {
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
  llvm::PassBuilder pb(tm.get(), tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(*llvmModule, mam);
  return llvmModule;
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

LogicalResult linkSharedLibrary(const std::string &objectPath, const std::string &soPath, std::string &error) {
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
  llvm::SmallVector<llvm::StringRef> args = {driver, "-shared", "-fopenmp", "-o", soPath, objectPath};
  std::string msg;
  int rc = llvm::sys::ExecuteAndWait(driver, args, std::nullopt, {}, 0, 0, &msg);
  if (rc != 0) {
    error = "linking '" + soPath + "' with " + driver + " failed" + (msg.empty() ? "" : ": " + msg);
    return failure();
  }
  return success();
}

} // namespace fhec
