// The ABI manifest of a lowered module (fhec/runtime/Manifest.h, whose codec
// writes and parses it): target, parameters, RNS bases, and for each
// function its ciphertexts, workspace and the role of every argument.
#pragma once

#include "fhec/runtime/Manifest.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace fhec {

class ManifestBuilder {
public:
  explicit ManifestBuilder(mlir::ModuleOp module) : module(module) {}
  /// Records a function after fhec-abi (arguments carry fhe.table / fhe.role /
  /// fhe.type / fhe.output / fhe.workspace attributes). Fails on a function
  /// whose types name another ring dimension than the module's.
  mlir::LogicalResult addFunction(mlir::func::FuncOp f);
  /// Stores the manifest's text (rt::writeManifest) as the module's
  /// manifest attribute, and the entry names.
  mlir::LogicalResult finish();

private:
  unsigned basisId(mlir::Attribute basis);
  mlir::LogicalResult noteRing(mlir::func::FuncOp f, unsigned n);
  mlir::FailureOr<rt::ManifestArg> describeArgument(mlir::func::FuncOp f, unsigned i);
  mlir::ModuleOp module;
  llvm::SmallVector<mlir::Attribute> bases;
  llvm::SmallVector<mlir::Attribute> entries;
  std::vector<rt::ManifestFunction> functions;
  unsigned logN = 0;
};

} // namespace fhec
