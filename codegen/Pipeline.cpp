#include "codegen/Pipeline.h"
#include "conversion/Passes.h"
#include "passes/Passes.h"
#include "passes/Target.h"

#include "fhec/runtime/CpuFeatures.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace fhec {

/// The lowering pass, whose options --pass-option also sets (e.g. its testing knobs).
static constexpr const char *kLoweringPass = "fhe-to-loops";

ArrayRef<OptimizationPass> optimizationPasses() {
  // Order matters: layouts are chosen on the unfused ops, and fusion keeps them.
  static const OptimizationPass passes[] = {
      {"fhe-reorder-icrt", 1, false, [] { return createFHEReorderICRT(); }},
      {"fhe-merge-ntt-levels", 1, false, [] { return createFHEMergeNTTLevels(); }},
      {"fhe-insert-transposes", 2, false, [] { return createFHEInsertTransposes(); }},
      {"fhe-fuse", 2, false, [] { return createFHEFuse(); }},
      {"fhec-plan-workspace", 1, true, [] { return createFHECPlanWorkspace(); }},
  };
  return passes;
}

LogicalResult resolveOptions(CompileOptions &options, std::string &error) {
  // auto: the fastest target this CPU runs.
  if (options.target == "auto")
    options.target = rt::missingCpuFeatures(lookupTarget("cpu-avx512")->requiredCpuFeatures()).empty() ? "cpu-avx512"
                                                                                                        : "cpu";
  if (options.target != "cpu" && options.target != "cpu-avx512" && options.target != "cuda") {
    error = "unknown target '" + options.target + "' (available: cpu, cpu-avx512, auto; cuda for --emit=fhe|mlir)";
    return failure();
  }
  if (options.optLevel > 2) {
    error = "unknown optimization level -O" + std::to_string(options.optLevel) + " (expected -O0, -O1 or -O2)";
    return failure();
  }
  auto known = [](const std::string &name) {
    return llvm::any_of(optimizationPasses(), [&](const OptimizationPass &p) { return name == p.name; });
  };
  std::string names;
  for (const OptimizationPass &p : optimizationPasses()) names += std::string(names.empty() ? "" : ", ") + p.name;
  for (const std::string &name : options.disabledPasses)
    if (!known(name)) {
      error = "--disable-pass=" + name + ": no such optimization pass (passes: " + names + ")";
      return failure();
    }
  for (const auto &[name, opts] : options.passOptions) {
    auto p = llvm::find_if(optimizationPasses(), [&](const OptimizationPass &o) { return name == o.name; });
    if (p == optimizationPasses().end() && name != kLoweringPass) {
      error = "--pass-option: no optimization pass named '" + name + "' (passes: " + names + "; and the lowering, " +
              kLoweringPass + ")";
      return failure();
    }
    // Parse them now, so that a typo is reported before anything is compiled.
    std::unique_ptr<Pass> pass = name == kLoweringPass ? createFHEToLoops() : p->create();
    if (failed(pass->initializeOptions(opts, [&](const Twine &msg) {
          error = ("options of " + Twine(name) + ": " + msg).str();
          return failure();
        })))
      return failure();
  }
  return success();
}

// The optimization passes of `options` for one stage, each built from its
// registry entry with the target and the user's options.
static LogicalResult addOptimizations(OpPassManager &pm, const CompileOptions &options, bool onLoops,
                                      std::string &error) {
  for (const OptimizationPass &p : optimizationPasses()) {
    if (p.onLoops != onLoops || p.level > options.optLevel || llvm::is_contained(options.disabledPasses, p.name))
      continue;
    std::unique_ptr<Pass> pass = p.create();
    // Every optimization pass takes the target; user options come after and win.
    std::string opts = "target=" + options.target;
    auto it = options.passOptions.find(p.name);
    if (it != options.passOptions.end()) opts += " " + it->second;
    if (failed(pass->initializeOptions(opts, [&](const Twine &msg) {
          error = ("options of " + Twine(p.name) + ": " + msg).str();
          return failure();
        })))
      return failure();
    pm.addPass(std::move(pass));
  }
  return success();
}

LogicalResult buildFHEPipeline(OpPassManager &pm, const CompileOptions &options, std::string &error) {
  pm.addPass(createCKKSToFHE());
  pm.addPass(createCSEPass());
  FHESelectBasisOptions sb;
  sb.target = options.target;
  pm.addPass(createFHESelectBasis(sb));
  return addOptimizations(pm, options, /*onLoops=*/false, error);
}

