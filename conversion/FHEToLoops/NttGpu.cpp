// The GPU form of the NTT and iNTT: each level of fhe-merge-ntt-levels is one
// launch, so a 2^16 transform with the cuda target's cost model takes two
// (levels 5 + 11) instead of the sixteen passes over memory of a radix-2 NTT
// (Jung et al. 2021, Sec. V-C "High-radix NTT"; HE-Booster, Sec. 3.3:
// stages synchronized within a thread block instead of across the GPU).
//
// A level (s, k) is N / 2^k independent radix-2^k sub-transforms: residue
// u in [0, 2^k) of sub-transform (blk, r) is element
//   blk 2^(k+q) + r + u 2^q,   r in [0, 2^q),
// with q = logN - s - k (forward) or s (inverse). A thread block owns a tile
// of C = 2^c consecutive r of one blk -- its warps' global accesses are then
// contiguous -- and takes it through the level's sub-levels (`gpuSubLevels`,
// at most the target's radix stages each): a thread loads the 2^r residues
// of a radix-2^r sub-transform into registers (2^(radix - r) of them in turn
// when r is below the radix), runs Harvey's butterflies on them, and stores
// them back; sub-levels exchange residues through the
// tile in shared memory (residue u of column r at u C + r, plus a word of
// padding per 8), a barrier between each. The first sub-level reads the
// input, the last writes the result (through coalesced copies where a
// thread's residues would be contiguous); a level of one sub-level with
// coalesced accesses needs neither shared memory nor barriers. The
// transforms of a batch go through a level together, one tile each: a
// thread's twiddles of a sub-level serve the whole batch (the same prime's),
// loaded once instead of once per transform.
#include "conversion/FHEToLoops/Ntt.h"
#include "conversion/FHEToLoops/Patterns.h"

using namespace mlir;

