// Names and declarations shared by the GPU passes (fhec-gpu-kernel-module,
// fhec-gpu-launch-to-runtime, fhec-gpu-to-emu, fhec-gpu-emu-trampolines,
// fhec-gpu-emu-trace).
#pragma once

#include "fhec/runtime/Abi.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace fhec::gpurt {

/// The one gpu.module (then gpu.binary) that holds every kernel of a program.
constexpr const char *kKernelModule = "fhec_kernels";

/// The private declaration of the runtime hook `name`, created on first use.
inline mlir::func::FuncOp declareHook(mlir::OpBuilder &b, mlir::ModuleOp module, llvm::StringRef name,
                                      mlir::FunctionType type) {
  if (auto fn = module.lookupSymbol<mlir::func::FuncOp>(name)) return fn;
  return mlir::func::createFnDecl(b, module, name, type, /*setPrivate=*/true);
}

/// A constant, NUL-terminated string global `name` holding `value`.
inline mlir::LLVM::GlobalOp stringGlobal(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef name,
                                         llvm::StringRef value, mlir::LLVM::Linkage linkage) {
  std::string bytes = value.str();
  bytes.push_back('\0');
  auto type = mlir::LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
  return mlir::LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true, linkage, name, b.getStringAttr(bytes));
}

} // namespace fhec::gpurt

namespace fhec::emu {

/// The host function a kernel becomes (prefixed: kernels are named after the
/// host functions they came from).
inline std::string kernelFunction(llvm::StringRef kernel) { return "__fhec_kernel_" + kernel.str(); }

/// void __fhec_emu_<kernel>(int64 *slots): unpacks the slots, calls the kernel.
inline std::string trampoline(llvm::StringRef kernel) { return abi::kEmuTrampolinePrefix + kernel.str(); }

/// Discardable attribute of a trampoline declaration: the kernel function it calls.
constexpr const char *kTrampolineOfAttr = "fhec.emu_kernel";

} // namespace fhec::emu
