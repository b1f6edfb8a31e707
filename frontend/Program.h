// A ckks program as frontends use it (the Python package): its scheme-level
// source, the module compiled from it, and its two oracles (the GMP reference
// on ciphertexts, the plaintext computation on slot vectors). Errors are
// ProgramError with the diagnostics' text (source locations included).
#pragma once

#include "codegen/Compiler.h"
#include "dialect/CKKS/IR/CKKSDialect.h"

#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Module.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace fhec {

/// The type of a ciphertext: modulus, scale (bits) and slots.
struct CiphertextShape {
  int logq = 0, logp = 0, slots = 0;
  bool operator==(const CiphertextShape &o) const { return logq == o.logq && logp == o.logp && slots == o.slots; }
};

/// A ckks module with one public function, the program.
class Program {
public:
  /// Takes a verified module with `#ckks.params` (and its context).
  Program(std::unique_ptr<mlir::MLIRContext> ctx, mlir::OwningOpRef<mlir::ModuleOp> module);
  /// Parses MLIR text; throws ProgramError on a syntax or verifier error.
  static std::unique_ptr<Program> parse(const std::string &text, const std::string &bufferName = "<program>");
  ~Program();

  rt::Params params() const { return params_; }
  std::string functionName() const;
  /// The shapes of its ciphertext arguments, in order.
  std::vector<CiphertextShape> inputShapes() const;
  std::vector<CiphertextShape> outputShapes() const;
  /// The Galois elements of the rotation keys the program needs.
  std::vector<uint64_t> galoisElements() const;
  /// The q0 (bits) of the encapsulation keys its bootstrapping needs (a dense secret).
  std::vector<int> encapsulationModuli() const;
  /// The ckks source; with `locations`, each op's source location too.
  std::string mlir(bool locations = false) const;
  /// The security estimate line (fhec/runtime/Security.h).
  std::string security() const;

  /// Lowers a copy to `stage` and returns its text (--emit=fhe / mlir).
  std::string lower(const CompileOptions &options, Stage stage) const;
  /// Compiles to a shared library and loads it (replacing an earlier
  /// compilation). Refuses parameters below their security level unless
  /// `allowInsecure`. Throws ProgramError.
  void compile(const CompileOptions &options, bool allowInsecure = false);
  bool compiled() const { return bool(module_); }
  const rt::CompiledModule &module() const;
  /// The compiled shared library's bytes (what a worker process loads with
  /// rt::CompiledModule::loadBytes). Throws ProgramError unless compiled.
  std::string libraryBytes() const;

  /// The GMP reference on `inputs` (its ciphertext arguments) and
  /// `plaintexts` (its plaintext arguments' values) with `keys`.
  std::vector<rt::Ciphertext> reference(const std::vector<rt::Ciphertext> &inputs, const rt::KeySet &keys,
                                        const std::vector<std::vector<rt::Complex>> &plaintexts = {}) const;
  /// The plaintext computation on slot vectors.
  std::vector<std::vector<rt::Complex>> plain(const std::vector<std::vector<rt::Complex>> &inputs,
                                              const std::vector<std::vector<rt::Complex>> &plaintexts = {}) const;

private:
  mlir::func::FuncOp function() const;
  /// The public function of expanded_: what the evaluators interpret.
  mlir::func::FuncOp evaluatedFunction() const;
  std::unique_ptr<mlir::MLIRContext> ctx_;
  mlir::OwningOpRef<mlir::ModuleOp> source_;
  /// source_ with ckks.bootstrap and ckks.poly_eval expanded (their semantics).
  mlir::OwningOpRef<mlir::ModuleOp> expanded_;
  rt::Params params_;
  std::unique_ptr<rt::CompiledModule> module_;
  /// A descriptor of module_'s (removed) file, kept for libraryBytes().
  int libraryFd_ = -1;
};

/// An executor of a compiled program with the keys of one key set: the
/// evaluation key and every rotation key the program needs are derived into
/// the module's RNS/NTT form once.
class ProgramExecutor {
public:
  /// Throws rt::Error when `keys` lacks a rotation key the program needs.
  ProgramExecutor(const Program &program, const rt::KeySet &keys);
  /// Runs the program on `threads` threads (0: all cores).
  std::vector<rt::Ciphertext> run(const std::vector<rt::Ciphertext> &inputs, unsigned threads = 0,
                                  const std::vector<std::vector<rt::Complex>> &plaintexts = {});
  /// An input of runOnDevice: a ciphertext on the host or one on the device.
  struct DeviceInput {
    const rt::Ciphertext *host = nullptr;
    const rt::DeviceCiphertext *device = nullptr;
  };
  /// Runs the program on the device (a GPU target): the inputs on the host
  /// are copied there first (counted in lastRunTransfers), the outputs stay.
  /// Throws rt::Error for a CPU target's module, or as run().
  std::vector<rt::DeviceCiphertext> runOnDevice(const std::vector<DeviceInput> &inputs, unsigned threads = 0,
                                                const std::vector<std::vector<rt::Complex>> &plaintexts = {});
  /// Where the program's kernels run (Host: a CPU target).
  rt::KernelPlace place() const { return exec_.place(); }
  /// Wall time of the last run() inside the runtime (s): what a frontend's
  /// own overhead is measured against.
  double lastRunSeconds() const { return lastRunSeconds_; }
  /// Bytes the last run copied between the host and the device (GPU
  /// targets: its ciphertexts on the host in, and run()'s out; none on the
  /// CPU targets).
  rt::Transfers lastRunTransfers() const { return lastRunTransfers_; }

private:
  const Program &program_;
  rt::Executor exec_;
  double lastRunSeconds_ = 0;
  rt::Transfers lastRunTransfers_;
};

} // namespace fhec
