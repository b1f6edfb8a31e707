// Coefficient-space kernels: the ops that work on whole coefficients (CRT,
// iCRT, the BigInt chains) are emitted one block of B coefficients at a time.
// A single op is one parallel loop over blocks; an fhe.fused coefficient
// kernel runs its whole chain on each block, keeping the intermediates in a
// block-local scratch so they never go to memory (Jung et al. 2021,
// Section IV: region 1's iCRT of axax feeding region 2's CRT while the
// BigInt is in cache; the closing shift/add/rescale chain in one pass).
#include "conversion/FHEToLoops/Patterns.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace fhec {

int64_t coefficientBlock(Operation *op, int64_t N) {
  int64_t B = 1;
  if (auto f = dyn_cast<fhe::FusedOp>(op)) {
    for (Operation &inner : f.getBody()->without_terminator()) B = std::max(B, coefficientBlock(&inner, N));
  } else if (std::optional<uint64_t> block = fhe::conversionBlock(op)) {
    B = int64_t(*block);
  }
  // A power of two no larger than N, so blocks tile the coefficients exactly.
  B = std::min<int64_t>(B, N);
  return int64_t(1) << llvm::Log2_64(uint64_t(B));
}

void forEachCoefficientBlock(KernelBuilder &kb, int64_t N, int64_t B, function_ref<void(Value)> body) {
  kb.parallel({N}, [&](ValueRange iv) { body(iv[0]); }, {B});
}

void emitCoefficientBlock(KernelBuilder &kb, Operation *op, ArrayRef<CoeffRef> ins, const CoeffRef &out, int64_t B) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<fhe::CrtOp>([&](fhe::CrtOp o) { emitCrtBlock(kb, o, ins[0], out, B); })
      .Case<fhe::IcrtOp>([&](fhe::IcrtOp o) { emitIcrtBlock(kb, o, ins[0], ins.size() > 1 ? &ins[1] : nullptr, out, B); })
      .Case<fhe::IcrtSumOp>([&](fhe::IcrtSumOp o) {
        size_t G = o.getInputs().size();
        emitIcrtSumBlock(kb, o, ins.take_front(G), ins.size() > G ? &ins[G] : nullptr, out, B);
      })
      .Default([&](Operation *o) { emitBigIntBlock(kb, o, ins, out, B); });
}

static bool isWordMajor(Type t) {
  auto r = dyn_cast<fhe::RnsType>(t);
  return r && r.getLayout() == fhe::Layout::prime_major;
}

// Limbs (BigInt) or residues (RNS) per coefficient.
static int64_t wordsOf(Type t) {
  if (auto p = dyn_cast<fhe::PolyType>(t)) return int64_t(p.getLimbs());
  return int64_t(cast<fhe::RnsType>(t).getBasis().size());
}

// The L limbs of the block's W-coefficient groups between a (N, L)
// coefficient-major BigInt in memory and a (L, B) limb-major scratch, 8 x 8
// tiles through registers; the last L mod 8 limbs with masked accesses.
//
// Each access also prefetches its line two blocks ahead into L2 (for writing
// in the store direction): a block's coefficients are B L contiguous words
// read or written in one burst, thousands of cycles of IFMA work apart, and
// the hardware prefetchers do not run that far ahead of such bursts
// (measured on Zen 4, HE Mul: CRT 32.0 -> 29.5 ms, iCRT -0.7 ms).
static void transposeBlock(KernelBuilder &kb, const CoeffRef &mem, Value scratch, int64_t L, int64_t B, int64_t W,
                           bool toScratch) {
  OpBuilder &b = kb.b;
  auto vt = cast<VectorType>(kb.wordType(W));
  int64_t N = cast<MemRefType>(mem.mem.getType()).getShape()[0];
  auto ahead = [&](ArrayRef<Value> idx) {
    Value c = arith::MinUIOp::create(b, kb.loc, kb.add(idx[0], kb.cidx(2 * B)), kb.cidx(N - 1));
    return SmallVector<Value>{c, idx[1]};
  };
  auto tile = [&](Value w0, Value i0, int64_t n) {
    auto maskT = VectorType::get({W}, b.getI1Type());
    SmallVector<bool> bits(W, false);
    for (int64_t l = 0; l < n; ++l) bits[l] = true;
    Value mask = arith::ConstantOp::create(b, kb.loc, DenseElementsAttr::get(maskT, ArrayRef<bool>(bits)));
    Value zero = kb.constW(0, W);
    SmallVector<Value> rows;
    if (toScratch) {
      // Row r: limbs w0 .. w0 + n - 1 of coefficient i0 + r.
      for (int64_t r = 0; r < W; ++r) {
        SmallVector<Value> idx{kb.coeffIndex(mem, kb.add(i0, kb.cidx(r))), w0};
        rows.push_back(n == W ? kb.loadW(mem.mem, idx, W)
                              : Value(vector::MaskedLoadOp::create(b, kb.loc, vt, mem.mem, idx, mask, zero)));
        kb.prefetch(mem.mem, ahead(idx), /*locality=*/2);
      }
      SmallVector<Value> cols = kb.transpose8(rows);
      for (int64_t l = 0; l < n; ++l) kb.storeW(cols[l], scratch, {kb.add(w0, kb.cidx(l)), i0});
    } else {
      for (int64_t l = 0; l < W; ++l) rows.push_back(l < n ? kb.loadW(scratch, {kb.add(w0, kb.cidx(l)), i0}, W) : zero);
      SmallVector<Value> cols = kb.transpose8(rows);
      for (int64_t r = 0; r < W; ++r) {
        SmallVector<Value> idx{kb.coeffIndex(mem, kb.add(i0, kb.cidx(r))), w0};
        kb.prefetch(mem.mem, ahead(idx), /*locality=*/2, /*write=*/true);
        if (n == W)
          kb.storeW(cols[r], mem.mem, idx);
        else
          vector::MaskedStoreOp::create(b, kb.loc, mem.mem, idx, mask, cols[r]);
      }
    }
  };
  assert(W == 8 && "the tile transpose is 8 x 8");
  int64_t full = L / W * W;
  kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i0, ValueRange) {
    if (full)
      kb.loop(kb.cidx(0), kb.cidx(full), kb.cidx(W), {}, [&](Value w0, ValueRange) {
        tile(w0, i0, W);
        return SmallVector<Value>{};
      });
    if (L > full) tile(kb.cidx(full), i0, L - full);
    return SmallVector<Value>{};
  });
}

