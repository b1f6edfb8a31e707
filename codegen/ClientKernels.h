// The client kernels: key generation, encryption and decryption as fhe
// programs (CRT -> NTT -> Hadamard -> iNTT -> iCRT, the server's kernels),
// compiled for a CPU target into the module rt::KernelArithmetic calls
// (fhec/runtime/Abi.h, kClient*; fhec/runtime/Client.h).
#pragma once

#include "codegen/Pipeline.h"
#include "target/Target.h"

#include "fhec/runtime/Module.h"
#include "fhec/runtime/Params.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <vector>

namespace fhec {

/// The fhe module of the client kernels for `params`, with decrypt kernels
/// for logQ and each modulus of `decryptLevels` (bits, 1 <= logq <= logQ),
/// their windows planned for `target`'s primes, and a narrow decrypt kernel
/// (Abi.h; rt::KernelArithmetic::decrypt) at each of those moduli whose
/// decryption takes three windows or more. RNS bases (conversion/CKKSToFHE/Bounds.h)
/// hold for any Hamming weight h <= N, but decryption's, which hold for a
/// secret of weight at most params.h rounded up to a power of two (recorded
/// in the module, checked when a client loads it).
mlir::OwningOpRef<mlir::ModuleOp> buildClientKernels(mlir::MLIRContext &ctx, const rt::Params &params,
                                                     const TargetSpec &target,
                                                     const std::vector<int> &decryptLevels = {});

/// One bit-window of a decryption's ax: bits [offset, offset + bits), its
/// product with the secret in a basis of at least basisBits bits.
struct DecryptWindow {
  int64_t offset, bits;
  unsigned basisBits;
};

/// The windows of ax mod 2^logq for a secret of weight at most 2^logH and
/// primes of primeBits bits: full windows of m primes' worth of bits and a
/// last one of the fewest primes that hold the rest, m chosen for the least
/// cost 29 rows + sum_g (m_g^2 + 10): an NTT row (NTT, Hadamard, iNTT)
/// against the CRT and iCRT work, a window's m_g primes times its m_g digits
/// or columns, plus a per-window overhead. (Measured on Zen 4 at N = 2^16,
/// logq = 1200: m = 5, five windows in 25 rows, decrypts in 10.4-10.6 ms;
/// m = 3 or 4 (26 rows) 10.8-11.4 ms, m = 6 11.2-11.4 ms.)
std::vector<DecryptWindow> planDecryptWindows(unsigned logq, unsigned logH, unsigned primeBits);

/// The moduli (logq) of the ciphertexts the module's public functions return:
/// the levels a client decrypts at.
std::vector<int> resultLevels(mlir::ModuleOp module);

/// Builds and compiles them for `options.target` (cpu, cpu-avx512 or auto;
/// a GPU target's client runs on the CPU: auto then) and loads the library.
/// Throws ProgramError.
std::unique_ptr<rt::CompiledModule> compileClientKernels(const rt::Params &params, CompileOptions options,
                                                         const std::vector<int> &decryptLevels = {});

} // namespace fhec
