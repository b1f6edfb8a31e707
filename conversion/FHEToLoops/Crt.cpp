// CRT (Jung et al. 2021, Algo. 1): BigInt coefficients to residues, the matrix
// product (N, digits) x (digits, m) with the beta^k mod p_j table. With 64-bit
// words (beta = 2^64) each residue accumulates its limbs' products in three
// words and reduces them with Shoup. With IFMA (beta = 2^52) the coefficients
// are cut into 52-bit digits and each residue accumulates the low and high
// halves of its digit products lazily (modarith.mac_split), W coefficients
// per vector, then reduces the 104+-bit sum with Shoup products. A `centered`
// CRT adds (-2^logq) mod p_j where the input's top bit is set. A CRT with a
// `window` reads bits [offset, offset + bits) of each coefficient: its
// digits (or limbs) start at bit `offset` and end at the window's top.
#include "conversion/FHEToLoops/Patterns.h"

using namespace mlir;

namespace fhec {

// Digit k (base 2^D, D < 64) of W coefficients i .. i + W - 1 of the CRT's
// input window (bits [from, from + bits) of an L-limb BigInt): bits
// [from + D k, from + D k + D) below the window's top, from limb
// w = (from + D k) / 64 and, across a limb boundary, w + 1 (static shifts).
Value bigIntDigit(KernelBuilder &kb, const CoeffRef &in, Value i, int64_t k, int64_t L, unsigned D, int64_t W,
              int64_t from, int64_t bits) {
  int64_t bit = from + int64_t(D) * k, w = bit / 64, off = bit % 64;
  int64_t width = std::min<int64_t>(D, bits - int64_t(D) * k);
  Value v = kb.loadW(in, i, kb.cidx(w), W);
  if (off) v = kb.shr(v, kb.constW(off, W));
  if (off + width > 64 && w + 1 < L) v = kb.bitOr(v, kb.shl(kb.loadW(in, i, kb.cidx(w + 1), W), kb.constW(64 - off, W)));
  return kb.bitAnd(v, kb.constW(int64_t((uint64_t(1) << width) - 1), W));
}

namespace {

// Limb k (dynamic) of the 64-bit form's input window, bits [from + 64 k,
// from + 64 k + 64) below the window's top (`limbs` limbs in all).
Value windowLimb(KernelBuilder &kb, const CoeffRef &in, Value i, Value k, int64_t L, int64_t from, int64_t bits) {
  OpBuilder &b = kb.b;
  int64_t first = from / 64, off = from % 64, limbs = (bits + 63) / 64;
  Value w = kb.add(k, kb.cidx(first));
  Value v = kb.load(in, i, w);
  if (off) {
    // The next limb's low bits, where there is a next limb.
    Value next = kb.add(w, kb.cidx(1));
    Value inside = arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::ult, next, kb.cidx(L));
    Value hi = kb.load(in, i, arith::MinUIOp::create(b, kb.loc, next, kb.cidx(L - 1)));
    hi = arith::SelectOp::create(b, kb.loc, inside, kb.shl(hi, kb.c64(64 - off)), kb.c64(0));
    v = kb.bitOr(kb.shr(v, kb.c64(off)), hi);
  }
  if (int64_t top = bits - 64 * (limbs - 1); top < 64) {
    Value last = arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::eq, k, kb.cidx(limbs - 1));
    Value mask = arith::SelectOp::create(b, kb.loc, last, kb.c64(int64_t((uint64_t(1) << top) - 1)), kb.c64(-1));
    v = kb.bitAnd(v, mask);
  }
  return v;
}

// A `centered` CRT reads x >= 2^(logq-1) as x - 2^logq: the residue of x plus,
// when the top bit of x is set, (-2^logq) mod p_j (CrtCenter table), in [0, p).
// Returns that term for W coefficients i .. (zero where the bit is clear).
Value centerTerm(KernelBuilder &kb, fhe::CrtOp op, const CoeffRef &in, Value i, Value center, Value j, int64_t W) {
  int64_t logq = op.getInput().getType().getLogq();
  Value top = kb.loadW(in, i, kb.cidx((logq - 1) / 64), W);
  Value bit = kb.bitAnd(kb.shr(top, kb.constW((logq - 1) % 64, W)), kb.constW(1, W));
  return kb.bitAnd(kb.sub(kb.constW(0, W), bit), kb.splat(kb.tableAt(center, j, 0), W));
}

