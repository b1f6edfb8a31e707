// The kernel families of fhe-to-loops, one file each (docs/design.md, "Lowering
// structure"): each exports its conversion patterns and, for the ops that can
// run inside a fused kernel, the emitter of one block (coefficient space) or
// one element (residue space) that both the single-op pattern and fhe.fused use.
#pragma once

#include "conversion/FHEToLoops/KernelBuilder.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/MapVector.h"

namespace fhec {

using mlir::RewritePatternSet;
using mlir::TypeConverter;

void populateCrtPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o);
void populateNttPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o);
void populateResiduePatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o);
void populateRowsPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o);
void populateIcrtPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o);
void populateBigIntPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o);
void populateAutomorphismPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o);
void populateCoefficientKernelPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o);

//===----------------------------------------------------------------------===//
// Coefficient space: an op on coefficients [base, base + B) of its operands.
//===----------------------------------------------------------------------===//

/// CRT (Algo. 1) of one block; `order` fixes the loop nest.
void emitCrtBlock(KernelBuilder &kb, fhe::CrtOp op, const CoeffRef &in, const CoeffRef &out, int64_t B);
/// Digit k (base 2^D, D < 64) of W coefficients i .. of an L-limb BigInt read
/// from bit `from` on: bits [from + D k, from + D k + D) below bit from + top.
mlir::Value bigIntDigit(KernelBuilder &kb, const CoeffRef &in, mlir::Value i, int64_t k, int64_t L, unsigned D,
                        int64_t W, int64_t from, int64_t top);
/// GPU targets: CRTs like `op` (same types and attributes, prime-major
/// results) of the BigInts `ins` into `outs`, as one launch of a tiled
/// matrix product (Jung et al. 2021's matrix form; Crt.cpp): a block stages
/// a tile of coefficients' 32-bit digits and its primes' beta^k rows in
/// shared memory, and each thread accumulates several residues.
void emitGpuCrt(KernelBuilder &kb, fhe::CrtOp op, llvm::ArrayRef<mlir::Value> ins, llvm::ArrayRef<mlir::Value> outs);
/// iCRT (Algo. 5, or Algo. 6 in matrix form) of one block; `addend`: the
/// block of the op's addend operand (null without one).
void emitIcrtBlock(KernelBuilder &kb, fhe::IcrtOp op, const CoeffRef &in, const CoeffRef *addend, const CoeffRef &out,
                   int64_t B);
/// GPU coefficient kernels (emitCoefficientKernel's GPU form): a block of
/// kGpuTileThreads threads owns a tile of kGpuTileCoeffs consecutive
/// coefficients; thread tid works for coefficient `lane` = tid mod
/// kGpuTileCoeffs of the tile wherever one thread per coefficient is needed,
/// and `warp` = tid / kGpuTileCoeffs picks its share of a cooperative step.
constexpr int64_t kGpuTileCoeffs = 32, kGpuTileThreads = 256, kGpuTileWarps = kGpuTileThreads / kGpuTileCoeffs;
struct GpuTile {
  mlir::Value i0, tid, lane, warp;
};
/// Whether an iCRT has the GPU tiled form (emitGpuIcrtTile): a GPU target
/// with launches, matrix order, 32-bit digits, no addend, prime-major
/// residues of primes below 2^30.
bool hasGpuIcrtTile(fhe::IcrtOp op, const LoweringOptions &o);
/// The shared buffers emitGpuIcrtTile needs, sized for all of `ops` (one set
/// serves every iCRT of a kernel, one after the other).
llvm::SmallVector<mlir::MemRefType> gpuIcrtSharedTypes(KernelBuilder &kb, llvm::ArrayRef<fhe::IcrtOp> ops);
/// The iCRT of the tile's coefficients as a tiled matrix product (Jung et
/// al. 2021's matrix form of Algo. 6; HE-Booster's thread mapping): the
/// residues `in` ((m, N) prime-major, global) to `out` (the tile's
/// coefficient-major BigInts, shared), through the buffers `shared` of
/// gpuIcrtSharedTypes. Every thread of the block must call it.
void emitGpuIcrtTile(KernelBuilder &kb, fhe::IcrtOp op, mlir::Value in, mlir::Value out, const GpuTile &tile,
                     mlir::ValueRange shared);
/// fhe.icrt_sum on a block: `ins` the windows' residues, `addend` optional.
void emitIcrtSumBlock(KernelBuilder &kb, fhe::IcrtSumOp op, llvm::ArrayRef<CoeffRef> ins, const CoeffRef *addend,
                      const CoeffRef &out, int64_t B);
/// The BigInt pointwise ops of a block: those that fuse (poly_add, poly_sub,
/// poly_negate, poly_shr, poly_reduce, poly_mod_raise, poly_add_scalar) and
/// poly_mul_scalar (alone; on GPU targets in a tiled kernel).
void emitBigIntBlock(KernelBuilder &kb, mlir::Operation *op, llvm::ArrayRef<CoeffRef> ins, const CoeffRef &out,
                     int64_t B);
