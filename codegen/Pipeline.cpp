#include "codegen/Pipeline.h"
#include "passes/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace fhec {

LogicalResult resolveTarget(CompileOptions &options, std::string &error) {
  if (options.target == "auto") options.target = "cpu";
  if (options.target == "cpu") return success();
  error = "unknown target '" + options.target + "' (available: cpu, auto)";
  return failure();
}

void buildFHEPipeline(OpPassManager &pm, const CompileOptions &options) {
  pm.addPass(createCKKSToFHE());
  pm.addPass(createCSEPass());
  FHESelectBasisOptions sb;
  sb.target = options.target;
  pm.addPass(createFHESelectBasis(sb));
}

void buildLoopPipeline(OpPassManager &pm, const CompileOptions &options) {
  FHEToLoopsOptions tl;
  tl.phaseTimers = options.phaseTimers;
  pm.addPass(createFHEToLoops(tl));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void buildLLVMPipeline(OpPassManager &pm, const CompileOptions &) {
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  ConvertFuncToLLVMPassOptions funcOpts;
  funcOpts.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOpts));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createFHECEmitABI());
}

void registerPipelines() {
  PassPipelineRegistration<>("fhec-cpu-pipeline", "ckks/fhe to the LLVM dialect for the portable cpu target",
                             [](OpPassManager &pm) {
                               CompileOptions o;
                               buildFHEPipeline(pm, o);
                               buildLoopPipeline(pm, o);
                               buildLLVMPipeline(pm, o);
                             });
  PassPipelineRegistration<>("fhec-cpu-lower-to-llvm", "loop-level MLIR to the LLVM dialect with the module ABI",
                             [](OpPassManager &pm) { buildLLVMPipeline(pm, CompileOptions()); });
}

} // namespace fhec
