// The loop-building helper every fhe-to-loops kernel family shares: constants,
// scf loops (parallel and sequential), memref accesses, the modarith ops, the
// precomputed tables (fhe.table) and the phase timers. Kernels are written
// once against it; the modarith ops carry the target-specific arithmetic.
#pragma once

#include "dialect/FHE/IR/FHEDialect.h"
#include "dialect/ModArith/IR/ModArithDialect.h"
#include "target/Target.h"

#include "fhec/runtime/Abi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace fhec {

/// Options of one fhe-to-loops run.
struct LoweringOptions {
  const TargetSpec *target = nullptr;
  bool phaseTimers = true;
  /// Testing: a shifted digit iCRT always takes its exact path (the one its
  /// guard digits select about once in 2^45 coefficients).
  bool icrtExactAlways = false;
  /// GPU targets: kernels that need shared memory and barriers (the NTT's
  /// merged levels) are gpu.launch ops; without, every kernel is scf loops
  /// (the cuda arithmetic checked through the host's loops).
  bool gpuLaunches = true;
  /// Testing: the GPU NTT leaves out the barrier before each level's last
  /// sub-level (a race the ThreadSanitizer run of cuda-emu must report).
  bool dropGpuBarrier = false;
};

/// Whether the kernels of these options use gpu.launch where they need a
/// thread block's shared memory (GPU targets, unless lowered for the host).
inline bool usesGpuLaunches(const LoweringOptions &o) { return o.target->gpu && o.gpuLaunches; }

/// An RNS value or a BigInt polynomial in memory, seen from a kernel that
/// works on a block of coefficients: word k (limb or residue) of coefficient
/// base + i. Buffers are coefficient-major, (N, limbs) or (N, m), or
/// word-major: (m, N) prime-major RNS, and the (limbs, B) limb-major block
/// scratch that vector targets keep BigInts in. Block-local scratch buffers
/// have base 0.
struct CoeffRef {
  mlir::Value mem;
  mlir::Value base;
  bool wordMajor = false;
};

/// Memory form of the fhe types (the TypeConverter of fhe-to-loops): BigInt
/// polynomials (N, limbs) of 64-bit limbs; RNS values (m, N) prime-major with
/// padded rows, or (N, m), of the target's residue words (wordBits: 32 bits
/// on GPUs, whose 30-bit primes keep lazy residues below 4p < 2^32).
mlir::MemRefType memrefFor(mlir::Type fheType, const TargetSpec &target);

class KernelBuilder {
public:
  /// `b` must be positioned in a function body, where the kernel goes.
  KernelBuilder(mlir::OpBuilder &b, mlir::Location loc, const LoweringOptions &options);

  mlir::OpBuilder &b;
  mlir::Location loc;
  const LoweringOptions &options;

  // Constants and index arithmetic.
  mlir::Value c64(int64_t v);
  mlir::Value cidx(int64_t v);
  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value mul(mlir::Value x, mlir::Value y);
  mlir::Value shl(mlir::Value x, mlir::Value y);
  mlir::Value shr(mlir::Value x, mlir::Value y);

  // W-wide values: W = 1 is a scalar i64, W > 1 a vector<W x i64> (the
  // target's lanes) whose lanes are consecutive elements of the last index.
  mlir::Type wordType(int64_t W);
  mlir::Value loadW(mlir::Value mem, mlir::ValueRange idx, int64_t W);
  void storeW(mlir::Value v, mlir::Value mem, mlir::ValueRange idx);
  /// A scalar repeated in W lanes (the scalar itself for W = 1).
  mlir::Value splat(mlir::Value scalar, int64_t W);
  mlir::Value constW(int64_t v, int64_t W);
  /// Lane l of a W-wide value (the value for W = 1).
  mlir::Value lane(mlir::Value v, int64_t l);
  mlir::Value bitAnd(mlir::Value x, mlir::Value y);
  mlir::Value bitOr(mlir::Value x, mlir::Value y);
  mlir::Value sub(mlir::Value x, mlir::Value y);

