// GPU: CRTs (Jung et al. 2021, Algo. 1) of a batch of BigInt polynomials in
// one launch. Two forms: the tiled matrix product (Jung et al. 2021's matrix
// form; HE-Booster's (prime, coefficient) threads) over 28-bit digits, whose
// products a 64-bit word sums without carries; and one thread per residue
// reading the halves of its limbs (32-bit digits) in place, with the digit
// form's final reduction (Crt.h) (windows, and inputs too wide for a block's
// shared memory).
#include "conversion/FHEToLoops/Crt.h"

using namespace mlir;

namespace fhec {

namespace {

// The PrimeConsts columns of the tile's final reduction (reduceWide's
// constants: with Shoup base 2^32, beta mod p is 2^32 mod p), in the order a
// block copies them.
constexpr int kTileCols[] = {abi::kPrime, abi::kOneShoup, abi::kBetaMod, abi::kBetaModShoup};

// Tiles: T coefficients x PB primes per block of 256 threads; thread (lane
// r, column c) computes the residues of coefficient c for the block's
// primes r, r + lanes, ... (Q of them). A warp's 32 threads share their
// primes (T >= 32) and take consecutive coefficients. At most 8 primes a
// thread; the fewest prime groups for m primes, balanced (81 primes: 3
// groups of 28, not 32 + 32 + 17).
struct CrtTiling {
  /// nd: the input's 28-bit digits.
  CrtTiling(int64_t m, int64_t pb, int64_t nd, bool center, int64_t N) {
    T = std::min<int64_t>(64, N);
    lanes = threads / T;
    int64_t groupsOfM = (m + 8 * lanes - 1) / (8 * lanes);
    Q = (m + groupsOfM * lanes - 1) / (groupsOfM * lanes);
    PB = lanes * Q;
    // A sum: a residue below 4p carried from the sum before, then products
    // of digits below 2^28 and powers below 2^pb (64 of them for 30-bit
    // primes), in whole chunks of four (a thread's 16-byte loads; the powers
    // are zero-padded). Each sum ends in a reduction, the last one the CRT's.
    uint64_t product = ((uint64_t(1) << abi::kGpuCrtDigitBits) - 1) * ((uint64_t(1) << pb) - 1);
    int64_t maxChunks = int64_t((~uint64_t(0) - (uint64_t(4) << pb)) / product) / chunk;
    int64_t chunks = (nd + chunk - 1) / chunk;
    sums = (chunks + maxChunks - 1) / maxChunks;
    chunksPerSum = (chunks + sums - 1) / sums;
    ndPad = sums * chunksPerSum * chunk;
    // The staging cuts a row's digits in runs of 16 (7 limbs), a thread a run
    // in each of runRounds rounds of the block. A coefficient's digits: a row
    // of strideD words holding its runs (and before them its limbs' halves),
    // with an odd number of 16-byte groups (a warp's loads of a chunk, 32
    // consecutive rows, then hit distinct banks).
    digitRuns = (nd + runDigits - 1) / runDigits;
    runRounds = (T * digitRuns + threads - 1) / threads;
    strideD = std::max(ndPad, digitRuns * runDigits);
    if (strideD / 4 % 2 == 0) strideD += 4;
    sharedBytes = 4 * T * strideD + 4 * PB * ndPad + 8 * PB * cols + (center ? 8 * PB : 0);
  }
  /// The tiled launch applies: a block's shared memory holds the tile, and a
  /// thread's halves of its runs (14 words a round) fit its registers.
  bool fits() const { return sharedBytes <= abi::kGpuSharedMemoryBytes && runRounds <= 2; }
  static constexpr int64_t threads = 256, chunk = 4, cols = int64_t(std::size(kTileCols));
  /// The staging's runs of digits: 16 of 28 bits are 7 limbs.
  static constexpr int64_t runDigits = 16, runLimbs = runDigits * abi::kGpuCrtDigitBits / 64;
  int64_t T, lanes, Q, PB, sums, chunksPerSum, ndPad, digitRuns, runRounds, strideD, sharedBytes;
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

// The tiled matrix product's staging: the tile's T coefficients' 28-bit
// digits into sh[0] (digit k of a coefficient: bits 28k .. of its limbs,
// zeros past them), the group's PB primes' 2^(28k) rows into sh[1] (zero past
// nd: the digits there, the row's padding, then add nothing, and every chunk
// is whole), their reduction constants into sh[2] and centered terms into
// sh[3].
void stageTile(CrtDigitForm &f, const CrtTiling &t, const CoeffRef &in, Value i0, Value j0, Value primes, Value tid,
               ValueRange sh) {
  KernelBuilder &kb = f.kb;
  int64_t nd = f.nd, D = f.D, PB = t.PB;
  Value mLast = kb.sub(primes, kb.cidx(1));
  auto primeRow = [&](Value q) { return arith::MinUIOp::create(kb.b, kb.loc, kb.add(j0, q), mLast).getResult(); };
  auto stage = [&](int64_t rows, int64_t cols, function_ref<void(Value, Value)> copy) {
    kb.gpuStage(tid, CrtTiling::threads, rows, cols, copy);
  };
  // The limbs' 32-bit halves at the start of each row (one contiguous,
  // coalesced copy), zeros after them up to the runs' 7 limbs each.
  int64_t halves = 2 * CrtTiling::runLimbs * t.digitRuns;
  assert(2 * f.L <= halves && "the runs cover the limbs");
  stage(t.T, f.L, [&](Value c, Value l) {
    Value limb = kb.load(in, kb.add(i0, c), l), k = kb.mul(l, kb.cidx(2));
    kb.store(limb, sh[0], {c, k});
    kb.store(kb.shr(limb, kb.c64(32)), sh[0], {c, kb.add(k, kb.cidx(1))});
  });
  if (halves > 2 * f.L)
    stage(t.T, halves - 2 * f.L, [&](Value c, Value k) { kb.store(f.zero, sh[0], {c, kb.add(k, kb.cidx(2 * f.L))}); });
  kb.barrier();
  // A thread per run of 16 digits (coefficient e mod T, run e / T of item e =
  // tid, tid + 256, ...): its 14 halves into registers, then, once every
  // thread has read its own, the digits over them, cut at constant offsets.
  // (Items past the last run read the last one and write nothing.)
  Type i32 = kb.b.getI32Type();
  auto c32 = [&](int64_t x) { return arith::ConstantIntOp::create(kb.b, kb.loc, i32, x).getResult(); };
  SmallVector<std::tuple<Value, Value, Value, SmallVector<Value>>> runs;
  for (int64_t r = 0; r < t.runRounds; ++r) {
    Value e = kb.add(tid, kb.cidx(r * CrtTiling::threads));
    Value c = arith::RemUIOp::create(kb.b, kb.loc, e, kb.cidx(t.T));
    Value g = arith::DivUIOp::create(kb.b, kb.loc, e, kb.cidx(t.T));
    if ((r + 1) * CrtTiling::threads > t.T * t.digitRuns)
      g = arith::MinUIOp::create(kb.b, kb.loc, g, kb.cidx(t.digitRuns - 1));
    SmallVector<Value> h;
    for (Value v : kb.loadRun(sh[0], {c, kb.mul(g, kb.cidx(2 * CrtTiling::runLimbs))}, 2 * CrtTiling::runLimbs, 8))
      h.push_back(arith::TruncIOp::create(kb.b, kb.loc, i32, v));
    runs.push_back({e, c, g, h});
  }
  kb.barrier();
  for (auto [r, run] : llvm::enumerate(runs)) {
    auto &[e, c, g, h] = run;
    auto cut = [&, &c = c, &g = g, &h = h] {
      Value base = kb.mul(g, kb.cidx(CrtTiling::runDigits));
      for (int64_t u = 0; u < CrtTiling::runDigits; ++u) {
        int64_t w = u * D / 32, s = u * D % 32;
        Value d = arith::ShRUIOp::create(kb.b, kb.loc, h[w], c32(s));
        if (s + D > 32) d = kb.bitOr(d, kb.shl(h[w + 1], c32(32 - s)));
        if (s + D != 32) d = kb.bitAnd(d, c32((int64_t(1) << D) - 1));  // (bits s .. 31 of a half: no mask)
        kb.store(d, sh[0], {c, kb.add(base, kb.cidx(u))});
      }
    };
    if (int64_t(r + 1) * CrtTiling::threads > t.T * t.digitRuns)
      kb.ifThen(arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::ult, e, kb.cidx(t.T * t.digitRuns)), cut);
    else
      cut();
  }
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
  // The reduction's constants, compacted: thread q < PB copies prime row
  // q's (the first warps; the others skip).
  assert(PB <= CrtTiling::threads && "a thread per prime row of the group");
  kb.ifThen(arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::ult, tid, kb.cidx(PB)), [&] {
    for (int64_t x = 0; x < CrtTiling::cols; ++x)
      kb.store(kb.load(f.consts, {primeRow(tid), kb.cidx(kTileCols[x])}), sh[2], {tid, kb.cidx(x)});
  });
  if (f.center)
    stage(PB, 1, [&](Value q, Value) {
      kb.store(kb.load(f.center, {primeRow(q), kb.cidx(0)}), sh[3], {q, kb.cidx(0)});
    });
}

// The tiled matrix product: each block stages its tile (stageTile); every
// digit then serves Q primes from registers, and every power a warp's 32
// coefficients (a broadcast). Each coefficient's digits are a row (strideD),
// so a thread reads a chunk's digits in one load. A residue's products
// accumulate in one 64-bit word (mul.wide.u32 with its addend: an
// IMAD.WIDE.U32 each), reduced once per sum (KernelBuilder::reduceWide).
void tiledLaunch(CrtDigitForm &f, const CrtTiling &t, Value primes, ArrayRef<Value> ins, ArrayRef<Value> outs) {
  KernelBuilder &kb = f.kb;
  int64_t N = f.op.getResult().getType().getN(), T = t.T, Q = t.Q, chunk = CrtTiling::chunk;
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
    auto constant = [&](int64_t q, int col) {
      return kb.load(sh[2], {rows[q], kb.cidx(llvm::find(kTileCols, col) - std::begin(kTileCols))});
    };
    auto reduceWide = [&](Value z, int64_t q, int64_t out) {
      return kb.reduceWide(z, constant(q, abi::kPrime), constant(q, abi::kOneShoup), constant(q, abi::kBetaMod),
                           constant(q, abi::kBetaModShoup), out);
    };
    SmallVector<Value> acc(Q, f.zero);
    acc = kb.loop(0, t.sums, acc, [&](Value sum, ValueRange a) {
      Value first = kb.mul(sum, kb.cidx(t.chunksPerSum));
      SmallVector<Value> z = kb.loop(0, t.chunksPerSum, a, [&](Value kc, ValueRange zs) {
        Value k0 = kb.mul(kb.add(first, kc), kb.cidx(chunk));
        // The thread's digits of the chunk: one vector load (its coefficient's row).
        SmallVector<Value> d = kb.loadRun(sh[0], {c, k0}, chunk, 16), next;
        for (int64_t q = 0; q < Q; ++q) {
          SmallVector<Value> pw = kb.loadRun(sh[1], {rows[q], k0}, chunk, 16);
          Value zq = zs[q];
          for (int64_t u = 0; u < chunk; ++u) zq = kb.add(zq, kb.mul(d[u], pw[u]));
          next.push_back(zq);
        }
        return next;
      });
      SmallVector<Value> reduced;
      for (int64_t q = 0; q < Q; ++q) reduced.push_back(reduceWide(z[q], q, 4));
      return reduced;
    });
    // A centered CRT's top bit, from its digit in shared memory.
    Value topBit;
    if (f.center) {
      int64_t logq = f.op.getInput().getType().getLogq();
      Value digit = kb.load(sh[0], {c, kb.cidx((logq - 1) / f.D)});
      topBit = kb.bitAnd(kb.shr(digit, kb.c64((logq - 1) % f.D)), kb.c64(1));
    }
    // acc in [0, 4p): a lazy CRT's range; a centered term below p is added to
    // [0, 2p) (or [0, p), then mod p).
    bool lazy = f.op.getLazy();
    for (int64_t q = 0; q < Q; ++q) {
      Value res = acc[q], p = constant(q, abi::kPrime);
      if (f.center) {
        Value cTerm = kb.bitAnd(kb.sub(f.zero, topBit), kb.load(sh[3], {rows[q], kb.cidx(0)}));
        res = lazy ? kb.add(kb.reduce(res, p, 4, 2), cTerm) : kb.modAdd(kb.reduce(res, p, 4, 1), cTerm, p);
      } else if (!lazy) {
        res = kb.reduce(res, p, 4, 1);
      }
      Value j = kb.add(j0, rows[q]);
      kb.ifThen(arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::ult, j, primes),
                [&] { kb.store(res, out, kb.add(i0, c), j); });
    }
  });
}

} // namespace

