// From the LLVM dialect to LLVM IR, assembly, an object file or a shared library.
#pragma once

#include "codegen/Pipeline.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace fhec {

/// Translates a module lowered by buildLLVMPipeline to LLVM IR for the
/// target's machine and optimizes it at O3. Returns null and sets `error`.
std::unique_ptr<llvm::Module> translateAndOptimize(mlir::ModuleOp module, llvm::LLVMContext &ctx,
                                                   const CompileOptions &options, std::string &error);

/// Writes assembly (`asm` true) or an object file.
mlir::LogicalResult emitMachineCode(llvm::Module &module, const CompileOptions &options, bool assembly,
                                    llvm::raw_pwrite_stream &os, std::string &error);

/// Links an object file into a shared library with clang (clang-22 or clang)
/// and LLVM's OpenMP runtime.
mlir::LogicalResult linkSharedLibrary(const std::string &objectPath, const std::string &soPath, std::string &error);

} // namespace fhec
