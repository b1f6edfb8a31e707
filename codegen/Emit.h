// From the LLVM dialect to LLVM IR, assembly, an object file or a shared library.
#pragma once

#include "codegen/Pipeline.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fhec {

/// Translates a module lowered by buildLLVMPipeline to LLVM IR for the
/// target's machine and optimizes it at O3. Returns null and sets `error`.
std::unique_ptr<llvm::Module> translateAndOptimize(mlir::ModuleOp module, llvm::LLVMContext &ctx,
                                                   const CompileOptions &options, std::string &error);

/// Translates to LLVM IR and compiles it into object files `prefix`.<i>.o
/// (listed in `objects`): the module is split into parts (at most one per
/// core) that are optimized at O3 and compiled on threads of their own; its
/// kernels are independent functions, so the split loses nothing.
mlir::LogicalResult emitObjectFiles(mlir::ModuleOp module, const CompileOptions &options, const std::string &prefix,
                                    std::vector<std::string> &objects, std::string &error);

/// Writes assembly (`asm` true) or an object file.
mlir::LogicalResult emitMachineCode(llvm::Module &module, const CompileOptions &options, bool assembly,
                                    llvm::raw_pwrite_stream &os, std::string &error);

/// The PTX text a module of the cuda target embeds (`__fhec_gpu_ptx`, one PTX
/// module with every kernel), or nullopt for a module without one.
std::optional<std::string> embeddedPTX(mlir::ModuleOp module);

/// Links object files into a shared library with clang (clang-22 or clang)
/// and LLVM's OpenMP runtime.
mlir::LogicalResult linkSharedLibrary(const std::vector<std::string> &objects, const std::string &soPath,
                                      std::string &error);

} // namespace fhec