void CrtDigitForm::emitGpu(ArrayRef<Value> ins, ArrayRef<Value> outs) {
  assert(!winograd && W == 1 && kb.options.target->shoupBits == 32 &&
         "the GPU forms reduce with Shoup in base 2^32");
  Value primes = kb.primeCount(basis);  // (a kernel argument: one kernel for every basis size)
  if (D == unsigned(abi::kGpuCrtDigitBits))
    tiledLaunch(*this, CrtTiling(m, pb, nd, bool(center), op.getResult().getType().getN()), primes, ins, outs);
  else
    perResidueGrid(*this, primes, ins, outs);
}

void emitGpuCrt(KernelBuilder &kb, fhe::CrtOp op, ArrayRef<Value> ins, ArrayRef<Value> outs) {
  // The tiled launch where its tile fits a block's shared memory, else a
  // thread per residue on the limbs' 32-bit halves.
  auto outT = op.getResult().getType();
  int64_t bits = op.getWindowBits().second, D = abi::kGpuCrtDigitBits;
  CrtTiling tiling(int64_t(outT.getBasis().size()), outT.getBasis().getPrimeBits(), (bits + D - 1) / D,
                   op.getCentered(), outT.getN());
  bool tiled = usesGpuLaunches(kb.options) && !op.getWindow() && tiling.fits();
  CoeffRef none{};
  CrtDigitForm(kb, op, none, none, 1, tiled ? unsigned(D) : kb.options.target->shoupBits, /*gpu=*/true)
      .emitGpu(ins, outs);
}

} // namespace fhec