LogicalResult buildLoopPipeline(OpPassManager &pm, const CompileOptions &options, std::string &error) {
  std::unique_ptr<Pass> lowering = createFHEToLoops();
  std::string opts = "target=" + options.target + " phase-timers=" + (options.phaseTimers ? "true" : "false");
  if (auto it = options.passOptions.find(kLoweringPass); it != options.passOptions.end()) opts += " " + it->second;
  if (failed(lowering->initializeOptions(opts, [&](const Twine &msg) {
        error = ("options of " + Twine(kLoweringPass) + ": " + msg).str();
        return failure();
      })))
    return failure();
  pm.addPass(std::move(lowering));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createFHECOutlineKernels());
  if (failed(addOptimizations(pm, options, /*onLoops=*/true, error))) return failure();
  pm.addPass(createFHECABI());
  pm.addPass(createFHECFreeBuffers());
  return success();
}

LogicalResult buildLLVMPipeline(OpPassManager &pm, const CompileOptions &options, std::string &error) {
  if (options.target == "cuda" && !options.cudaArithmeticOnHost) {
    error = "target 'cuda': only --emit=fhe and --emit=mlir are implemented; the GPU mapping, PTX emission and the "
            "CUDA runtime are not built yet";
    return failure();
  }
  // The only target-specific arithmetic: IFMA for cpu-avx512, 64-bit words otherwise.
  if (options.target == "cpu-avx512") {
    pm.addPass(createModArithToAVX512());
  } else {
    ModArithToArithOptions arith;
    arith.wordBits = lookupTarget(options.target)->shoupBits == 32 ? 32 : 64;
    pm.addPass(createModArithToArith(arith));
  }
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createConvertVectorToLLVMPass());
  // scf.parallel -> omp.parallel + omp.wsloop (LLVM's libomp at run time);
  // memref lowering before scf-to-cf so each body's alloca scope keeps one block.
  pm.addPass(createConvertSCFToOpenMPPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  ConvertFuncToLLVMPassOptions funcOpts;
  funcOpts.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOpts));
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createFHECEmitABI());
  return success();
}

void registerDialects(DialectRegistry &registry) {
  registry.insert<ckks::CKKSDialect, fhe::FHEDialect, modarith::ModArithDialect, func::FuncDialect,
                  arith::ArithDialect, scf::SCFDialect, memref::MemRefDialect, LLVM::LLVMDialect,
                  cf::ControlFlowDialect, index::IndexDialect, omp::OpenMPDialect, vector::VectorDialect>();
}

void registerPipelines() {
  auto full = [](unsigned level) {
    return [level](OpPassManager &pm) {
      CompileOptions o;
      o.optLevel = level;
      std::string error;
      if (failed(buildFHEPipeline(pm, o, error)) || failed(buildLoopPipeline(pm, o, error)) ||
          failed(buildLLVMPipeline(pm, o, error)))
        llvm::report_fatal_error(llvm::Twine(error));
    };
  };
  PassPipelineRegistration<>("fhec-cpu-pipeline", "ckks/fhe to the LLVM dialect for the portable cpu target (-O2)",
                             full(2));
  PassPipelineRegistration<>("fhec-cpu-pipeline-O0", "ckks/fhe to the LLVM dialect, lowering passes only", full(0));
  PassPipelineRegistration<>("fhec-cpu-lower-to-llvm", "loop-level MLIR to the LLVM dialect with the module ABI",
                             [](OpPassManager &pm) {
                               std::string error;
                               (void)buildLLVMPipeline(pm, CompileOptions(), error);  // cpu: cannot fail
                             });
  PassPipelineRegistration<>("fhec-cpu-avx512-pipeline", "ckks/fhe to the LLVM dialect for the cpu-avx512 target (-O2)",
                             [](OpPassManager &pm) {
                               CompileOptions o;
                               o.target = "cpu-avx512";
                               std::string error;
                               if (failed(buildFHEPipeline(pm, o, error)) || failed(buildLoopPipeline(pm, o, error)) ||
                                   failed(buildLLVMPipeline(pm, o, error)))
                                 llvm::report_fatal_error(llvm::Twine(error));
                             });
}

} // namespace fhec
