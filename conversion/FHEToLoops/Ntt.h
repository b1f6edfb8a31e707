// What the two forms of the NTT and iNTT (Jung et al. 2021, Algo. 3/4) share:
// the CPU form (Ntt.cpp: a level is a pass over each row, its sub-levels
// done in registers block by block) and the GPU form (NttGpu.cpp: a level is
// a launch, its sub-levels done in registers by the threads of a block and
// exchanged through shared memory). Both read the same plan from the op and
// run the same lazy Harvey butterflies.
#pragma once

#include "conversion/FHEToLoops/KernelBuilder.h"

#include <functional>

namespace fhec {

/// Whether `target`'s NTT of 2^logN leaves the evaluation domain in its
/// transposed order: on 8-lane targets the radix-8 tail keeps, within each
/// group of 64 residues, natural (bit-reversed) element 8 b + e at 8 e + b
/// (Ntt.cpp). Pointwise kernels do not care; the evaluation-domain
/// automorphism, a permutation of the slots, does.
inline bool nttTransposedOrder(const TargetSpec &target, unsigned logN) { return target.nttOrder == NttOrder::transposed8x8 && logN >= 6; }

/// Harvey's butterflies on residues held in registers (lazy ranges: forward
/// [0, 4p), inverse [0, 2p)), with Shoup products by the twiddles.
struct NttButterflies {
  KernelBuilder &kb;
  /// The inverse's scaled last stage leaves its results in [0, scaledRange p):
  /// 1, or 2 for a coeff_scaled result (only iCRTs read it, and they take
  /// temp_j in [0, 2p)).
  int64_t scaledRange = 1;

  /// A twiddle w with its Shoup constant, or the product of two factors
  /// (w, ws) (h, hs), applied one after the other (the tail's factored twiddles).
  struct Twiddle {
    mlir::Value w, ws, h, hs;
  };
  /// Twiddles[d][g]: sub-stage d, group g.
  using Twiddles = llvm::SmallVector<llvm::SmallVector<Twiddle>>;

  /// y tw in [0, 2p) for y < 4p.
  mlir::Value twiddleMul(mlir::Value y, const Twiddle &tw, mlir::Value p);
  /// Forward (Cooley-Tukey) radix-2^k sub-transform of x: at sub-stage d the
  /// pairs (u, u + 2^(k-1-d)) of group u >> (k-d) use W[d][group]. x may
  /// hold several sub-transforms of 2^k residues, whose butterflies are then
  /// interleaved (independent latency chains): W has one Twiddles for all of
  /// them or one per sub-transform.
  void forwardButterflies(llvm::SmallVectorImpl<mlir::Value> &x, int64_t k, llvm::ArrayRef<Twiddles> W, mlir::Value p);
  /// Inverse (Gentleman-Sande) sub-transform at stages s..s+k-1: at sub-stage
  /// d the pairs (u, u + 2^d) of group u >> (d+1) use W[d][group]; the
  /// transform's very last stage multiplies by `scale` instead. Several
  /// sub-transforms in x as for forwardButterflies.
  void inverseButterflies(llvm::SmallVectorImpl<mlir::Value> &x, int64_t s, int64_t k, int64_t logN,
                          llvm::ArrayRef<Twiddles> W, mlir::Value p, const std::array<mlir::Value, 4> &scale);
};

/// What the lowering of one fhe.ntt or fhe.intt reads from the op and its types.
struct TransformPlan {
  bool inverse = false;
  int64_t logN = 0, N = 0;
  /// Stages left out (incomplete NTT): the forward transform's last, the inverse's first.
  int64_t skip = 0;
  /// Stages per level in the order they run (fhe-merge-ntt-levels; one stage per level without it).
  llvm::SmallVector<int64_t> levels;
  fhe::BasisAttr basis;
  /// (m, *) tables: prime constants, the direction's twiddles and their Shoup
  /// constants; `packed` (32-bit Shoup constants): one table, each word a
  /// twiddle with its constant in the high half, read as (m, 2 N) 32-bit
  /// halves (twiddle, constant), and no twShoup; the scaling table is then
  /// read as halves too (its constants the low ones).
  mlir::Value consts, tw, twShoup;
  bool packed = false;
  /// Inverse only: the InttConsts table and the first of its four scaling columns.
  mlir::Value scaleTable;
  int scaleBase = 0;
  /// Inverse only: NttButterflies::scaledRange for the result's domain.
  int64_t scaledRange = 1;