// The GPU form of a coefficient kernel of BigInt ops, with or without iCRTs
// (a lone op too): one launch of N / kGpuTileCoeffs blocks, each owning a
// tile of coefficients. Every
// BigInt of the chain lives in shared memory as a (coefficients, limbs)
// tile: a kernel input is copied in before the op that first reads it and a
// result out after the op that makes it, by the whole block (consecutive
// threads, consecutive words: coalesced); the iCRTs are the block's tiled
// matrix products (emitGpuIcrtTile), and a BigInt op runs one coefficient per
// thread of the first warp. A chain whose tiles exceed the block's shared
// memory reuses a tile once its value is dead (a key switch's closing chain
// of two iCRTs, their sum, the rescale and the additions after it needs
// three, not six). Without the tiles a thread would read its own
// coefficient's limbs, a warp's 32 words 8 L bytes apart, in a grid of only N
// threads. False (and nothing emitted) for other chains (CRTs, ops across
// coefficients), and for tiles beyond a block's shared memory even so.
static bool emitGpuTiledKernel(KernelBuilder &kb, ArrayRef<Operation *> ops,
                               const llvm::MapVector<Value, Value> &memory, int64_t N) {
  if (!usesGpuLaunches(kb.options) || N % kGpuTileCoeffs) return false;
  SmallVector<fhe::IcrtOp> icrts;
  llvm::SetVector<Value> polys;  // the BigInts of the chain, one tile each
  for (Operation *op : ops) {
    if (auto icrt = dyn_cast<fhe::IcrtOp>(op)) {
      if (!hasGpuIcrtTile(icrt, kb.options) || !memory.count(icrt.getInput())) return false;
      icrts.push_back(icrt);
    } else if (!isBigIntBlockOp(op)) {
      return false;
    }
    for (Value v : op->getOperands())
      if (isa<fhe::PolyType>(v.getType())) polys.insert(v);
    polys.insert(op->getResult(0));
  }
  // Each BigInt's live range in ops: from the op that makes it (a kernel
  // input: that first reads it) to the last that reads it; a result copied
  // out is read once more, after its op, until the next op's barrier.
  llvm::DenseSet<Value> produced;
  for (Operation *op : ops) produced.insert(op->getResult(0));
  llvm::DenseMap<Value, std::pair<size_t, size_t>> live;
  for (auto [i, op] : llvm::enumerate(ops)) {
    for (Value v : op->getOperands())
      if (polys.contains(v)) {
        auto [it, fresh] = live.try_emplace(v, i, i);
        it->second.second = i;
      }
    Value r = op->getResult(0);
    live[r] = {i, memory.count(r) ? i + 1 : i};
  }
  // A slot per value, or, when those exceed the block's shared memory,
  // slots first-fit in ops' order, each free again after its value's range.
  // (Reuse only when needed: ptxas gave HE Mul's closing chain 70 registers
  // instead of 64 with its rescaled sum in a reused slot.)
  llvm::DenseMap<Value, size_t> slotOf;
  // Each slot's row length: its widest value's limbs, odd (a warp's lanes
  // then hit different banks).
  SmallVector<int64_t> slotWords;
  auto assignSlots = [&](bool reuse) {
    slotOf.clear();
    slotWords.clear();
    SmallVector<size_t> slotFreeAt;  // the first op index at which each slot is free
    for (size_t i = 0; i < ops.size(); ++i)
      for (Value v : polys) {
        if (live.lookup(v).first != i) continue;
        size_t s = 0;
        while (s < slotFreeAt.size() && (!reuse || slotFreeAt[s] > i)) ++s;
        if (s == slotFreeAt.size()) slotFreeAt.push_back(0), slotWords.push_back(1);
        slotFreeAt[s] = live.lookup(v).second + 1;
        slotWords[s] = std::max(slotWords[s], int64_t(cast<fhe::PolyType>(v.getType()).getLimbs()) | 1);
        slotOf[v] = s;
      }
  };
  SmallVector<MemRefType> shared;
  size_t tilesFrom = 0;
  int64_t bytes = 0;
  for (bool reuse : {false, true}) {
    shared = icrts.empty() ? SmallVector<MemRefType>{} : gpuIcrtSharedTypes(kb, icrts);
    tilesFrom = shared.size();
    assignSlots(reuse);
    for (int64_t words : slotWords) shared.push_back(kb.sharedType({kGpuTileCoeffs, words}));
    bytes = 0;
    for (MemRefType t : shared) bytes += (t.getNumElements() * t.getElementTypeBitWidth() / 8 + 15) / 16 * 16;
    if (bytes <= abi::kGpuSharedMemoryBytes) break;
  }
  if (bytes > abi::kGpuSharedMemoryBytes) return false;
  const int64_t T = kGpuTileCoeffs, threads = kGpuTileThreads;
  kb.gpuLaunch(kb.cidx(N / T), kb.cidx(1), kb.cidx(1), threads, shared,
               [&](Value blk, Value, Value, Value tid, ValueRange sh) {
    GpuTile tile{kb.mul(blk, kb.cidx(T)), tid, arith::RemUIOp::create(kb.b, kb.loc, tid, kb.cidx(T)),
                 arith::DivUIOp::create(kb.b, kb.loc, tid, kb.cidx(T))};
    auto tileOf = [&](Value v) { return sh[tilesFrom + slotOf.lookup(v)]; };
    // Tile <-> global memory, (N, L) coefficient-major: the tile's T L words are contiguous there.
    auto copy = [&](Value v, bool in) {
      int64_t L = cast<fhe::PolyType>(v.getType()).getLimbs();
      Value mem = memory.lookup(v), t = tileOf(v);
      kb.gpuStage(tid, threads, T, L, [&](Value c, Value w) {
        Value at = kb.add(tile.i0, c);
        if (in)
          kb.store(kb.load(mem, {at, w}), t, {c, w});
        else
          kb.store(kb.load(t, {c, w}), mem, {at, w});
      });
    };
    SmallVector<Value> icrtShared(sh.take_front(tilesFrom));
    for (auto [i, op] : llvm::enumerate(ops)) {
      bool any = false;
      for (Value v : polys)
        if (!produced.count(v) && live.lookup(v).first == i) copy(v, true), any = true;
      if (any) kb.barrier();
      if (auto icrt = dyn_cast<fhe::IcrtOp>(op)) {
        emitGpuIcrtTile(kb, icrt, memory.lookup(icrt.getInput()), tileOf(icrt.getResult()), tile, icrtShared);
      } else {
        Value first = arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::ult, tid, kb.cidx(T));
        kb.ifThen(first, [&] {
          SmallVector<CoeffRef> ins;
          for (Value v : op->getOperands()) ins.push_back(CoeffRef{tileOf(v), tile.lane, false});
          emitBigIntBlock(kb, op, ins, CoeffRef{tileOf(op->getResult(0)), tile.lane, false}, 1);
        });
      }
      kb.barrier();
      if (memory.count(op->getResult(0))) copy(op->getResult(0), false);
    }
  });
  return true;
}