/// Whether emitBigIntBlock emits `op`.
bool isBigIntBlockOp(mlir::Operation *op);
/// floor(x / 2^shift) of a block: Lout limbs of the result from Lin of x.
void emitShiftRight(KernelBuilder &kb, const CoeffRef &in, const CoeffRef &out, int64_t B, int64_t shift, int64_t Lin,
                    int64_t Lout);
/// Dispatches to the emitters above.
void emitCoefficientBlock(KernelBuilder &kb, mlir::Operation *op, llvm::ArrayRef<CoeffRef> ins, const CoeffRef &out,
                          int64_t B);
/// Whether the only user of `v` may take over its buffer for a result: v is
/// used once, by that kernel, and owns its buffer (a kernel result, not a
/// function argument nor a basis_prefix view of another value's buffer).
inline bool diesHere(mlir::Value v) {
  mlir::Operation *def = v.getDefiningOp();
  return v.hasOneUse() && def && !mlir::isa<fhe::BasisPrefixOp>(def);
}
/// Coefficients per block an op asks for (its `block` attribute; 1 by default), at most N.
int64_t coefficientBlock(mlir::Operation *op, int64_t N);
/// scf.parallel over the N / B blocks; `body` gets the block's first coefficient.
void forEachCoefficientBlock(KernelBuilder &kb, int64_t N, int64_t B, llvm::function_ref<void(mlir::Value)> body);
/// One coefficient-space kernel: `ops` in order on each block of B
/// coefficients. `memory` holds the buffers of the kernel's inputs and
/// results; the other values live in block-local scratch. With vector lanes
/// BigInts are kept limb-major in the block (coefficient-major buffers are
/// transposed in and out), so every op's vectors run along coefficients.
void emitCoefficientKernel(KernelBuilder &kb, llvm::ArrayRef<mlir::Operation *> ops,
                           const llvm::MapVector<mlir::Value, mlir::Value> &memory, int64_t N, int64_t B);

//===----------------------------------------------------------------------===//
// Residue space: pointwise RNS ops on one element of prime j. An element is
// K = 2^incomplete consecutive residues (one small polynomial of an incomplete
// NTT's evaluation domain; K = 1 for a complete NTT).
//===----------------------------------------------------------------------===//

/// Per-prime constants a residue op reads, loaded once per prime row.
struct PrimeRow {
  mlir::Value p, mu, bits;
  mlir::Value zeta, zetaShoup;  ///< X^K = zeta of the element's block (incomplete NTT only)
};

/// A residue kernel's result buffers in `env`: each result takes over the
/// buffer of a `donor` input that dies in the kernel, or gets a new one.
void assignResidueBuffers(KernelBuilder &kb, llvm::ArrayRef<mlir::Value> results,
                          llvm::DenseMap<mlir::Value, mlir::Value> &env, llvm::SmallVector<mlir::Value> donors);
/// The element emitter of a residue kernel over one basis: loads the kernel's
/// inputs (buffers in `env`), computes `ops` (pointwise, in order), stores
/// `results`. Built where the kernel's tables may be read (outside a GPU
/// launch's body: its tables become the kernel's arguments).
struct ResidueEmitter {
  KernelBuilder &kb;
  llvm::ArrayRef<mlir::Operation *> ops;
  const llvm::DenseMap<mlir::Value, mlir::Value> &env;
  llvm::ArrayRef<mlir::Value> results;
  fhe::BasisAttr basis;
  int64_t K, N;
  mlir::Value consts, zetas;

  ResidueEmitter(KernelBuilder &kb, llvm::ArrayRef<mlir::Operation *> ops,
                 const llvm::DenseMap<mlir::Value, mlir::Value> &env, llvm::ArrayRef<mlir::Value> results);
  /// Element `blk` of prime j (W consecutive ones per vector); the inputs in
  /// `known` (one residue each, K = 1) are given instead of loaded.
  void element(mlir::Value j, mlir::Value blk, const PrimeRow &row, int64_t W,
               const llvm::DenseMap<mlir::Value, mlir::Value> *known = nullptr);
  /// Prime j's constants (and element blk's zeta of an incomplete NTT).
  PrimeRow rowFor(mlir::Value j, mlir::Value blk, int64_t W);
  /// Row j of a kernel whose results are prime-major, each row streamed; W
  /// consecutive residues per vector when every operand is prime-major (a
  /// complete NTT's elements).
  void row(mlir::Value j);
};

/// A residue kernel whose buffers `env` holds: `ops` on every element of its
/// basis (GPU: one grid over every (prime, element); CPU: primes in parallel).
void emitResidueElements(KernelBuilder &kb, llvm::ArrayRef<mlir::Operation *> ops,
                         const llvm::DenseMap<mlir::Value, mlir::Value> &env, llvm::ArrayRef<mlir::Value> results);