  // Memory. Kernels compute on 64-bit words; memory may hold narrower ones
  // (a 32-bit-word target's residues, shared tiles of 32-bit digits): loads
  // zero-extend them to i64, stores truncate to the buffer's width.
  mlir::Value load(mlir::Value mem, mlir::ValueRange idx);
  void store(mlir::Value v, mlir::Value mem, mlir::ValueRange idx);
  /// An integer (vector) narrower than 64 bits zero-extended to i64; others unchanged.
  mlir::Value widen(mlir::Value v);
  /// An integer (vector) truncated to `elem` where that is narrower; others unchanged.
  mlir::Value narrowTo(mlir::Value v, mlir::Type elem);
  /// The memory form of an fhe type on this target (memrefFor).
  mlir::MemRefType memrefOf(mlir::Type fheType) const { return memrefFor(fheType, *options.target); }
  /// Elements idx .. idx + n - 1 along the last dimension, read as vector
  /// loads of up to 16 bytes where the alignment allows (GPUs' ld.v2/v4):
  /// `alignBytes` is the first element's known address alignment.
  llvm::SmallVector<mlir::Value> loadRun(mlir::Value mem, mlir::ValueRange idx, int64_t n, int64_t alignBytes);
  /// Software prefetch of element idx (locality 3: into L1; 2: into L2), for
  /// access patterns the hardware prefetchers do not follow; `write`: for a
  /// store (the line is fetched for ownership).
  void prefetch(mlir::Value mem, mlir::ValueRange idx, unsigned locality = 3, bool write = false);
  /// A 64-byte aligned buffer for a kernel's result or temporary (fhec-plan-workspace places it).
  mlir::Value alloc(mlir::MemRefType t);
  /// Block-local scratch on the stack of the current loop body.
  mlir::Value scratch(llvm::ArrayRef<int64_t> shape);
  /// The memory index of coefficient i of a block (base + i, or i for scratch).
  mlir::Value coeffIndex(const CoeffRef &r, mlir::Value i) { return r.base ? add(r.base, i) : i; }
  mlir::Value load(const CoeffRef &r, mlir::Value i, mlir::Value k);
  void store(mlir::Value v, const CoeffRef &r, mlir::Value i, mlir::Value k);
  /// Word k of W coefficients i .. i + W - 1: one vector access of a
  /// word-major buffer (W > 1 requires one), or the scalar access for W = 1.
  mlir::Value loadW(const CoeffRef &r, mlir::Value i, mlir::Value k, int64_t W);
  void storeW(mlir::Value v, const CoeffRef &r, mlir::Value i, mlir::Value k);
  /// The vector width for a block of B coefficients of these buffers: the
  /// target's lanes if they divide B and every buffer is word-major, else 1.
  int64_t lanesFor(int64_t B, llvm::ArrayRef<CoeffRef> refs) const;
  /// 8 x 8 transpose of 8 vectors of 8 lanes (three rounds of shuffles).
  llvm::SmallVector<mlir::Value> transpose8(llvm::ArrayRef<mlir::Value> rows);