void emitCoefficientKernel(KernelBuilder &kb, ArrayRef<Operation *> ops, const llvm::MapVector<Value, Value> &memory,
                           int64_t N, int64_t B) {
  if (emitGpuTiledKernel(kb, ops, memory, N)) return;
  int64_t lanes = kb.options.target->lanes;
  int64_t W = kb.options.target->tileTranspose8x8 && B % lanes == 0 ? lanes : 1;
  llvm::DenseSet<Value> produced;
  for (Operation *op : ops) produced.insert(op->getResult(0));
  forEachCoefficientBlock(kb, N, B, [&](Value i0) {
    llvm::DenseMap<Value, CoeffRef> refs;
    SmallVector<std::pair<Value, CoeffRef>> stageOut;
    // A (words, B) word-major scratch with vector lanes, else (B, words).
    auto scratchFor = [&](Type t) {
      return W > 1 ? CoeffRef{kb.scratch({wordsOf(t), B}), Value(), true}
                   : CoeffRef{kb.scratch({B, wordsOf(t)}), Value(), false};
    };
    for (auto &[v, mem] : memory) {
      CoeffRef ref{mem, i0, isWordMajor(v.getType())};
      if (W == 1 || ref.wordMajor) {
        refs[v] = ref;
        continue;
      }
      // With vector lanes, coefficient-major operands and results go through
      // a word-major scratch, so that the kernels' vectors run along coefficients.
      refs[v] = scratchFor(v.getType());
      if (produced.count(v))
        stageOut.push_back({v, ref});
      else
        transposeBlock(kb, ref, refs[v].mem, wordsOf(v.getType()), B, W, /*toScratch=*/true);
    }
    for (Operation *op : ops) {
      Value res = op->getResult(0);
      if (!refs.count(res)) refs[res] = scratchFor(res.getType());  // intermediate, on the stack
      SmallVector<CoeffRef> ins;
      for (Value v : op->getOperands()) ins.push_back(refs.at(v));
      emitCoefficientBlock(kb, op, ins, refs.at(res), B);
    }
    for (auto &[v, ref] : stageOut)
      transposeBlock(kb, ref, refs.at(v).mem, wordsOf(v.getType()), B, W, /*toScratch=*/false);
  });
}

