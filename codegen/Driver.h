// The fhec driver: compiling a ckks/fhe module to any level (fhe, loop MLIR,
// LLVM IR, assembly, object, shared library) and `fhec run`.
#pragma once

#include "codegen/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace fhec {

enum class Stage { FHE, Loops, LLVMDialect };

/// Runs the pipelines up to `stage` in place, honouring the MLIR pass-manager
/// command-line options (--mlir-print-ir-after-all, --mlir-timing, ...).
mlir::LogicalResult lowerModule(mlir::ModuleOp module, const CompileOptions &options, Stage stage);

/// Lowers `module` (consumed) all the way and links a shared library at `soPath`.
mlir::LogicalResult compileToSharedLibrary(mlir::ModuleOp module, const CompileOptions &options,
                                           const std::string &soPath, std::string &error);

/// Adds one `--pass-option=NAME{options}` to `options`.
mlir::LogicalResult parsePassOption(llvm::StringRef spec, CompileOptions &options, std::string &error);

/// Parses compile flags given as one string (`-O0 --disable-pass=fhe-fuse
/// --target=cpu --pass-option=... --threads=2`), as `fhec run --compare` takes them.
mlir::LogicalResult parseCompileFlags(llvm::StringRef flags, CompileOptions &options, unsigned &threads,
                                      std::string &error);

/// main() of the `fhec` tool.
int driverMain(int argc, char **argv);

} // namespace fhec