  // Loops. Bodies are emitted with `b` positioned inside the loop.
  llvm::SmallVector<mlir::Value> loop(mlir::Value lb, mlir::Value ub, mlir::Value step, mlir::ValueRange init,
                                      llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::Value, mlir::ValueRange)> body);
  llvm::SmallVector<mlir::Value> loop(int64_t lb, int64_t ub, mlir::ValueRange init,
                                      llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::Value, mlir::ValueRange)> body);
  void loop(int64_t ub, llvm::function_ref<void(mlir::Value)> body);
  void loop(mlir::Value lb, mlir::Value ub, llvm::function_ref<void(mlir::Value)> body);
  /// scf.parallel over [0, ubs[d]) with step steps[d] (1 if absent).
  void parallel(llvm::ArrayRef<int64_t> ubs, llvm::function_ref<void(mlir::ValueRange)> body,
                llvm::ArrayRef<int64_t> steps = {});
  /// The same with upper bounds computed in the IR (steps 1).
  void parallel(mlir::ValueRange ubs, llvm::function_ref<void(mlir::ValueRange)> body);
  /// GPU targets' element grids: one scf.parallel over rows x cols elements
  /// (rows major), the body given (row, col) = (e / cols, e % cols), so that
  /// consecutive threads take consecutive columns of a row (coalesced).
  void rowMajorGrid(mlir::Value rows, mlir::Value cols, llvm::function_ref<void(mlir::Value, mlir::Value)> body);
  /// options[index] (index an index value below options.size(), the options
  /// of one type): a chain of selects, how a batched GPU kernel picks the
  /// buffers of its block's member.
  mlir::Value pick(mlir::Value index, llvm::ArrayRef<mlir::Value> options);
  /// scf.if without results.
  void ifThen(mlir::Value cond, llvm::function_ref<void()> body);

  // GPU targets: kernels that need a thread block's shared memory and
  // barriers are written as gpu.launch directly (scf.parallel has neither).
  /// gpu.launch of a (gx, gy, gz) grid of blocks of `threads` threads, with
  /// one workgroup (shared-memory) buffer of each type in `shared`; `body`
  /// gets the block ids (x, y, z), the thread id x and the shared buffers.
  /// (A batch of like kernels takes z for its member: no division.)
  void gpuLaunch(mlir::Value gx, mlir::Value gy, mlir::Value gz, int64_t threads,
                 llvm::ArrayRef<mlir::MemRefType> shared,
                 llvm::function_ref<void(mlir::Value, mlir::Value, mlir::Value, mlir::Value, mlir::ValueRange)> body);
  /// A block's copy of a rows x cols element range: thread tid of `threads`
  /// takes elements e = tid, tid + threads, ... as (row, col) = (e / cols,
  /// e % cols), so consecutive threads take consecutive columns (coalesced
  /// global accesses, consecutive shared words); one division, then steps
  /// with a carry, and the last round guarded.
  void gpuStage(mlir::Value tid, int64_t threads, int64_t rows, int64_t cols,
                llvm::function_ref<void(mlir::Value, mlir::Value)> copy);
  /// A buffer type of `shape` words of `bits` bits in a thread block's shared memory.
  mlir::MemRefType sharedType(llvm::ArrayRef<int64_t> shape, unsigned bits = 64);
  /// gpu.barrier: the block's threads wait for each other, and see each
  /// other's shared-memory writes from before it.
  void barrier();

  // Modular arithmetic (modarith ops; ranges are multiples of p).
  mlir::Value modAdd(mlir::Value x, mlir::Value y, mlir::Value p, int64_t in = 1, int64_t out = 1);
  mlir::Value modSub(mlir::Value x, mlir::Value y, mlir::Value p, int64_t in = 1, int64_t out = 1);
  mlir::Value reduce(mlir::Value x, mlir::Value p, int64_t in, int64_t out);
  mlir::Value mulShoup(mlir::Value x, mlir::Value w, mlir::Value wShoup, mlir::Value p, int64_t out = 1);
  /// z mod p for a 64-bit z = zh 2^32 + zl (Shoup base 2^32, 32-bit primes at
  /// most 30 bits): zh (2^32 mod p) + zl, each by Shoup's product (Algo. 2)
  /// into [0, 2p), their sum to [0, out p) (out = 1 or 4). oneShoup =
  /// floor(2^32 / p), r32 = 2^32 mod p, r32Shoup = floor(r32 2^32 / p).
  mlir::Value reduceWide(mlir::Value z, mlir::Value p, mlir::Value oneShoup, mlir::Value r32, mlir::Value r32Shoup,
                         int64_t out = 1);
  mlir::Value mulBarrett(mlir::Value x, mlir::Value y, mlir::Value p, mlir::Value mu, mlir::Value bits,
                         int64_t out = 1);
  /// (lo, hi) + (x y split at `digit` bits), lazily (modarith.mac_split).
  std::pair<mlir::Value, mlir::Value> macSplit(mlir::Value lo, mlir::Value hi, mlir::Value x, mlir::Value y,
                                               unsigned digit);
  /// (a0, a1, a2) + x * y as three words.
  std::array<mlir::Value, 3> mac(std::array<mlir::Value, 3> acc, mlir::Value x, mlir::Value y);
  /// init + sum_{k < n} x(k) y(k) as three words, where every product is below
  /// 2^(w + yBits): chunks of 2^(w - yBits) products are summed in two words
  /// (modarith.mac_lazy) and each chunk is added to the three-word total.
  std::array<mlir::Value, 3> dot(int64_t n, unsigned yBits, std::array<mlir::Value, 3> init,
                                 llvm::function_ref<mlir::Value(mlir::Value)> x,
                                 llvm::function_ref<mlir::Value(mlir::Value)> y);

  // Multi-word integer helpers (BigInt kernels).
  std::pair<mlir::Value, mlir::Value> mulWide(mlir::Value x, mlir::Value y);
  /// (x + y + carryIn, carry out in 0..2 as i64); carryIn may be any word.
  std::pair<mlir::Value, mlir::Value> addCarry(mlir::Value x, mlir::Value y, mlir::Value carryIn);
  /// (x - y - borrowIn, borrow out as 0/1 i64).
  std::pair<mlir::Value, mlir::Value> subBorrow(mlir::Value x, mlir::Value y, mlir::Value borrowIn);

  /// The number of primes of `basis` as an index value (fhe.prime_count), for
  /// the prime loops of prime-major kernels: fhec-outline-kernels makes it a
  /// kernel argument, so one kernel serves every basis size.
  mlir::Value primeCount(fhe::BasisAttr basis);
  /// An index constant that fhec-outline-kernels makes a kernel argument
  /// (fhe.kernel_param): for values kernels of one shape differ in.
  mlir::Value kernelParam(int64_t value);

  /// The precomputed table `kind` of `basis` (an fhe.table op; fhec-abi makes
  /// it an argument): (rows, cols) 64-bit words, or with `bits` = 32 the same
  /// memory as (rows, 2 cols) 32-bit halves, the low half first.
  mlir::Value table(abi::TableKind kind, fhe::BasisAttr basis, int64_t param, unsigned logN, unsigned bits = 64);
  /// Column `col` of row j of a (rows, cols) table.
  mlir::Value tableAt(mlir::Value table, mlir::Value j, int64_t col) { return load(table, {j, cidx(col)}); }

  /// fhec_rt_phase_begin/end around a kernel (no-op without phase timers).
  void phaseBegin(abi::Phase phase);
  void phaseEnd(abi::Phase phase);
  /// fhec_rt_phase_lap from a thread of a multi-phase kernel: the time since
  /// its last lap counts for `phase` (none: starts the thread's clock).
  void phaseLap(std::optional<abi::Phase> phase);

private:
  mlir::Block *functionEntry;  ///< where tables go
};

/// Phase a kernel op is timed under.
abi::Phase phaseOf(mlir::Operation *op);

} // namespace fhec