namespace {

struct FusedCoefficientLowering : KernelPattern<fhe::FusedOp> {
  using KernelPattern::KernelPattern;

  // CRTs of one shape with prime-major results, each reading a kernel input
  // and yielding its result (a GPU target's batch, fhe-fuse).
  bool isGpuCrtBatch(ArrayRef<Operation *> ops) const {
    if (!options.target->gpu) return false;
    return llvm::all_of(ops, [&](Operation *op) {
      auto crt = dyn_cast<fhe::CrtOp>(op);
      return crt && crt.getResult().getType().getLayout() == fhe::Layout::prime_major &&
             isa<BlockArgument>(crt.getInput()) && fhe::sameShape(op, ops.front());
    });
  }

  LogicalResult matchAndRewrite(fhe::FusedOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    if (op.getSpace() != fhe::Space::coefficient) return failure();
    KernelBuilder kb(rewriter, op.getLoc(), options);
    Block &body = *op.getBody();
    SmallVector<Value> yielded(op.getYield().getValues());
    // (In operand order: the kernel's scratch and transposes are emitted in
    // this map's order, and the IR must not depend on pointer values.)
    llvm::MapVector<Value, Value> memory;
    for (auto [a, mem] : llvm::zip(body.getArguments(), adaptor.getInputs())) memory[a] = mem;
    for (Value y : yielded)
      if (!memory.count(y)) memory[y] = kb.alloc(kb.memrefOf(y.getType()));
    unsigned logN = 0;
    for (Type t : op.getResultTypes())
      logN = isa<fhe::PolyType>(t) ? cast<fhe::PolyType>(t).getLogN() : cast<fhe::RnsType>(t).getLogN();
    int64_t N = int64_t(1) << logN;
    SmallVector<Operation *> ops;
    for (Operation &inner : body.without_terminator()) ops.push_back(&inner);
    kb.phaseBegin(phaseOf(op));
    if (isGpuCrtBatch(ops)) {
      // fhe-fuse's batch of independent CRTs on a GPU: one launch.
      SmallVector<Value> ins, outs;
      for (Operation *crt : ops) {
        ins.push_back(memory.lookup(crt->getOperand(0)));
        outs.push_back(memory.lookup(crt->getResult(0)));
      }
      emitGpuCrt(kb, cast<fhe::CrtOp>(ops.front()), ins, outs);
    } else {
      emitCoefficientKernel(kb, ops, memory, N, coefficientBlock(op, N));
    }
    kb.phaseEnd(phaseOf(op));
    SmallVector<Value> repl;
    for (Value y : yielded) repl.push_back(memory.at(y));
    rewriter.replaceOp(op, repl);
    return success();
  }
};

} // namespace

void populateCoefficientKernelPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  patterns.add<FusedCoefficientLowering>(tc, patterns.getContext(), o);
}

} // namespace fhec
