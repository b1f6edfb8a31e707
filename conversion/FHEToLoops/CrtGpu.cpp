// GPU: CRTs (Jung et al. 2021, Algo. 1) of a batch of BigInt polynomials in
// one launch, over 32-bit digits (the halves of the limbs) with the digit
// form's tables and final reduction (Crt.h). Two forms: the tiled matrix
// product (Jung et al. 2021's matrix form; HE-Booster's (prime, coefficient)
// threads), and one thread per residue reading its digits in place (the
// host-loop form, windows, and inputs too wide for a block's shared memory).
#include "conversion/FHEToLoops/Crt.h"

using namespace mlir;

namespace fhec {

namespace {

// Tiles: T coefficients x PB primes per block of 256 threads; thread (lane
// r, column c) computes the residues of coefficient c for the block's
// primes r, r + lanes, ... (Q of them). A warp's 32 threads share their
// primes (T >= 32) and take consecutive coefficients. At most 8 primes a
// thread; the fewest prime groups for m primes, balanced (81 primes: 3
// groups of 28, not 32 + 32 + 17).
struct CrtTiling {
  CrtTiling(const CrtDigitForm &f, int64_t N) {
    T = std::min<int64_t>(64, N);
    lanes = threads / T;
    int64_t groupsOfM = (f.m + 8 * lanes - 1) / (8 * lanes);
    Q = (f.m + groupsOfM * lanes - 1) / (groupsOfM * lanes);
    PB = lanes * Q;
    // Digits d < 2^32 times powers below 2^pb: 2^(32 - pb) products (4 for
    // 30-bit primes) fit a 64-bit word (below).
    chunk = int64_t(1) << std::min<int64_t>(32 - f.pb, 3);
    // Power rows padded to whole chunks (at least 4 words): a thread reads a
    // chunk of them in 16-byte vector loads.
    int64_t unit = std::max<int64_t>(4, chunk);
    ndPad = (f.nd + unit - 1) / unit * unit;
    // A coefficient's digits: a row of rowsD words, padded to a multiple of
    // 4, at least ndPad (a thread's digits of a chunk, 16-byte loads), with
    // an odd number of 16-byte groups (a warp's such loads, 32 consecutive
    // rows, then hit distinct banks).
    int64_t rowsD = (f.L * 64 + f.D - 1) / f.D;
    strideD = std::max((rowsD + 3) / 4 * 4, ndPad);
    if (strideD / 4 % 2 == 0) strideD += 4;
    sharedBytes = 4 * T * strideD + 4 * PB * ndPad + 8 * PB * cols + (f.center ? 8 * PB : 0);
  }
  static constexpr int64_t threads = 256, cols = int64_t(std::size(kCrtFinishCols));
  int64_t T, lanes, Q, PB, chunk, ndPad, strideD, sharedBytes;
};

// One thread per residue (prime j, coefficient i) reading its digits in place.
void perResidueGrid(CrtDigitForm &f, Value primes, ArrayRef<Value> ins, ArrayRef<Value> outs) {
  KernelBuilder &kb = f.kb;
  int64_t N = f.op.getResult().getType().getN();
  int64_t perLimb = 64 / f.D, wholeLimbs = f.real / perLimb;
  for (auto [inMem, outMem] : llvm::zip_equal(ins, outs)) {
    CoeffRef in{inMem, Value(), false}, out{outMem, Value(), true};
    kb.rowMajorGrid(primes, kb.cidx(N), [&](Value j, Value i) {
      SmallVector<Value> acc{f.zero, f.zero};
      auto mac = [&](ValueRange a, Value limb, int64_t half, Value k) {
        Value d = kb.bitAnd(half ? kb.shr(limb, kb.constW(half * f.D, 1)) : limb, f.mask);
        auto [lo, hi] = kb.macSplit(a[0], a[1], d, kb.load(f.pow, {j, k}), f.D);
        return SmallVector<Value>{lo, hi};
      };
      if (f.op.getWindow()) {
        for (int64_t k = 0; k < f.real; ++k)
          acc = mac(acc, bigIntDigit(kb, in, i, k, f.L, f.D, 1, f.from, f.bits), 0, kb.cidx(k));
      } else {
        acc = kb.loop(0, wholeLimbs, acc, [&](Value w, ValueRange a) {
          Value limb = kb.load(in, i, w);
          SmallVector<Value> next(a);
          for (int64_t h = 0; h < perLimb; ++h)
            next = mac(next, limb, h, kb.add(kb.mul(w, kb.cidx(perLimb)), kb.cidx(h)));
          return next;
        });
        if (f.real % perLimb) {
          Value limb = kb.load(in, i, kb.cidx(wholeLimbs));
          for (int64_t h = 0; h < f.real % perLimb; ++h) acc = mac(acc, limb, h, kb.cidx(wholeLimbs * perLimb + h));
        }
      }
      Value cTerm = f.center ? centerTerm(kb, f.op, in, i, f.center, j, 1) : Value();
      kb.store(f.finish(acc[0], acc[1], f.consts, j, cTerm), out, i, j);
    });
  }
}

// The tiled matrix product's staging: the tile's T coefficients' limbs (one
// contiguous, coalesced copy) as 32-bit digits into sh[0], the group's PB
// primes' beta^k rows into sh[1] (zero past nd: the digits there, the limbs'
// top halves or the row's padding, then add nothing, and every chunk is
// whole), their `finish` constants into sh[2] and centered terms into sh[3].
void stageTile(CrtDigitForm &f, const CrtTiling &t, const CoeffRef &in, Value i0, Value j0, Value primes, Value tid,
               ValueRange sh) {
  KernelBuilder &kb = f.kb;
  int64_t nd = f.nd, D = f.D, PB = t.PB;
  Value mLast = kb.sub(primes, kb.cidx(1));
  auto primeRow = [&](Value q) { return arith::MinUIOp::create(kb.b, kb.loc, kb.add(j0, q), mLast).getResult(); };
  auto stage = [&](int64_t rows, int64_t cols, function_ref<void(Value, Value)> copy) {
    kb.gpuStage(tid, CrtTiling::threads, rows, cols, copy);
  };
  stage(t.T, f.L, [&](Value c, Value l) {
    Value limb = kb.load(in, kb.add(i0, c), l);
    for (int64_t h = 0; h < 64 / D; ++h)
      kb.store(h ? kb.shr(limb, kb.c64(h * D)) : limb, sh[0], {c, kb.add(kb.mul(l, kb.cidx(64 / D)), kb.cidx(h))});
  });
  if (nd % 2 == 0) {
    // Pairs of powers (rows of nd 64-bit words: 16-byte aligned): one vector
    // load each, half the staging's index arithmetic.
    stage(PB, nd / 2, [&](Value q, Value kk) {
      Value k = kb.mul(kk, kb.cidx(2));
      SmallVector<Value> w = kb.loadRun(f.pow, {primeRow(q), k}, 2, 16);
      kb.store(w[0], sh[1], {q, k});
      kb.store(w[1], sh[1], {q, kb.add(k, kb.cidx(1))});
    });
  } else {
    stage(PB, nd, [&](Value q, Value k) { kb.store(kb.load(f.pow, {primeRow(q), k}), sh[1], {q, k}); });
  }
  if (t.ndPad > nd)
    stage(PB, t.ndPad - nd, [&](Value q, Value k) { kb.store(f.zero, sh[1], {q, kb.add(k, kb.cidx(nd))}); });
  // The constants finish reads, compacted: thread q < PB copies prime row
  // q's (the first warps; the others skip).
  assert(PB <= CrtTiling::threads && "a thread per prime row of the group");
  kb.ifThen(arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::ult, tid, kb.cidx(PB)), [&] {
    for (int64_t x = 0; x < CrtTiling::cols; ++x)
      kb.store(kb.load(f.consts, {primeRow(tid), kb.cidx(kCrtFinishCols[x])}), sh[2], {tid, kb.cidx(x)});
  });
  if (f.center)
    stage(PB, 1, [&](Value q, Value) {
      kb.store(kb.load(f.center, {primeRow(q), kb.cidx(0)}), sh[3], {q, kb.cidx(0)});
    });
}

// The tiled matrix product: each block stages its tile (stageTile); every
// digit then serves Q primes from registers, and every power a warp's 32
// coefficients (a broadcast). Each coefficient's digits are a row (strideD),
// so a thread reads a chunk's digits in one load.
void tiledLaunch(CrtDigitForm &f, const CrtTiling &t, Value primes, ArrayRef<Value> ins, ArrayRef<Value> outs) {
  KernelBuilder &kb = f.kb;
  int64_t N = f.op.getResult().getType().getN(), T = t.T, Q = t.Q, chunk = t.chunk;
  SmallVector<MemRefType> shared{kb.sharedType({T, t.strideD}, 32), kb.sharedType({t.PB, t.ndPad}, 32),
                                 kb.sharedType({t.PB, CrtTiling::cols})};
  if (f.center) shared.push_back(kb.sharedType({t.PB, 1}));
  Value groups = arith::CeilDivUIOp::create(kb.b, kb.loc, primes, kb.cidx(t.PB));
  int64_t n = int64_t(ins.size());
  // Block (tile, g, b): member b of the batch, prime group g.
  kb.gpuLaunch(kb.cidx(N / T), groups, kb.cidx(n), CrtTiling::threads, shared,
               [&](Value tile, Value g, Value member, Value tid, ValueRange sh) {
    CoeffRef in{kb.pick(member, ins), Value(), false}, out{kb.pick(member, outs), Value(), true};
    Value i0 = kb.mul(tile, kb.cidx(T)), j0 = kb.mul(g, kb.cidx(t.PB));
    stageTile(f, t, in, i0, j0, primes, tid, sh);
    kb.barrier();
    Value c = arith::RemUIOp::create(kb.b, kb.loc, tid, kb.cidx(T));
    Value r = arith::DivUIOp::create(kb.b, kb.loc, tid, kb.cidx(T));
    SmallVector<Value> rows;
    for (int64_t q = 0; q < Q; ++q) rows.push_back(kb.add(r, kb.cidx(q * t.lanes)));
    // A chunk's products, each a mul.wide.u32, and the low sum lo < 2^D fit
    // one 64-bit word (chunk (2^32 - 1)(2^pb - 1) + 2^32 - 1 < 2^64), so a
    // chunk continues lo's sum (each product's 64-bit addend) and is split
    // at D: its low half the new lo, its high half into hi. (lo stays below
    // 2^D, which the final reduction relies on; a 32-bit register, so that
    // ptxas keeps one word for it.)
    SmallVector<Value> acc;
    for (int64_t q = 0; q < Q; ++q)
      acc.append({arith::ConstantIntOp::create(kb.b, kb.loc, kb.b.getI32Type(), 0), f.zero});
    // Whole chunks over the zero-padded powers (a partial last chunk's code
    // after the loop took ptxas past 64 registers, or to spills, in small
    // CRTs).
    acc = kb.loop(0, t.ndPad / chunk, acc, [&](Value kc, ValueRange a) {
      Value k0 = kb.mul(kc, kb.cidx(chunk));
      // The thread's digits of the chunk: one vector load (its coefficient's row).
      SmallVector<Value> d = kb.loadRun(sh[0], {c, k0}, chunk, std::min<int64_t>(16, 4 * chunk)), next;
      for (int64_t q = 0; q < Q; ++q) {
        Value sum = kb.widen(a[2 * q]);
        SmallVector<Value> pw = kb.loadRun(sh[1], {rows[q], k0}, chunk, std::min<int64_t>(16, 4 * chunk));
        for (int64_t u = 0; u < chunk; ++u) sum = kb.add(sum, kb.mul(d[u], pw[u]));
        next.push_back(arith::TruncIOp::create(kb.b, kb.loc, kb.b.getI32Type(), sum));
        next.push_back(kb.add(a[2 * q + 1], kb.shr(sum, f.shift)));
      }
      return next;
    });
    // A centered CRT's top bit, from its digit in shared memory.
    Value topBit;
    if (f.center) {
      int64_t logq = f.op.getInput().getType().getLogq();
      Value digit = kb.load(sh[0], {c, kb.cidx((logq - 1) / f.D)});
      topBit = kb.bitAnd(kb.shr(digit, kb.c64((logq - 1) % f.D)), kb.c64(1));
    }
    for (int64_t q = 0; q < Q; ++q) {
      Value cTerm = f.center ? kb.bitAnd(kb.sub(f.zero, topBit), kb.load(sh[3], {rows[q], kb.cidx(0)})) : Value();
      Value res = f.finish(kb.widen(acc[2 * q]), acc[2 * q + 1], sh[2], rows[q], cTerm, /*gpuTile=*/true);
      Value j = kb.add(j0, rows[q]);
      kb.ifThen(arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::ult, j, primes),
                [&] { kb.store(res, out, kb.add(i0, c), j); });
    }
  });
}

} // namespace

void CrtDigitForm::emitGpu(ArrayRef<Value> ins, ArrayRef<Value> outs) {
  assert(!winograd && D == 32 && pb <= 32 && W == 1 && "the GPU forms read 32-bit digits, the halves of the limbs");
  Value primes = kb.primeCount(basis);  // (a kernel argument: one kernel for every basis size)
  CrtTiling tiling(*this, op.getResult().getType().getN());
  if (!usesGpuLaunches(kb.options) || op.getWindow() || tiling.sharedBytes > abi::kGpuSharedMemoryBytes)
    perResidueGrid(*this, primes, ins, outs);
  else
    tiledLaunch(*this, tiling, primes, ins, outs);
}

void emitGpuCrt(KernelBuilder &kb, fhe::CrtOp op, ArrayRef<Value> ins, ArrayRef<Value> outs) {
  CoeffRef none{};
  CrtDigitForm(kb, op, none, none, 1, kb.options.target->shoupBits, /*gpu=*/true).emitGpu(ins, outs);
}

} // namespace fhec