namespace fhec {

namespace {

// Bytes of a level's shared-memory tile of 2^tileLog residues: a word of
// padding per 8 spreads a thread's run of 8 residues over distinct banks; on
// 32-bit-word targets the tile holds 32-bit words (residues below 4p < 2^32:
// half the shared bytes and wavefronts of 64-bit words), 16-byte aligned.
int64_t tileBytes(const TargetSpec &spec, int64_t tileLog) {
  int64_t T = int64_t(1) << tileLog;
  return int64_t(llvm::alignTo((T + T / 8) * spec.wordBits / 8, 16));
}

// Whether n such tiles fit a thread block's shared memory.
bool tilesFit(const TargetSpec &spec, int64_t n, int64_t tileLog) {
  return n * tileBytes(spec, tileLog) <= abi::kGpuSharedMemoryBytes;
}

// Level (s, k) of the n = srcs.size() transforms of a batch, as one launch.
// When the n tiles fit a block's shared memory, block (tile, j) runs all n on
// prime j, a sub-level's twiddles loaded once for the batch (the transforms'
// residues in turn, each in its own tile); otherwise block (tile, j, b) runs
// transform b. With an epilogue (the forward transforms' last level; the
// tiles then always fit) the epilogue reads the n values of each position
// from the tiles instead of their going to dsts.
void emitLevel(KernelBuilder &kb, const TransformPlan &t, Value m, ArrayRef<Value> srcs, ArrayRef<Value> dsts,
               int64_t s, int64_t k, bool lastLevel, const GpuNttEpilogue *epilogue) {
  const TargetSpec &spec = *kb.options.target;
  int64_t q = t.inverse ? s : t.logN - s - k;
  int64_t c = std::min<int64_t>(q, int64_t(spec.nttBlockLog) - k), tileLog = k + c;
  auto subs = gpuSubLevels(s, k, spec.nttRadixLog, t.inverse);
  int64_t rmax = 0;
  for (auto [first, r] : subs) rmax = std::max(rmax, r);
  // Every thread holds 2^rmax residues; a sub-level of fewer stages gives it
  // 2^(rmax - r) sub-transforms in turn.
  int64_t threadsLog = tileLog - rmax;
  // Within the tile, sub-transform (sb, v) of a sub-level holds
  // u = sb 2^(vLog+r) + v + i 2^vLog, i < 2^r: the forward transform's
  // sub-level at a = first - s stages into the level has vLog = k-a-r, the
  // inverse's vLog = a. Its twiddles are those of block blk 2^(k-r-vLog) + sb
  // at stage `first`.
  auto vLogOf = [&](std::pair<int64_t, int64_t> sub) {
    int64_t a = sub.first - s;
    return t.inverse ? a : k - a - sub.second;
  };
  // A warp's consecutive threads take consecutive columns, then consecutive
  // v: a one-column tile of contiguous residues (q = 0: the forward
  // transform's last level, the inverse's first) whose first or last
  // sub-level has v below a warp apart gives each thread a run of 2^r
  // residues. Those residues go between global and shared memory in a
  // separate, coalesced copy (thread t: residues t, t + threads, ...).
  assert((!epilogue || (lastLevel && !t.inverse && q == 0)) && "an epilogue follows a forward transform's last level");
  bool stageIn = q == 0 && vLogOf(subs.front()) < 5, stageOut = epilogue || (q == 0 && vLogOf(subs.back()) < 5);
  bool tiled = subs.size() > 1 || stageIn || stageOut;
  int64_t n = int64_t(srcs.size());
  bool together = epilogue || (n > 1 && (!tiled || tilesFit(spec, n, tileLog)));
  int64_t perBlock = together ? n : 1;
  int64_t T = int64_t(1) << tileLog;
  SmallVector<MemRefType> shared;
  if (tiled)
    for (int64_t i = 0; i < perBlock; ++i) shared.push_back(kb.sharedType({T + T / 8}, spec.wordBits));

  Value tiles = kb.cidx(int64_t(1) << (t.logN - tileLog));
  kb.gpuLaunch(tiles, m, kb.cidx(n / perBlock), int64_t(1) << threadsLog, shared,
               [&](Value tile, Value j, Value b, Value tid, ValueRange sh) {
    // The block's transforms: their buffers and tiles.
    SmallVector<Value> src, dst, tileMem;
    if (together) {
      src.assign(srcs.begin(), srcs.end());
      dst.assign(dsts.begin(), dsts.end());
    } else {
      src.push_back(kb.pick(b, srcs));
      dst.push_back(kb.pick(b, dsts));
    }
    if (tiled) tileMem.assign(sh.begin(), sh.end());
    NttButterflies bf{kb, t.scaledRange};
    Value p = t.prime(kb, j);
    std::array<Value, 4> scale = t.scale(kb, j);
    auto mask = [&](int64_t bits) { return kb.cidx((int64_t(1) << bits) - 1); };
    auto padded = [&](Value e) { return kb.add(e, kb.shr(e, kb.cidx(3))); };
    // padded(e + off) given pe = padded(e): for off a multiple of 8 it is
    // pe + off + off / 8, a constant offset ptxas folds into the access.
    auto paddedPlus = [&](Value e, Value pe, int64_t off) {
      return off % 8 == 0 ? kb.add(pe, kb.cidx(off + off / 8)) : padded(kb.add(e, kb.cidx(off)));
    };
    // The tile's sub-transform block and first column.
    Value blk = kb.shr(tile, kb.cidx(q - c));
    Value base = kb.add(kb.shl(blk, kb.cidx(k + q)), kb.shl(kb.bitAnd(tile, mask(q - c)), kb.cidx(c)));
    // The coalesced copies of a one-column tile (q = 0: residue e at base +
    // e), `body` given each position and its tile offset.
    auto copy = [&](function_ref<void(Value at, Value se)> body) {
      Value ptid = padded(tid);
      for (int64_t w = 0; w < (int64_t(1) << rmax); ++w) {
        int64_t step = w << threadsLog;
        body(kb.add(base, kb.add(tid, kb.cidx(step))), paddedPlus(tid, ptid, step));
      }
    };
    if (stageIn) {
      copy([&](Value at, Value se) {
        for (int64_t i = 0; i < perBlock; ++i) kb.store(kb.load(src[i], {j, at}), tileMem[i], {se});
      });
      kb.barrier();
    }
    for (auto [l, sub] : llvm::enumerate(subs)) {
      auto [first, r] = sub;
      bool last = l + 1 == subs.size();
      bool fromGlobal = l == 0 && !stageIn, toGlobal = last && !stageOut;
      if (l > 0 && !(last && kb.options.dropGpuBarrier)) kb.barrier();
      int64_t vLog = vLogOf(sub), R = int64_t(1) << r;
      for (int64_t w = 0; w < (int64_t(1) << (rmax - r)); ++w) {
        Value item = kb.add(tid, kb.cidx(w << threadsLog));
        Value col = kb.bitAnd(item, mask(c)), sq = kb.shr(item, kb.cidx(c));
        Value v = kb.bitAnd(sq, mask(vLog)), sb = kb.shr(sq, kb.cidx(vLog));
        Value u0 = kb.add(kb.shl(sb, kb.cidx(vLog + r)), v);
        // Residue i sits i 2^(vLog + c) words after residue 0 in the tile.
        Value e0 = kb.add(kb.shl(u0, kb.cidx(c)), col), pe0 = padded(e0);
        SmallVector<Value> at(R), sat(R);
        for (int64_t i = 0; i < R; ++i) {
          Value u = kb.add(u0, kb.cidx(i << vLog));
          at[i] = kb.add(kb.add(base, col), kb.shl(u, kb.cidx(q)));
          sat[i] = paddedPlus(e0, pe0, i << (vLog + c));
        }
        Value blkT = kb.add(kb.shl(blk, kb.cidx(k - r - vLog)), sb);
        NttButterflies::Twiddles W = t.twiddles(kb, j, first, r, blkT, 1);
        for (int64_t b = 0; b < perBlock; ++b) {
          SmallVector<Value> x(R);
          for (int64_t i = 0; i < R; ++i) x[i] = fromGlobal ? kb.load(src[b], {j, at[i]}) : kb.load(tileMem[b], {sat[i]});
          if (t.inverse) {
            bf.inverseButterflies(x, first, r, t.logN, W, p, scale);
          } else {
            bf.forwardButterflies(x, r, W, p);
            if (lastLevel && last)
              for (Value &e : x) e = kb.reduce(e, p, 4, 1);
          }
          for (int64_t i = 0; i < R; ++i) {
            if (toGlobal)
              kb.store(x[i], dst[b], {j, at[i]});
            else
              kb.store(x[i], tileMem[b], {sat[i]});
          }
        }
      }
    }
    if (!stageOut) return;
    kb.barrier();
    if (epilogue) epilogue->begin(j);
    copy([&](Value at, Value se) {
      SmallVector<Value> xs;
      for (int64_t i = 0; i < perBlock; ++i) xs.push_back(kb.load(tileMem[i], {se}));
      if (epilogue)
        epilogue->element(at, xs);
      else
        for (int64_t i = 0; i < perBlock; ++i) kb.store(xs[i], dst[i], {j, at});
    });
  });
}

} // namespace

LogicalResult checkGpuLevels(Operation *op, const LoweringOptions &o) {
  if (!usesGpuLaunches(o)) return success();
  if (std::optional<ArrayRef<int64_t>> levels = fhe::transformLevels(op))
    for (int64_t k : *levels)
      if (k > int64_t(o.target->nttBlockLog))
        return op->emitOpError() << "has a level of " << k << " stages; a " << o.target->name
                                 << " thread block holds at most " << o.target->nttBlockLog
                                 << " in shared memory (see fhe-merge-ntt-levels)";
  return success();
}

bool gpuNttEpilogueFits(const TargetSpec &target, ArrayRef<Operation *> ops) {
  // The last level's tile: 2^k residues (q = 0).
  int64_t k = 1;
  if (std::optional<ArrayRef<int64_t>> levels = fhe::transformLevels(ops.front()); levels && !levels->empty())
    k = levels->back();
  return tilesFit(target, int64_t(ops.size()), k);
}

void emitTransformsGpu(KernelBuilder &kb, ArrayRef<Operation *> ops, ArrayRef<Value> ins, ArrayRef<Value> outs,
                       const GpuNttEpilogue *epilogue) {
  Value m = kb.primeCount(cast<fhe::RnsType>(ops.front()->getResult(0).getType()).getBasis());
  kb.phaseBegin(phaseOf(ops.front()));
  // Runs of transforms of one kind, types, levels and buffer types share
  // their launches: one per level for the whole run (a fused batch's NTTs
  // are independent, and their results never share a buffer with another
  // transform's input).
  auto sameShape = [&](size_t a, size_t b) {
    return fhe::sameShape(ops[a], ops[b]) && ins[a].getType() == ins[b].getType() &&
           outs[a].getType() == outs[b].getType();
  };
  for (size_t first = 0, end; first < ops.size(); first = end) {
    for (end = first + 1; end < ops.size() && sameShape(first, end);) ++end;
    TransformPlan t = planTransform(kb, ops[first]);
    ArrayRef<Value> runIns = ins.slice(first, end - first), runOuts = outs.slice(first, end - first);
    assert((!epilogue || (first == 0 && end == ops.size())) && "an epilogue follows one batch of one shape");
    int64_t s = t.inverse ? t.skip : 0;
    for (auto [l, k] : llvm::enumerate(t.levels)) {
      bool last = l + 1 == t.levels.size();
      emitLevel(kb, t, m, l == 0 ? runIns : runOuts, runOuts, s, k, last, last ? epilogue : nullptr);
      s += k;
    }
  }
  kb.phaseEnd(phaseOf(ops.front()));
}

} // namespace fhec
