#include "codegen/Pipeline.h"
#include "abi/Passes.h"
#include "conversion/Passes.h"
#include "dialect/CKKS/Transforms/Passes.h"
#include "dialect/FHE/Transforms/Passes.h"
#include "target/Passes.h"
#include "target/Target.h"

#include "fhec/runtime/CpuFeatures.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

namespace fhec {

/// The lowering pass, whose options --pass-option also sets (e.g. its testing knobs).
static constexpr const char *kLoweringPass = "fhe-to-loops";

ArrayRef<OptimizationPass> optimizationPasses() {
  // Order matters: layouts are chosen on the unfused ops, and fusion keeps them.
  static const OptimizationPass passes[] = {
      {"fhe-hoist-automorphisms", 1, false, [] { return createFHEHoistAutomorphisms(); }},
      {"fhe-reorder-icrt", 1, false, [] { return createFHEReorderICRT(); }},
      {"fhe-merge-ntt-levels", 1, false, [] { return createFHEMergeNTTLevels(); }},
      {"fhe-insert-transposes", 2, false, [] { return createFHEInsertTransposes(); }},
      {"fhe-hoist-constants", 1, false, [] { return createFHEHoistConstants(); }},
      {"fhe-fuse", 2, false, [] { return createFHEFuse(); }},
      {"fhec-plan-workspace", 1, true, [] { return createFHECPlanWorkspace(); }},
  };
  return passes;
}

const TargetSpec &CompileOptions::spec() const {
  const TargetSpec *t = lookupTarget(target);
  if (!t) llvm::report_fatal_error(llvm::Twine("CompileOptions: target '") + target + "' is not resolved");
  return *t;
}

LogicalResult resolveOptions(CompileOptions &options, std::string &error) {
  const TargetSpec *target = resolveTarget(options.target, error);
  if (!target) return failure();
  options.target = target->name.str();
  if (options.gpuArch != "sm_80" && options.gpuArch != "sm_90") {
    error = "unknown --gpu-arch=" + options.gpuArch + " (expected sm_80 or sm_90)";
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
  for (const std::string &name : options.disabledPasses) {
    if (!known(name)) {
      error = "--disable-pass=" + name + ": no such optimization pass (passes: " + names + ")";
      return failure();
    }
    // GPU targets always plan their memory (addOptimizations).
    if (name == "fhec-plan-workspace" && options.spec().gpu) {
      error = "--disable-pass=" + name + ": a GPU target needs it (its buffers live in the workspace)";
      return failure();
    }
  }
  for (const auto &option : options.passOptions) {
    const std::string &name = option.first, &opts = option.second;
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
  const bool gpu = options.spec().gpu;
  for (const OptimizationPass &p : optimizationPasses()) {
    if (p.onLoops != onLoops) continue;
    // GPU targets need every buffer in the workspace (device memory
    // allocated by the runtime): memory planning runs at every -O level.
    bool required = gpu && llvm::StringRef(p.name) == "fhec-plan-workspace";
    if (llvm::is_contained(options.disabledPasses, p.name)) continue;
    if (p.level > options.optLevel && !required) continue;
    std::unique_ptr<Pass> pass = p.create();
    auto it = options.passOptions.find(p.name);
    std::string opts = it != options.passOptions.end() ? it->second : "";
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
  FHECAttachTargetOptions attach;
  attach.name = options.spec().name.str();
  pm.addPass(createFHECAttachTarget(attach));
  pm.addPass(createCKKSExpandBootstrap());
  pm.addPass(createCKKSExpandPolyEval());
  pm.addPass(createCKKSToFHE());
  pm.addPass(createCSEPass());
  pm.addPass(createFHESelectBasis());
  return addOptimizations(pm, options, /*onLoops=*/false, error);
}

LogicalResult buildLoopPipeline(OpPassManager &pm, const CompileOptions &options, std::string &error) {
  std::unique_ptr<Pass> lowering = createFHEToLoops();
  std::string opts = std::string("phase-timers=") + (options.phaseTimers ? "true" : "false");
  if (options.cudaArithmeticOnHost) opts += " gpu-launches=false";
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

// The host's lowering to the LLVM dialect (bare-pointer calling convention).
static void addHostLowering(OpPassManager &pm) {
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
}

// GPU targets: every parallel loop nest of a kernel (all of them, once the
// kernels are inlined into their entry) becomes a grid -- the outer tile
// loop over blocks, the inner one over kGpuBlockThreads threads --; with the
// gpu.launch ops the lowering wrote itself (the NTT's levels, with their own
// block sizes and shared memory) it is outlined into gpu.module
// @fhec_kernels and compiled to PTX (cuda) or to host functions run by the
// CPU execution (cuda-emu); launches call the runtime's hooks. Blocks of 256
// threads: 8 warps, so an SM reaches full occupancy within its 32-block limit.
static constexpr int64_t kGpuBlockThreads = 256;

// The data layout LLVM's NVPTX backend uses for 64-bit PTX (the same for
// every sm_XX), with 32-bit pointers to shared, constant and local memory
// (nvcc's choice; clang's -fcuda-short-ptr): a shared-memory address is one
// register, not two, which keeps the tiled kernels' addresses of their
// shared buffers within 64 registers (ptxas -v, test/targets/cuda-ptxas.mlir).
// The backend's switch is a process-wide option, set here before any NVPTX
// target machine exists, so that this layout and the code generation of
// gpu-module-to-binary agree.
static std::string nvptxDataLayout() {
  static const std::string layout = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    auto *shortPointers = llvm::cl::getRegisteredOptions().lookup("nvptx-short-ptr");
    if (!shortPointers) llvm::report_fatal_error("LLVM's NVPTX backend has no option nvptx-short-ptr");
    static_cast<llvm::cl::opt<bool> *>(shortPointers)->setValue(true);
    llvm::Triple triple("nvptx64-nvidia-cuda");
    std::string error;
    const llvm::Target *t = llvm::TargetRegistry::lookupTarget(triple, error);
    if (!t) llvm::report_fatal_error(llvm::Twine("the NVPTX backend is missing from LLVM: ") + error);
    std::unique_ptr<llvm::TargetMachine> tm(
        t->createTargetMachine(triple, "", "", llvm::TargetOptions(), std::nullopt));
    return tm->createDataLayout().getStringRepresentation();
  }();
  return layout;
}

static void addGPULowering(OpPassManager &pm, const CompileOptions &options) {
  const bool emu = options.spec().emulated;
  pm.addPass(createInlinerPass());
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(createFHECPromoteThreadScratch());
  fn.addPass(createFHECCopyToParallelLoops());
  fn.addPass(createFHECSerialCodeToParallel());
  fn.addPass(createFHECNormalizeParallelLoops());
  fn.addPass(createParallelLoopTilingPass({kGpuBlockThreads}, /*noMinMaxBounds=*/true));
  fn.addPass(createGpuMapParallelLoopsPass());
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  FHECGPUKernelModuleOptions kernelModule;
  if (!emu) kernelModule.dataLayout = nvptxDataLayout();
  pm.addPass(createFHECGPUKernelModule(kernelModule));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  if (emu) {
    pm.addPass(createFHECGPULaunchToRuntime());
    pm.addPass(createFHECGPUToEmu());
    if (options.gpuTrace) pm.addPass(createFHECGPUEmuTrace());
    pm.addPass(createConvertVectorToLLVMPass());  // the NTT's twiddle vectors
    addHostLowering(pm);
    pm.addPass(createFHECGPUEmuTrampolines());
  } else {
    GpuNVVMAttachTargetOptions nvvm;
    nvvm.chip = options.gpuArch;
    nvvm.optLevel = 3;
    pm.addPass(createGpuNVVMAttachTarget(nvvm));
    ConvertGpuOpsToNVVMOpsOptions toNVVM;
    toNVVM.useBarePtrCallConv = true;
    pm.nest<gpu::GPUModuleOp>().addPass(createConvertGpuOpsToNVVMOps(toNVVM));
    pm.addPass(createReconcileUnrealizedCastsPass());
    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = "isa";  // PTX text: LLVM's NVPTX backend, no CUDA toolkit
    pm.addPass(createGpuModuleToBinaryPass(binary));
    pm.addPass(createFHECGPULaunchToRuntime());
    addHostLowering(pm);
  }
}

LogicalResult buildLLVMPipeline(OpPassManager &pm, const CompileOptions &options, std::string &error) {
  const TargetSpec *target = &options.spec();
  // The only target-specific arithmetic: IFMA for cpu-avx512, 64-bit words otherwise.
  if (target->ifma) {
    pm.addPass(createModArithToAVX512());
  } else {
    ModArithToArithOptions arith;
    arith.wordBits = target->wordBits;
    pm.addPass(createModArithToArith(arith));
  }
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (target->gpu && !options.cudaArithmeticOnHost) {
    addGPULowering(pm, options);
  } else {
    pm.addPass(createConvertVectorToLLVMPass());
    // scf.parallel -> omp.parallel + omp.wsloop (LLVM's libomp at run time);
    // memref lowering before scf-to-cf so each body's alloca scope keeps one block.
    pm.addPass(createConvertSCFToOpenMPPass());
    addHostLowering(pm);
  }
  pm.addPass(createFHECEmitABI());
  return success();
}

void registerDialects(DialectRegistry &registry) {
  registry.insert<ckks::CKKSDialect, fhe::FHEDialect, modarith::ModArithDialect, func::FuncDialect,
                  arith::ArithDialect, scf::SCFDialect, memref::MemRefDialect, LLVM::LLVMDialect,
                  cf::ControlFlowDialect, index::IndexDialect, omp::OpenMPDialect, vector::VectorDialect,
                  affine::AffineDialect, gpu::GPUDialect, NVVM::NVVMDialect>();
  // GPU targets inline kernels into their entries.
  func::registerInlinerExtension(registry);
  // convert-gpu-to-nvvm lowers the kernels' other dialects through these.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  // gpu-module-to-binary: the NVVM target and the device module's translation.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
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
