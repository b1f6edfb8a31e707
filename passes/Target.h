// What fhec knows about a compilation target: the arithmetic it lowers to
// (prime width, Shoup base, SIMD lanes) and the cost-model parameters the
// optimization passes read (NTT radix, coefficient block sizes, layout costs).
// One table, shared by fhe-select-basis, the optimization passes and the
// lowering, so that a target is described in one place.
#pragma once

#include "dialect/FHE/FHEDialect.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace fhec {

struct TargetSpec {
  llvm::StringRef name;
  llvm::StringRef cpuFeatures;  ///< CPU features a module needs to run (cpuid names, comma-separated)
  llvm::StringRef llvmCpu;      ///< LLVM CPU for code generation
  llvm::StringRef llvmFeatures; ///< extra LLVM target features
  unsigned primeBits;     ///< width of the RNS primes (fhe-select-basis)
  unsigned shoupBits;     ///< Shoup base beta of the tables: floor(w 2^beta / p)
  unsigned lanes;         ///< SIMD lanes of one modarith value (1: scalar)
  bool gpu;               ///< kernels run as GPU grids (parallel loops -> blocks x threads)
  // Cost model (fhe-merge-ntt-levels, fhe-reorder-icrt, fhe-insert-transposes).
  unsigned nttRadixLog;   ///< stages of an NTT sub-level kept in registers (lowering)
  unsigned nttBlockLog;   ///< log2 of the words of a depth-first NTT block that stays in cache (GPU: of the
                          ///< largest level, a thread block's tile in shared memory)
  unsigned nttHeadLog;    ///< most stages of one strided NTT level (one pass over a whole row)
  unsigned crtBlock;      ///< coefficients per block of the matrix-form CRT
  unsigned icrtBlock;     ///< coefficients per block of the matrix-form iCRT
  /// Relative cost of one residue access in a kernel reading (or writing) a
  /// layout it does not stream naturally, against 1 for its natural layout;
  /// a transpose costs `transposeCost` per residue.
  double foldedAccessCost;
  double transposeCost;
  /// GPU kernels executed on the host CPU with the GPU's semantics (cuda-emu).
  bool emulated = false;
  /// The modarith lowering to AVX-512 IFMA (52-bit multiplies, 8 lanes).
  bool ifma = false;

  /// cpuFeatures as a list.
  std::vector<std::string> requiredCpuFeatures() const;
  /// Width of the residue words after the arithmetic lowering: 32 where the
  /// Shoup base is 2^32 (the GPUs' native multiply), else 64.
  unsigned wordBits() const { return shoupBits == 32 ? 32 : 64; }
};

/// The target named `name` (cpu, cpu-avx512, cuda, cuda-emu), or null.
const TargetSpec *lookupTarget(llvm::StringRef name);

/// Names of the known targets, for diagnostics: "cpu, cpu-avx512, ...".
llvm::StringRef knownTargetNames();

/// The target named `name`, or null after reporting "<pass>: unknown target" on `op`.
const TargetSpec *requireTarget(mlir::Operation *op, llvm::StringRef pass, llvm::StringRef name);

} // namespace fhec
