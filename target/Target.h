// What fhec knows about a compilation target: the arithmetic it lowers to
// (prime width, Shoup base, word width, SIMD lanes), the named properties the
// lowering decides by (IFMA, GPU grids, the NTT's order) and the cost-model
// parameters the optimization passes read (NTT radix, block sizes, layout
// costs). One table (Target.cpp), read by every pass and lowering.
//
// A module carries its target as the attribute `fhe.target = "<name>"`, as
// MLIR's own targets ride on the ops they describe (#nvvm.target, DLTI): the
// pipeline attaches it before its first pass (fhec-attach-target) and every
// pass reads it with getTarget. This folder is the only place that compares
// target names.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlir {
class Operation;
class ModuleOp;
} // namespace mlir

namespace fhec {

/// The order of the NTT's output (the evaluation domain) within each group
/// of 64 residues (Ntt.cpp).
enum class NttOrder {
  natural,       ///< bit-reversed, as every scalar and GPU form writes it
  transposed8x8, ///< element 8 b + e at 8 e + b: the 8-lane last stages' register transposes left in place
};

struct TargetSpec {
  llvm::StringRef name;
  llvm::StringRef cpuFeatures;  ///< CPU features a module needs to run (cpuid names, comma-separated)
  llvm::StringRef llvmCpu;      ///< LLVM CPU for code generation
  llvm::StringRef llvmFeatures; ///< extra LLVM target features
  unsigned primeBits;     ///< width of the RNS primes (fhe-select-basis)
  unsigned shoupBits;     ///< Shoup base beta of the tables: floor(w 2^beta / p); also the digit width
                          ///< of the CRT/iCRT's digit forms where below 64
  unsigned wordBits;      ///< width of the residue words after the arithmetic lowering (32: the GPUs' native multiply)
  unsigned lanes;         ///< SIMD lanes of one modarith value (1: scalar)
  bool gpu;               ///< kernels run as GPU grids (parallel loops -> blocks x threads)
  bool emulated;          ///< GPU kernels executed on the host CPU with the GPU's semantics (cuda-emu)
  bool ifma;              ///< AVX-512 IFMA: 52-bit multiplies, Shoup constants and BigInt digits in base 2^52
                          ///< (the Winograd CRT/iCRT, the windowed digit sums)
  bool tileTranspose8x8;  ///< 8 x 8 blocks of words transpose in registers (8 lanes): coefficient kernels
                          ///< move 8-coefficient tiles between layouts so
  NttOrder nttOrder;      ///< the evaluation domain's order (NttOrder)
  bool packedTwiddles;    ///< a twiddle and its 32-bit Shoup constant share one table word (one load)
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

  /// cpuFeatures as a list.
  std::vector<std::string> requiredCpuFeatures() const;
};

/// Every target, in the order `knownTargetNames` lists them.
llvm::ArrayRef<TargetSpec> allTargets();

/// The target named `name` (cpu, cpu-avx512, cuda, cuda-emu), or null.
const TargetSpec *lookupTarget(llvm::StringRef name);

/// Names of the known targets, for diagnostics: "cpu, cpu-avx512, ...".
llvm::StringRef knownTargetNames();

/// The target a user's `name` selects: "auto" is the fastest CPU target this
/// machine runs (cpu-avx512 where it has AVX-512 IFMA, else cpu); other names
/// as in lookupTarget. Null, with `error` set, for an unknown name.
const TargetSpec *resolveTarget(llvm::StringRef name, std::string &error);

/// The CPU features `target` needs that this CPU lacks (read with cpuid;
/// FHEC_MASK_CPU_FEATURES hides some): empty where its modules run here.
std::vector<std::string> missingCpuFeatures(const TargetSpec &target);

/// Every target as JSON, the one list the tools, lit and the benches read
/// (`fhec --print-targets`, Python `fhec.targets()`): an array of
/// {"name", "cpu_features": [...], "gpu", "emulated", "word_bits", "missing_here": [...]}.
std::string targetsJson();

/// What "auto" chose and why, for the driver: "cpu-avx512 (--target=auto: this CPU has AVX-512 IFMA)".
std::string describeAutoTarget();

/// Name of the module attribute that carries the target.
llvm::StringRef targetAttrName();

/// Attaches `target` to `module` (fhe.target).
void setTarget(mlir::ModuleOp module, const TargetSpec &target);

/// The target of the module that holds `op`: its fhe.target, or the portable
/// cpu target where it has none (a pass run on its own, as in the lit tests).
/// Null after an error on `op` where the name is unknown.
const TargetSpec *getTarget(mlir::Operation *op);

} // namespace fhec
