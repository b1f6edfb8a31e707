// The ABI manifest of a lowered module (format parsed by the runtime's
// parseManifest, fhec/runtime/Module.h): parameters, RNS bases, and for each
// function its ciphertexts and the role of every argument.
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace fhec {

class ManifestBuilder {
public:
  explicit ManifestBuilder(mlir::ModuleOp module) : module(module) {}
  /// Records a function after fhe-to-loops (arguments carry fhe.table/fhe.role attributes).
  void addFunction(mlir::func::FuncOp f);
  /// Stores the text as the module attribute `fhec.manifest` and the entry
  /// names as `fhec.entries`.
  mlir::LogicalResult finish();

private:
  unsigned basisId(mlir::Attribute basis);
  mlir::ModuleOp module;
  llvm::SmallVector<mlir::Attribute> bases;
  llvm::SmallVector<mlir::Attribute> entries;
  std::string functions;
  unsigned logN = 0;
};

} // namespace fhec
