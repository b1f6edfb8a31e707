// fhec's compilation pipelines: ckks -> fhe (annotated) -> loops -> LLVM
// dialect with the module ABI, for one target.
#pragma once

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <string>

namespace fhec {

struct CompileOptions {
  std::string target = "cpu";  ///< cpu (portable 64-bit); `auto` resolves to the best available
  bool phaseTimers = true;     ///< instrument kernels with the runtime's phase timers
  /// Apply the MLIR pass-manager command-line options (--mlir-print-ir-after-all,
  /// --mlir-timing, ...); only tools that registered them set this.
  bool commandLinePassOptions = false;
};

/// Checks and resolves `options.target`; on failure returns the reason.
mlir::LogicalResult resolveTarget(CompileOptions &options, std::string &error);

/// ckks-to-fhe, cse, fhe-select-basis: the annotated fhe level (`--emit=fhe`).
void buildFHEPipeline(mlir::OpPassManager &pm, const CompileOptions &options);
/// fhe-to-loops and cleanups: the loop level (`--emit=mlir`).
void buildLoopPipeline(mlir::OpPassManager &pm, const CompileOptions &options);
/// Loops to the LLVM dialect (bare-pointer calling convention) plus fhec-emit-abi.
void buildLLVMPipeline(mlir::OpPassManager &pm, const CompileOptions &options);

/// The dialects fhec reads and produces.
void registerDialects(mlir::DialectRegistry &registry);

/// Registers `fhec-cpu-pipeline` (all three stages) and `fhec-cpu-lower-to-llvm`
/// (the last) for fhec-opt.
void registerPipelines();

} // namespace fhec