// The digit form (D < 64): digits of the block's coefficients in a (digits,
// B) scratch, then per prime and group of W coefficients a lazy dot product
// whose products split at D bits (IFMA's 52).
//
// On IFMA the dot products use Winograd's inner-product form (Winograd 1968;
// the matrix form's product (N, digits) x (digits, m) needs each pair of
// digits once per prime): with digits of D - 1 = 51 bits and powers
// s_k < p < 2^50, a digit plus a power stays below 2^52, and
//   sum_k d_k s_k = sum_{k even} (d_k + s_k+1) (d_k+1 + s_k) - A - B_j
// with A = sum_{k even} d_k d_k+1 per coefficient (once for all primes) and
// B_j = sum_{k even} s_k s_k+1 per prime (CrtWinograd table): one IFMA
// product pair per two digits instead of two, for two vector additions.
//
// With GPU buffers (GPU targets, prime-major results) it emits the whole
// CRT of each input of `gpuIns` into the same member of `gpuOuts` instead,
// as one grid (in, out and B are ignored).
void digitCrt(KernelBuilder &kb, fhe::CrtOp op, const CoeffRef &in, const CoeffRef &out, int64_t B, unsigned D,
              ArrayRef<Value> gpuIns = {}, ArrayRef<Value> gpuOuts = {}) {
  auto outT = op.getResult().getType();
  auto basis = outT.getBasis();
  int64_t L = op.getInput().getType().getLimbs(), m = int64_t(basis.size());
  int64_t pb = basis.getPrimeBits(), wordBits = kb.options.target->wordBits;
  bool matrix = op.getOrder() == fhe::Order::matrix;
  auto [from, bits] = op.getWindowBits();
  // (At most 1024 digits: the signed accumulators' bounds below.)
  bool winograd = matrix && kb.options.target->ifma && pb <= 50 && bits <= 51 * 1023;
  unsigned Dd = winograd ? D - 1 : D;  // bits per input digit
  int64_t real = (bits + Dd - 1) / Dd;                 // the input's digits
  // (Without a window the bits above logq are zero: full-width digits.)
  int64_t top = op.getWindow() ? bits : int64_t(Dd) * real;
  int64_t nd = winograd ? real + real % 2 : real;      // pairs of digits (a zero one on top)
  int64_t W = kb.lanesFor(B, {in, out});
  Value consts = kb.table(abi::TableKind::PrimeConsts, basis, 0, outT.getLogN());
  Value pow = kb.table(winograd ? abi::TableKind::CrtWinograd : abi::TableKind::CrtPowers, basis, nd, outT.getLogN());
  Value center = op.getCentered()
                     ? kb.table(abi::TableKind::CrtCenter, basis, op.getInput().getType().getLogq(), outT.getLogN())
                     : Value();
  bool digitsIn = gpuIns.empty();
  Value digits = digitsIn ? kb.scratch({nd, B}) : Value();
  // Winograd: A of each coefficient (low and high words) in a (2, B) scratch.
  Value corr = winograd ? kb.scratch({2, B}) : Value();
  Value zero = kb.constW(0, W);
  if (digitsIn) kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i, ValueRange) {
    SmallVector<Value> d;
    for (int64_t k = 0; k < nd; ++k) {
      d.push_back(k < real ? bigIntDigit(kb, in, i, k, L, Dd, W, from, top) : zero);
      kb.storeW(d.back(), digits, {kb.cidx(k), i});
    }
    if (winograd) {
      Value lo = zero, hi = zero;
      for (int64_t k = 0; k < nd; k += 2) std::tie(lo, hi) = kb.macSplit(lo, hi, d[k], d[k + 1], D);
      kb.storeW(lo, corr, {kb.cidx(0), i});
      kb.storeW(hi, corr, {kb.cidx(1), i});
    }
    return SmallVector<Value>{};
  });
  Value mask = kb.constW(int64_t((uint64_t(1) << D) - 1), W), shift = kb.constW(D, W);
  // With primes of at least D - 2 bits (the IFMA basis) and words of at
  // least D + 2 bits, the low digit l < 2^D < 8p goes into the sum
  // unreduced, one Shoup product fewer per residue; otherwise (narrower
  // primes, or the cuda target's 32-bit words for 32-bit digits) a Shoup
  // product reduces it.
  bool lazySum = pb + 2 >= D && D + 2 <= wordBits;
  // The dot product is below nd 2^(Dd + pb), so its high part h (from bit D
  // on) is below nd 2^(Dd + pb - D) and h1 = h >> D is at most h1Max (2 for
  // 24 Winograd digits of 51 bits and 50-bit primes, 5 for 24 digits of 52
  // bits; 0, no term at all, for few digits). Its product with beta^2 mod p
  // is then a plain word multiply, not a Shoup product (3 IFMA), and adds
  // h1Max p to the lazy sum's bound.
  int64_t h1Shift = 2 * int64_t(D) - Dd - pb;
  int64_t h1Max = h1Shift >= 0 && h1Shift < 62 ? (nd + (int64_t(1) << h1Shift) - 1) / (int64_t(1) << h1Shift) - 1 : -1;
  // (A centered CRT's term adds below p more.)
  int64_t sumRange =
      int64_t(llvm::PowerOf2Ceil(uint64_t((int64_t(1) << (D - pb + 1)) + 2 + h1Max + (center ? 1 : 0))));
  bool wordH1 = lazySum && h1Max >= 0 && sumRange <= 16;
  // The residue mod p_j of the dot product lo + hi 2^D of W coefficients i ..
  // lo + hi 2^D = l + h0 2^D + h1 2^(2D), each part below 2^D, h0 reduced
  // with Shoup, h1 (small) with Shoup or a word multiply. (Winograd: lo and
  // hi are signed, their sum lo + hi 2^D is not: an arithmetic shift carries
  // lo's sign, and h >= 0.) The prime's constants are row j of `cs`: the
  // PrimeConsts table, or (`gpuTile`) the GPU tile's copy of its
  // `finishCols` columns in that order. cTerm is a centered CRT's term.
  // `gpuTile` also means lo < 2^D already (no carry from it into hi) and a
  // reduction on 32-bit words (D = 32: every part and constant fits one,
  // and so does the lazy sum below 4p).
  static constexpr int finishCols[] = {abi::kPrime,   abi::kOneShoup,  abi::kBetaMod,
                                       abi::kBetaModShoup, abi::kBeta2Mod, abi::kBeta2ModShoup};
  auto finish = [&](Value lo, Value hi, Value cs, Value j, Value cTerm, bool gpuTile = false) {
    Type i32 = kb.b.getI32Type();
    auto word = [&](Value v) { return gpuTile ? Value(arith::TruncIOp::create(kb.b, kb.loc, i32, v)) : v; };
    auto c = [&](int col) {
      if (gpuTile) col = int(llvm::find(finishCols, col) - std::begin(finishCols));
      return word(kb.splat(kb.tableAt(cs, j, col), W));
    };
    Value p = c(abi::kPrime);
    Value h = hi;
    if (!gpuTile)
      h = kb.add(hi, winograd ? Value(arith::ShRSIOp::create(kb.b, kb.loc, lo, shift))
                              : Value(arith::ShRUIOp::create(kb.b, kb.loc, lo, shift)));
    bool noH1 = wordH1 && h1Max == 0;
    Value l = word(kb.bitAnd(lo, mask)), h0 = word(noH1 ? h : kb.bitAnd(h, mask));
    if (cTerm) cTerm = word(cTerm);
    Value r1 = kb.mulShoup(h0, c(abi::kBetaMod), c(abi::kBetaModShoup), p, lazySum ? 2 : 1), r2;
    if (!noH1) {
      Value h1 = word(arith::ShRUIOp::create(kb.b, kb.loc, h, shift));
      r2 = wordH1 ? kb.mul(h1, c(abi::kBeta2Mod))
                  : kb.mulShoup(h1, c(abi::kBeta2Mod), c(abi::kBeta2ModShoup), p, lazySum ? 2 : 1);
    }
    Value r;
    if (lazySum) {
      // l < 2^D <= 2^(D - pb + 1) p (8p), r1 in [0, 2p), r2 below
      // h1Max p (or 2p) and a centered term below p: the sum, below 16p,
      // goes to [0, p) by conditional subtractions of 8p, 4p, 2p and p,
      // or to [0, 4p) by the first two for a lazy CRT (an NTT's input).
      Value p2 = kb.add(p, p), sum = r2 ? kb.add(kb.add(l, r1), r2) : kb.add(l, r1);
      if (cTerm) sum = kb.add(sum, cTerm);
      r = op.getLazy() ? kb.reduce(sum, p2, 8, 2) : kb.reduce(kb.reduce(sum, p2, 8, 1), p, 2, 1);
    } else {
      Value one = gpuTile ? Value(arith::ConstantIntOp::create(kb.b, kb.loc, i32, 1)) : kb.constW(1, W);
      Value r0 = kb.mulShoup(l, one, c(abi::kOneShoup), p);
      if (op.getLazy() && pb + 2 <= wordBits) {
        // At most three residues in [0, p) and a centered term below p: their
        // plain sum is below 4p, a lazy CRT's range, and fits the word.
        r = kb.add(r0, r1);
        if (r2) r = kb.add(r, r2);
        if (cTerm) r = kb.add(r, cTerm);
      } else {
        r = kb.modAdd(kb.modAdd(r0, r1, p), r2, p);
        if (cTerm) r = kb.modAdd(r, cTerm, p);
      }
    }
    return r;
  };
  if (!gpuIns.empty()) {
    assert(!winograd && D == 32 && pb <= 32 && W == 1 && "the GPU forms read 32-bit digits, the halves of the limbs");
    int64_t N = outT.getN();
    Value primes = kb.primeCount(basis);  // (a kernel argument: one kernel for every basis size)
    // Tiles: T coefficients x PB primes per block of 256 threads; thread
    // (lane r, column c) computes the residues of coefficient c for the
    // block's primes r, r + lanes, ... (Q of them). A warp's 32 threads
    // share their primes (T >= 32) and take consecutive coefficients. At
    // most 8 primes a thread; the fewest prime groups for m primes, balanced
    // (81 primes: 3 groups of 28, not 32 + 32 + 17).
    int64_t threads = 256, T = std::min<int64_t>(64, N), lanes = threads / T;
    int64_t groupsOfM = (m + 8 * lanes - 1) / (8 * lanes), Q = (m + groupsOfM * lanes - 1) / (groupsOfM * lanes);
    int64_t PB = lanes * Q;
    // Digits d < 2^32 times powers below 2^pb: 2^(32 - pb) products (4 for
    // 30-bit primes) fit a 64-bit word (below).
    int64_t chunk = int64_t(1) << std::min<int64_t>(32 - pb, 3);
    // Power rows padded to whole chunks (at least 4 words): a thread reads a
    // chunk of them in 16-byte vector loads.
    int64_t unit = std::max<int64_t>(4, chunk), ndPad = (nd + unit - 1) / unit * unit;
    // A coefficient's digits: a row of rowsD words, padded to a multiple of
    // 4, at least ndPad (a thread's digits of a chunk, 16-byte loads), with
    // an odd number of 16-byte groups (a warp's such loads, 32 consecutive
    // rows, then hit distinct banks).
    int64_t rowsD = (L * 64 + D - 1) / D, cols = int64_t(std::size(finishCols));
    int64_t strideD = std::max((rowsD + 3) / 4 * 4, ndPad);
    if (strideD / 4 % 2 == 0) strideD += 4;
    int64_t sharedBytes = 4 * T * strideD + 4 * PB * ndPad + 8 * PB * cols + (center ? 8 * PB : 0);
    if (!usesGpuLaunches(kb.options) || op.getWindow() || sharedBytes > abi::kGpuSharedMemoryBytes) {
      // One thread per residue (prime j, coefficient i) reading its digits
      // in place: the host-loop form, windows, and inputs too wide for a
      // block's shared memory.
      int64_t perLimb = 64 / D, wholeLimbs = real / perLimb;
      for (auto [inMem, outMem] : llvm::zip_equal(gpuIns, gpuOuts)) {
        CoeffRef in{inMem, Value(), false}, out{outMem, Value(), true};
        kb.rowMajorGrid(primes, kb.cidx(N), [&](Value j, Value i) {
          SmallVector<Value> acc{zero, zero};
          auto mac = [&](ValueRange a, Value limb, int64_t half, Value k) {
            Value d = kb.bitAnd(half ? kb.shr(limb, kb.constW(half * D, 1)) : limb, mask);
            auto [lo, hi] = kb.macSplit(a[0], a[1], d, kb.load(pow, {j, k}), D);
            return SmallVector<Value>{lo, hi};
          };
          if (op.getWindow()) {
            for (int64_t k = 0; k < real; ++k)
              acc = mac(acc, bigIntDigit(kb, in, i, k, L, D, 1, from, bits), 0, kb.cidx(k));
          } else {
            acc = kb.loop(0, wholeLimbs, acc, [&](Value w, ValueRange a) {
              Value limb = kb.load(in, i, w);
              SmallVector<Value> next(a);
              for (int64_t h = 0; h < perLimb; ++h)
                next = mac(next, limb, h, kb.add(kb.mul(w, kb.cidx(perLimb)), kb.cidx(h)));
              return next;
            });
            if (real % perLimb) {
              Value limb = kb.load(in, i, kb.cidx(wholeLimbs));
              for (int64_t h = 0; h < real % perLimb; ++h) acc = mac(acc, limb, h, kb.cidx(wholeLimbs * perLimb + h));
            }
          }
          kb.store(finish(acc[0], acc[1], consts, j, center ? centerTerm(kb, op, in, i, center, j, 1) : Value()), out,
                   i, j);
        });
      }
      return;
    }
    // The tiled matrix product (Jung et al. 2021's matrix form of Algo. 1;
    // HE-Booster's (prime, coefficient) threads): each block stages its
    // T coefficients' limbs (one contiguous, coalesced copy) as 32-bit
    // digits, and its primes' beta^k rows and constants, in shared memory;
    // every digit then serves Q primes from registers, and every power a
    // warp's 32 coefficients (a broadcast). Each coefficient's digits are a
    // row (strideD above), so a thread reads a chunk's digits in one load.
    SmallVector<MemRefType> shared{kb.sharedType({T, strideD}, 32), kb.sharedType({PB, ndPad}, 32),
                                   kb.sharedType({PB, cols})};
    if (center) shared.push_back(kb.sharedType({PB, 1}));
    Value groups = arith::CeilDivUIOp::create(kb.b, kb.loc, primes, kb.cidx(PB));
    int64_t n = int64_t(gpuIns.size());
    // Block (tile, g, b): member b of the batch, prime group g.
    kb.gpuLaunch(kb.cidx(N / T), groups, kb.cidx(n), threads, shared,
                 [&](Value tile, Value g, Value member, Value tid, ValueRange sh) {
      CoeffRef in{kb.pick(member, gpuIns), Value(), false}, out{kb.pick(member, gpuOuts), Value(), true};
      Value i0 = kb.mul(tile, kb.cidx(T)), j0 = kb.mul(g, kb.cidx(PB));
      Value mLast = kb.sub(primes, kb.cidx(1));
      auto primeRow = [&](Value q) { return arith::MinUIOp::create(kb.b, kb.loc, kb.add(j0, q), mLast).getResult(); };
      auto stage = [&](int64_t rows, int64_t cols, function_ref<void(Value, Value)> copy) {
        kb.gpuStage(tid, threads, rows, cols, copy);
      };
      stage(T, L, [&](Value c, Value l) {
        Value limb = kb.load(in, kb.add(i0, c), l);
        for (int64_t h = 0; h < 64 / int64_t(D); ++h)
          kb.store(h ? kb.shr(limb, kb.c64(h * D)) : limb, sh[0],
                   {c, kb.add(kb.mul(l, kb.cidx(64 / D)), kb.cidx(h))});
      });
      if (nd % 2 == 0) {
        // Pairs of powers (rows of nd 64-bit words: 16-byte aligned): one
        // vector load each, half the staging's index arithmetic.
        stage(PB, nd / 2, [&](Value q, Value kk) {
          Value k = kb.mul(kk, kb.cidx(2));
          SmallVector<Value> w = kb.loadRun(pow, {primeRow(q), k}, 2, 16);
          kb.store(w[0], sh[1], {q, k});
          kb.store(w[1], sh[1], {q, kb.add(k, kb.cidx(1))});
        });
      } else {
        stage(PB, nd, [&](Value q, Value k) { kb.store(kb.load(pow, {primeRow(q), k}), sh[1], {q, k}); });
      }
      // Zero powers past nd: the digits there (the limbs' top halves, or the
      // row's padding) then add nothing, and every chunk is whole.
      if (ndPad > nd)
        stage(PB, ndPad - nd, [&](Value q, Value k) { kb.store(zero, sh[1], {q, kb.add(k, kb.cidx(nd))}); });
      // The constants finish reads, compacted: thread q < PB copies prime
      // row q's (the first warps; the others skip).
      assert(PB <= threads && "a thread per prime row of the group");
      kb.ifThen(arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::ult, tid, kb.cidx(PB)), [&] {
        for (int64_t x = 0; x < cols; ++x)
          kb.store(kb.load(consts, {primeRow(tid), kb.cidx(finishCols[x])}), sh[2], {tid, kb.cidx(x)});
      });
      if (center)
        stage(PB, 1, [&](Value q, Value) {
          kb.store(kb.load(center, {primeRow(q), kb.cidx(0)}), sh[3], {q, kb.cidx(0)});
        });
      kb.barrier();
      Value c = arith::RemUIOp::create(kb.b, kb.loc, tid, kb.cidx(T));
      Value r = arith::DivUIOp::create(kb.b, kb.loc, tid, kb.cidx(T));
      SmallVector<Value> rows;
      for (int64_t q = 0; q < Q; ++q) rows.push_back(kb.add(r, kb.cidx(q * lanes)));
      // A chunk's products, each a mul.wide.u32, and the low sum lo < 2^D fit
      // one 64-bit word (chunk (2^32 - 1)(2^pb - 1) + 2^32 - 1 < 2^64), so a
      // chunk continues lo's sum (each product's 64-bit addend) and is split
      // at D: its low half the new lo, its high half into hi. (lo stays below
      // 2^D, which the final reduction relies on; a 32-bit register, so that
      // ptxas keeps one word for it.)
      SmallVector<Value> acc;
      for (int64_t q = 0; q < Q; ++q) acc.append({arith::ConstantIntOp::create(kb.b, kb.loc, kb.b.getI32Type(), 0), zero});
      // Whole chunks over the zero-padded powers (a partial last chunk's code
      // after the loop took ptxas past 64 registers, or to spills, in small
      // CRTs).
      acc = kb.loop(0, ndPad / chunk, acc, [&](Value kc, ValueRange a) {
        Value k0 = kb.mul(kc, kb.cidx(chunk));
        // The thread's digits of the chunk: one vector load (its coefficient's row).
        SmallVector<Value> d = kb.loadRun(sh[0], {c, k0}, chunk, std::min<int64_t>(16, 4 * chunk)), next;
        for (int64_t q = 0; q < Q; ++q) {
          Value sum = kb.widen(a[2 * q]);
          SmallVector<Value> pw = kb.loadRun(sh[1], {rows[q], k0}, chunk, std::min<int64_t>(16, 4 * chunk));
          for (int64_t u = 0; u < chunk; ++u) sum = kb.add(sum, kb.mul(d[u], pw[u]));
          next.push_back(arith::TruncIOp::create(kb.b, kb.loc, kb.b.getI32Type(), sum));
          next.push_back(kb.add(a[2 * q + 1], kb.shr(sum, shift)));
        }
        return next;
      });
      // A centered CRT's top bit, from its digit in shared memory.
      Value topBit;
      if (center) {
        int64_t logq = op.getInput().getType().getLogq();
        Value digit = kb.load(sh[0], {c, kb.cidx((logq - 1) / D)});
        topBit = kb.bitAnd(kb.shr(digit, kb.c64((logq - 1) % D)), kb.c64(1));
      }
      for (int64_t q = 0; q < Q; ++q) {
        Value cTerm = center ? kb.bitAnd(kb.sub(zero, topBit), kb.load(sh[3], {rows[q], kb.cidx(0)})) : Value();
        Value res = finish(kb.widen(acc[2 * q]), acc[2 * q + 1], sh[2], rows[q], cTerm, /*gpuTile=*/true);
        Value j = kb.add(j0, rows[q]);
        kb.ifThen(arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::ult, j, primes),
                  [&] { kb.store(res, out, kb.add(i0, c), j); });
      }
    });
    return;
  }
  // Matrix order: P primes times V vectors of W coefficients per pass, 2 P V
  // independent accumulators hiding the multiply-accumulate latency (8 pairs;
  // 6 in Winograd's form, whose sums of digits and powers need registers too:
  // measured on Zen 4, HE Mul CRT -2 ms against 8, and no spills). Algo. 1's
  // order: one prime of one vector at a time.
  int64_t V = matrix ? std::max<int64_t>(1, std::min<int64_t>(B / W, 2)) : 1;
  int64_t P = matrix ? std::max<int64_t>(1, (winograd ? 6 : 8) / V) : 1;
  auto residues = [&](Value j0, int64_t n, Value i0) {
    SmallVector<Value> at, row;
    for (int64_t v = 0; v < V; ++v) at.push_back(kb.add(i0, kb.cidx(v * W)));
    for (int64_t q = 0; q < n; ++q) row.push_back(kb.add(j0, kb.cidx(q)));
    SmallVector<Value> init(2 * n * V, zero);
    if (winograd) {
      // Accumulators start at -A - B_j (low and high words): the sums below
      // are then the dot products, their words signed.
      for (int64_t v = 0; v < V; ++v) {
        Value aLo = kb.sub(zero, kb.loadW(corr, {kb.cidx(0), at[v]}, W));
        Value aHi = kb.sub(zero, kb.loadW(corr, {kb.cidx(1), at[v]}, W));
        for (int64_t q = 0; q < n; ++q) {
          int64_t x = 2 * (q * V + v);
          init[x] = kb.sub(aLo, kb.splat(kb.load(pow, {row[q], kb.cidx(nd)}), W));
          init[x + 1] = kb.sub(aHi, kb.splat(kb.load(pow, {row[q], kb.cidx(nd + 1)}), W));
        }
      }
    }
    SmallVector<Value> acc;
    if (winograd) {
      acc = kb.loop(0, nd / 2, init, [&](Value kk, ValueRange a) {
        Value k0 = kb.mul(kk, kb.cidx(2)), k1 = kb.add(k0, kb.cidx(1));
        SmallVector<Value> d0, d1, next(a);
        for (int64_t v = 0; v < V; ++v) {
          d0.push_back(kb.loadW(digits, {k0, at[v]}, W));
          d1.push_back(kb.loadW(digits, {k1, at[v]}, W));
        }
        for (int64_t q = 0; q < n; ++q) {
          Value s0 = kb.splat(kb.load(pow, {row[q], k0}), W), s1 = kb.splat(kb.load(pow, {row[q], k1}), W);
          for (int64_t v = 0; v < V; ++v) {
            int64_t x = 2 * (q * V + v);
            std::tie(next[x], next[x + 1]) = kb.macSplit(a[x], a[x + 1], kb.add(d0[v], s1), kb.add(d1[v], s0), D);
          }
        }
        return next;
      });
    } else {
      acc = kb.loop(0, nd, init, [&](Value k, ValueRange a) {
        SmallVector<Value> d, next(a);
        for (int64_t v = 0; v < V; ++v) d.push_back(kb.loadW(digits, {k, at[v]}, W));
        for (int64_t q = 0; q < n; ++q) {
          Value s = kb.splat(kb.load(pow, {row[q], k}), W);
          for (int64_t v = 0; v < V; ++v) {
            int64_t x = 2 * (q * V + v);
            std::tie(next[x], next[x + 1]) = kb.macSplit(a[x], a[x + 1], d[v], s, D);
          }
        }
        return next;
      });
    }
    for (int64_t q = 0; q < n; ++q)
      for (int64_t v = 0; v < V; ++v)
        kb.storeW(finish(acc[2 * (q * V + v)], acc[2 * (q * V + v) + 1], consts, row[q],
                         center ? centerTerm(kb, op, in, at[v], center, row[q], W) : Value()),
                  out, at[v], row[q]);
  };
  // All primes for each pass of V vectors.
  int64_t full = m / P * P;
  kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W * V), {}, [&](Value i0, ValueRange) {
    if (full)
      kb.loop(kb.cidx(0), kb.cidx(full), kb.cidx(P), {}, [&](Value j0, ValueRange) {
        residues(j0, P, i0);
        return SmallVector<Value>{};
      });
    if (m > full) residues(kb.cidx(full), m - full, i0);
    return SmallVector<Value>{};
  });
}

} // namespace

