// fhec's compilation pipelines: ckks -> fhe (annotated by the optimization
// passes of the -O level) -> loops -> LLVM dialect with the module ABI, for
// one target.
#pragma once

#include "target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <map>
#include <string>
#include <vector>

namespace fhec {

struct CompileOptions {
  /// cpu (portable 64-bit), cpu-avx512 (IFMA), cuda (PTX), cuda-emu (the cuda
  /// kernels run on the CPU); `auto`: the best CPU target this machine runs
  std::string target = "cpu";
  std::string gpuArch = "sm_90";  ///< cuda: the PTX target (sm_80 or sm_90)
  unsigned optLevel = 2;       ///< 0: lowering only; 1: per-kernel passes; 2: all passes
  std::vector<std::string> disabledPasses;           ///< optimization passes left out
  std::map<std::string, std::string> passOptions;    ///< pass name -> its options ("radix=4 ...")
  bool phaseTimers = true;     ///< instrument kernels with the runtime's phase timers
  /// Apply the MLIR pass-manager command-line options (--mlir-print-ir-after-all,
  /// --mlir-timing, ...); only tools that registered them set this.
  bool commandLinePassOptions = false;
  /// Testing: lower the cuda target (30-bit primes, i32 residue words, Shoup
  /// base 2^32) through the cpu target's loop-to-LLVM path (OpenMP, no grids),
  /// to check its arithmetic bit-exactly at every size on a CPU.
  bool cudaArithmeticOnHost = false;
  /// Instrument the module's code with ThreadSanitizer (LLVM's tsan passes):
  /// it then runs only in a process built with -fsanitize=thread (fhec-exec of
  /// build-tsan/), where races between emulated GPU threads are reported.
  bool sanitizeThread = false;
  /// cuda-emu: instrument the kernels for the GPU cost model
  /// (fhec-gpu-emu-trace); fhec-exec --gpu-trace records them.
  bool gpuTrace = false;

  /// The target `target` names (after resolveOptions, which resolves `auto`).
  const TargetSpec &spec() const;
};

/// The optimization passes in pipeline order, with the -O level that enables
/// each and the stage they transform (the fhe level or the lowered loops).
struct OptimizationPass {
  const char *name;
  unsigned level;
  bool onLoops;
  std::unique_ptr<mlir::Pass> (*create)();
};
llvm::ArrayRef<OptimizationPass> optimizationPasses();

/// Checks and resolves `options`: the target (`auto` becomes the best target
/// this CPU runs), the -O level, disabled pass names and pass options. On
/// failure returns the reason.
mlir::LogicalResult resolveOptions(CompileOptions &options, std::string &error);

/// ckks-to-fhe, cse, fhe-select-basis, then the optimization passes of the
/// -O level: the annotated fhe level (`--emit=fhe`). Fails on bad pass options.
mlir::LogicalResult buildFHEPipeline(mlir::OpPassManager &pm, const CompileOptions &options, std::string &error);
/// fhe-to-loops, cleanups, memory planning (-O1) and fhec-abi, then the heap
/// fallback for unplanned buffers: the loop level (`--emit=mlir`).
mlir::LogicalResult buildLoopPipeline(mlir::OpPassManager &pm, const CompileOptions &options, std::string &error);
/// modarith to arith; parallel loops to OpenMP (cpu targets) or to GPU grids
/// whose kernels become PTX (cuda) or CPU functions (cuda-emu), launched
/// through the runtime's hooks; everything to the LLVM dialect (bare-pointer
/// calling convention), plus fhec-emit-abi.
mlir::LogicalResult buildLLVMPipeline(mlir::OpPassManager &pm, const CompileOptions &options, std::string &error);

/// The dialects fhec reads and produces.
void registerDialects(mlir::DialectRegistry &registry);

/// Registers `fhec-cpu-pipeline` (all three stages at -O2), `fhec-cpu-pipeline-O0`
/// and `fhec-cpu-lower-to-llvm` (the last stage) for fhec-opt.
void registerPipelines();

} // namespace fhec
