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

/// Runs ckks-expand-bootstrap and ckks-expand-poly-eval on `module` in place (diagnostics on failure):
/// a program is checked and evaluated in its expanded form.
mlir::LogicalResult expandPolynomials(mlir::ModuleOp module);

/// Runs ckks-manage-scale on `module` in place (diagnostics on failure).
mlir::LogicalResult manageScale(mlir::ModuleOp module);

/// Lowers `module` (consumed) all the way and links a shared library at `soPath`.
mlir::LogicalResult compileToSharedLibrary(mlir::ModuleOp module, const CompileOptions &options,
                                           const std::string &soPath, std::string &error);

/// Adds one `--pass-option=NAME{options}` to `options`.
mlir::LogicalResult parsePassOption(llvm::StringRef spec, CompileOptions &options, std::string &error);

/// Parses compile flags given as one string (`-O0 --disable-pass=fhe-fuse
/// --target=cpu --pass-option=... --threads=2`), as `fhec run --compare` takes them.
mlir::LogicalResult parseCompileFlags(llvm::StringRef flags, CompileOptions &options, unsigned &threads,
                                      std::string &error);

/// The security estimate of the module's #ckks.params (HE Standard tables,
/// fhec/runtime/Security.h; keys mod Q^2, secret weight h and error width of
/// the runtime's key generation) as one line; empty without params.
std::string describeSecurity(mlir::ModuleOp module);

/// Fails with a diagnostic on the module when the estimate is below the level
/// its params require (`security`, default 128 bits), unless they opt out with
/// `security = "none"` or `allowInsecure` (the driver's --allow-insecure).
mlir::LogicalResult checkSecurity(mlir::ModuleOp module, bool allowInsecure);

/// main() of the `fhec` tool. Never throws: every error is a diagnostic.
int driverMain(int argc, char **argv);

} // namespace fhec
