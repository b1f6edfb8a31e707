// The compile library, what the tools, the frontend and the client kernels
// share: lowering a ckks/fhe module to any stage (fhe, loop MLIR, LLVM
// dialect) or to a shared library, compile flags, the security check, and the
// errors and diagnostics of compiling.
#pragma once

#include "codegen/Pipeline.h"
#include "dialect/CKKS/IR/CKKSDialect.h"

#include "fhec/runtime/Module.h"
#include "fhec/runtime/Params.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <memory>
#include <stdexcept>
#include <string>

namespace fhec {

/// What went wrong, for frontends that map kinds to exception classes.
class ProgramError : public std::runtime_error {
public:
  enum class Kind {
    Compile,   ///< a diagnostic of the verifier, a pass or the lowering
    Depth,     ///< scale management ran out of modulus ("too little depth left")
    Security,  ///< parameters below the required security level
    Parameter  ///< inconsistent parameters or inputs
  };
  ProgramError(Kind kind, const std::string &what) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }

private:
  Kind kind_;
};

/// The runtime's parameters of a module's `#ckks.params` (logN, logQ, logp,
/// dnum; h and sigma keep their defaults).
rt::Params runtimeParams(ckks::ParamsAttr p);

/// Collects the diagnostics emitted on `ctx` while it lives ("file:line:col:
/// error: message", with notes), instead of printing them.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext &ctx);
  ~DiagnosticCollector();
  /// Everything collected so far, one diagnostic per line.
  std::string text() const { return text_; }
  /// Throws ProgramError(kind, prefix + text()).
  [[noreturn]] void raise(ProgramError::Kind kind, const std::string &prefix = "") const;

private:
  mlir::MLIRContext &ctx_;
  mlir::DiagnosticEngine::HandlerID id_;
  std::string text_;
};

/// Lowers `module` (consumed) to a shared library in a temporary directory
/// for `resolved` options (resolveOptions) and loads it; the file is removed.
/// `keptFd`: also returns an open read-only descriptor of the removed file
/// there (-1 if it could not be opened), for the caller to close.
/// Throws ProgramError: `diags`' text when the lowering failed.
std::unique_ptr<rt::CompiledModule> compileAndLoad(mlir::ModuleOp module, const CompileOptions &resolved,
                                                   const DiagnosticCollector &diags, int *keptFd = nullptr);

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

} // namespace fhec