/// Row j of a residue kernel on prime-major matrices: `ops` on every element
/// of the row, reading and writing the buffers of `env`.
void emitResidueRow(KernelBuilder &kb, llvm::ArrayRef<mlir::Operation *> ops,
                    const llvm::DenseMap<mlir::Value, mlir::Value> &env, llvm::ArrayRef<mlir::Value> results,
                    mlir::Value j);

/// The evaluation-domain slot that `op` moves to slot `at` (an index, in
/// the target's NTT order): a residue kernel reads its input there (GPU
/// targets, where fhe-fuse puts an automorphism into the residue kernel
/// that reads it).
mlir::Value evalAutomorphismSource(KernelBuilder &kb, fhe::AutomorphismOp op, mlir::Value at);
/// Whether a residue kernel's input `arg` is read through such a gather (at
/// other elements' positions): no result may take over its buffer.
inline bool readByGather(mlir::Value arg) {
  return llvm::any_of(arg.getUsers(), llvm::IsaPred<fhe::AutomorphismOp>);
}

/// hadamard, add or sub of one element.
llvm::SmallVector<mlir::Value> emitResidueElement(KernelBuilder &kb, mlir::Operation *op,
                                                  llvm::ArrayRef<llvm::SmallVector<mlir::Value>> args,
                                                  const PrimeRow &row);

//===----------------------------------------------------------------------===//
// Automorphisms row by row (CPU, prime-major): the kernel of a single
// fhe.automorphism, and a stage of rows kernels.
//===----------------------------------------------------------------------===//

/// fhe.automorphism of prime-major residues one prime row at a time: the
/// constructor emits what every row shares (the evaluation domain's N slot
/// sources, computed once); row(j) stores row j of `out` from row j of `in`,
/// prefetching row `next` of `in` into L2 meanwhile when given.
class AutomorphismRows {
public:
  AutomorphismRows(KernelBuilder &kb, fhe::AutomorphismOp op, mlir::Value in, mlir::Value out);
  void row(mlir::Value j, mlir::Value next = mlir::Value());

private:
  KernelBuilder &kb;
  mlir::Value in, out;
  int64_t N;
  mlir::Value sources;      ///< evaluation domain: slot t reads slot sources[t]
  mlir::Value gInv, consts; ///< coefficient domain: g^-1 mod 2N and the primes
};

} // namespace fhec

namespace fhec {

/// A conversion pattern of fhe-to-loops: it emits its kernel with the
/// lowering's options (target, phase timers).
template <typename OpTy> struct KernelPattern : mlir::OpConversionPattern<OpTy> {
  KernelPattern(const TypeConverter &tc, mlir::MLIRContext *ctx, const LoweringOptions &o)
      : mlir::OpConversionPattern<OpTy>(tc, ctx), options(o) {}
  const LoweringOptions &options;
};

/// The single-op lowering of a coefficient-space op: a fresh result buffer and
/// the kernel of that one op.
template <typename OpTy> struct CoefficientOpLowering : KernelPattern<OpTy> {
  using KernelPattern<OpTy>::KernelPattern;
  using KernelPattern<OpTy>::options;

  mlir::LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                      mlir::ConversionPatternRewriter &rewriter) const override {
    if constexpr (std::is_same_v<OpTy, fhe::IcrtSumOp>)
      if (options.target->gpu) return op.emitOpError() << "has no GPU lowering: it runs on CPU targets";
    KernelBuilder kb(rewriter, op.getLoc(), options);
    mlir::Type resT = op->getResult(0).getType();
    mlir::Value out = kb.alloc(kb.memrefOf(resT));
    int64_t N = int64_t(1) << logNOf(resT);
    llvm::MapVector<mlir::Value, mlir::Value> memory;
    for (auto [v, mem] : llvm::zip(op->getOperands(), adaptor.getOperands())) memory[v] = mem;
    memory[op->getResult(0)] = out;
    kb.phaseBegin(phaseOf(op));
    bool gpuCrt = false;
    if constexpr (std::is_same_v<OpTy, fhe::CrtOp>)
      gpuCrt = options.target->gpu && op.getResult().getType().getLayout() == fhe::Layout::prime_major;
    if (gpuCrt)
      emitGpuCrt(kb, llvm::cast<fhe::CrtOp>(op.getOperation()), {adaptor.getOperands()[0]}, {out});
    else
      emitCoefficientKernel(kb, {op.getOperation()}, memory, N, coefficientBlock(op, N));
    kb.phaseEnd(phaseOf(op));
    rewriter.replaceOp(op, out);
    return mlir::success();
  }

  static unsigned logNOf(mlir::Type t) {
    if (auto p = mlir::dyn_cast<fhe::PolyType>(t)) return p.getLogN();
    return mlir::cast<fhe::RnsType>(t).getLogN();
  }
};

} // namespace fhec