  mlir::Value prime(KernelBuilder &kb, mlir::Value j) const { return kb.tableAt(consts, j, abi::kPrime); }
  /// Inverse: the scaling constants (c, c Shoup, w c, w c Shoup) of prime j's last stage.
  std::array<mlir::Value, 4> scale(KernelBuilder &kb, mlir::Value j) const;
  /// Prime j's twiddles of the radix-2^r sub-transforms of block `blk` (of
  /// size N / 2^first) at stages first..first+r-1, each repeated in W lanes:
  /// forward, sub-stage d, group g: psi^bitrev(2^(first+d) + blk 2^d + g);
  /// inverse: psi^-bitrev(N/2^(first+d+1) + blk 2^(r-d-1) + g), none for the
  /// transform's scaled last stage.
  NttButterflies::Twiddles twiddles(KernelBuilder &kb, mlir::Value j, int64_t first, int64_t r, mlir::Value blk,
                                    int64_t W) const;
};

TransformPlan planTransform(KernelBuilder &kb, mlir::Operation *op);

/// The sub-levels (first stage, stages) of level (s, k): at most `radix`
/// stages each, the shorter one last -- the first pass over memory then does
/// a full radix of work per load --, except in the forward transform's last
/// level, where it comes first so that the smallest strides form a
/// full-radix sub-level (the transposed one on 8 lanes).
llvm::SmallVector<std::pair<int64_t, int64_t>> subLevels(int64_t s, int64_t k, int64_t radix, bool inverse,
                                                         bool lastForward);
/// The GPU's sub-levels of level (s, k): the shorter one holds the level's
/// stage of the most twiddles (the forward transform's last, the inverse's
/// first). A thread of a radix-2^r sub-level reads 2^(r-1) consecutive
/// twiddles of that stage, and its neighbours the next runs: at r = 2 a run
/// is one 16-byte load and a warp's loads are contiguous, where the
/// 32-byte runs of r = 3 took two loads, each using half of every sector.
llvm::SmallVector<std::pair<int64_t, int64_t>> gpuSubLevels(int64_t s, int64_t k, int64_t radix, bool inverse);

/// The GPU form's limit: every level fits a thread block's shared memory.
mlir::LogicalResult checkGpuLevels(mlir::Operation *op, const LoweringOptions &o);
/// The CPU form of a batch of transforms on row j (the body of a parallel
/// prime loop): transform b reads row j of ins[b] and writes row j of
/// outs[b] (possibly the same buffer). While one runs, the next one's input
/// row is prefetched, and `after` (buffer, row) while the last one runs.
void emitTransformBatchRow(KernelBuilder &kb, llvm::ArrayRef<mlir::Operation *> ops, llvm::ArrayRef<mlir::Value> ins,
                           llvm::ArrayRef<mlir::Value> outs, mlir::Value j,
                           std::pair<mlir::Value, mlir::Value> after);

/// A residue kernel computed in the launch of a batch of forward NTTs' last
/// level, on their results while they are in shared memory (fhe.fused rows
/// on GPU targets: the Hadamard products of HE Mul and of key switching).
/// `begin` runs once per thread block with its prime j, then `element` once
/// per position `at` of row j the thread owns, with the batch's residues
/// there, each in [0, p).
struct GpuNttEpilogue {
  std::function<void(mlir::Value j)> begin;
  std::function<void(mlir::Value at, llvm::ArrayRef<mlir::Value> xs)> element;
};

/// Whether a batch of forward NTTs' last level can run them all in one
/// thread block for an epilogue: a shared-memory tile each, within the
/// block's shared memory.
bool gpuNttEpilogueFits(const TargetSpec &target, llvm::ArrayRef<mlir::Operation *> ops);

/// The GPU form of a batch of transforms of one type (NttGpu.cpp). With an
/// epilogue (the batch: forward NTTs of one shape) the last level's results
/// go to the epilogue, not to `outs`.
void emitTransformsGpu(KernelBuilder &kb, llvm::ArrayRef<mlir::Operation *> ops, llvm::ArrayRef<mlir::Value> ins,
                       llvm::ArrayRef<mlir::Value> outs, const GpuNttEpilogue *epilogue = nullptr);

} // namespace fhec