void emitCrtBlock(KernelBuilder &kb, fhe::CrtOp op, const CoeffRef &in, const CoeffRef &out, int64_t B) {
  unsigned D = kb.options.target->shoupBits;
  if (D < 64) return digitCrt(kb, op, in, out, B, D);
  auto outT = op.getResult().getType();
  auto basis = outT.getBasis();
  auto [from, bits] = op.getWindowBits();
  int64_t L = op.getInput().getType().getLimbs(), m = int64_t(basis.size()), limbs = (bits + 63) / 64;
  Value consts = kb.table(abi::TableKind::PrimeConsts, basis, 0, outT.getLogN());
  Value pow = kb.table(abi::TableKind::CrtPowers, basis, limbs, outT.getLogN());
  Value center = op.getCentered()
                     ? kb.table(abi::TableKind::CrtCenter, basis, op.getInput().getType().getLogq(), outT.getLogN())
                     : Value();
  auto residue = [&](Value j, Value i) {
    Value zero = kb.c64(0);
    // Products of a limb and beta^k mod p_j < 2^primeBits.
    auto limb = [&](Value k) {
      return op.getWindow() ? windowLimb(kb, in, i, k, L, from, bits) : kb.load(in, i, k);
    };
    auto acc = kb.dot(limbs, basis.getPrimeBits(), {zero, zero, zero}, limb,
                      [&](Value k) { return kb.load(pow, {j, k}); });
    // acc0 + acc1 beta + acc2 beta^2 mod p_j, one Shoup product per word.
    Value p = kb.tableAt(consts, j, abi::kPrime);
    Value r0 = kb.mulShoup(acc[0], kb.c64(1), kb.tableAt(consts, j, abi::kOneShoup), p);
    Value r1 = kb.mulShoup(acc[1], kb.tableAt(consts, j, abi::kBetaMod), kb.tableAt(consts, j, abi::kBetaModShoup), p);
    Value r2 = kb.mulShoup(acc[2], kb.tableAt(consts, j, abi::kBeta2Mod), kb.tableAt(consts, j, abi::kBeta2ModShoup), p);
    Value r = kb.modAdd(kb.modAdd(r0, r1, p), r2, p);
    if (center) r = kb.modAdd(r, centerTerm(kb, op, in, i, center, j, 1), p);
    kb.store(r, out, i, j);
  };
  if (op.getOrder() == fhe::Order::matrix) {
    // One prime row at a time over the block: the block's limbs stay in L1 and
    // each row of a prime-major result is written contiguously.
    kb.loop(m, [&](Value j) { kb.loop(B, [&](Value i) { residue(j, i); }); });
  } else {
    // Algo. 1: all primes of one coefficient.
    kb.loop(B, [&](Value i) { kb.loop(m, [&](Value j) { residue(j, i); }); });
  }
}

void emitGpuCrt(KernelBuilder &kb, fhe::CrtOp op, ArrayRef<Value> ins, ArrayRef<Value> outs) {
  digitCrt(kb, op, CoeffRef{}, CoeffRef{}, 1, kb.options.target->shoupBits, ins, outs);
}

void populateCrtPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  patterns.add<CoefficientOpLowering<fhe::CrtOp>>(tc, patterns.getContext(), o);
}

} // namespace fhec
