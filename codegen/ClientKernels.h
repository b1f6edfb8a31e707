// The client kernels: key generation, encryption and decryption as fhe
// programs (CRT -> NTT -> Hadamard -> iNTT -> iCRT, the server's kernels),
// compiled for a CPU target into the module rt::KernelArithmetic calls
// (fhec/runtime/Abi.h, kClient*; fhec/runtime/Client.h).
#pragma once

#include "codegen/Pipeline.h"

#include "fhec/runtime/Module.h"
#include "fhec/runtime/Params.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <vector>

namespace fhec {

/// The fhe module of the client kernels for `params`, with decrypt kernels
/// for logQ and each modulus of `decryptLevels` (bits, 1 <= logq <= logQ).
/// RNS bases (passes/Bounds.h) hold for any Hamming weight h <= N.
mlir::OwningOpRef<mlir::ModuleOp> buildClientKernels(mlir::MLIRContext &ctx, const rt::Params &params,
                                                     const std::vector<int> &decryptLevels = {});

/// The moduli (logq) of the ciphertexts the module's public functions return:
/// the levels a client decrypts at.
std::vector<int> resultLevels(mlir::ModuleOp module);

/// Builds and compiles them for `options.target` (cpu, cpu-avx512 or auto;
/// a GPU target's client runs on the CPU: auto then) and loads the library.
/// Throws ProgramError.
std::unique_ptr<rt::CompiledModule> compileClientKernels(const rt::Params &params, CompileOptions options,
                                                         const std::vector<int> &decryptLevels = {});

} // namespace fhec
