// iCRT's digit matrix (Jung et al. 2021, Algo. 6 over D-bit digits, D < 64:
// IFMA's 52, or the 32-bit words of a GPU thread): the shared loop form of
// the targets whose words are narrower than 64 bits (docs/design.md,
// "Lowering structure").
//
// Column c of X mod 2^(D Dq) is sum_j temp_j T_j[c] + k negP[c], with
// T_j = P/p_j and negP = -P mod 2^(D Dq) in base 2^D (adding k negP
// subtracts k P, no borrows). The low and high halves of the digit products
// accumulate lazily in 64-bit lanes (m + 1 terms below 2^52 each: temp_j <
// 2 p_j < 2^51 and k <= 2m), W coefficients per vector, and one carry pass
// per group normalizes the columns; the digits are then repacked into the
// 64-bit limbs of the result, from bit `shift` on.
//
// With a shift, the columns start two guard digits below the first one the
// result needs, at cLo, ignoring the carry C from the columns below. Those
// sum to less than (m + 1) 2^D 2^(D cLo) (m products t_j T_j below
// 2^D 2^(D cLo) each, and k <= 2m times negP), so C < (m + 1) 2^D and it
// changes a digit at cLo + 2 or above only if the two guard digits d0 + d1
// 2^D reach 2^(2D) - (m + 1) 2^D, which needs d1 >= 2^D - (m + 1): then
// (with probability about m 2^-D per coefficient) the vector's columns are
// redone from column 0, exactly. (D is the columns' width here: 51 in
// Winograd's form below, where temp_j < 2^51 keeps every bound.)
//
// On IFMA the columns use Winograd's inner-product form (as the CRT does,
// Crt.cpp): with columns of Dc = D - 1 = 51 bits and temp_j < 2^51, a temp
// plus a column digit stays below 2^52, and for each column c
//   sum_j temp_j T_j[c] = sum_{j even} (temp_j + T_j+1[c]) (temp_j+1 + T_j[c])
//                         - A - B_c
// with A = sum_{j even} temp_j temp_j+1 per coefficient (once for all
// columns) and B_c = sum_{j even} T_j[c] T_j+1[c] per column (IcrtWinograd
// table); an odd m's last prime is a plain term. One IFMA product pair per
// two primes instead of two. The accumulators' words are then signed (their
// column sums are not), and a product's high half, in units of 2^52, counts
// twice in the next column of 2^51.
//
// On a GPU (one coefficient per thread) nothing is kept per thread in
// memory: a column group after the first reloads the input rows (coalesced
// across the warp, from L1/L2) and recomputes temp_j, and the 32-bit
// digits become the result's 64-bit limbs as they are produced, from a
// window of the last three, so neither the (m) temps nor the (Dq) digits
// live in local memory. The input is then read after limbs of the result
// were stored: the two never share memory (a kernel's result has a buffer
// of its own in the workspace plan, a fused intermediate its own scratch).
#include "conversion/FHEToLoops/Icrt.h"

#include "fhec/runtime/Tables.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace fhec {

namespace {

class DigitMatrix {
public:
  DigitMatrix(IcrtContext &ctx, const CoeffRef &in, const CoeffRef &out, int64_t B, unsigned D, int64_t shiftBits,
              bool exactAlways);
  /// Every block of W V coefficients, then (unless streamed) the digits to limbs.
  void run();

private:
  Value columnDigit(Value c, Value j) { return winograd ? kb.load(wino, {c, j}) : kb.load(T, {c, j}); }
  Value negPDigit(Value c) { return winograd ? kb.load(wino, {c, kb.cidx(m + 2)}) : kb.load(negP, {kb.cidx(0), c}); }
  Value fconst(double v) { return f64Splat(kb, v, W); }
  Value tempAt(Value j, int64_t v);
  void gatherRow(Value j, ValueRange f, SmallVectorImpl<Value> &t, SmallVectorImpl<Value> &fNext);
  void prefetchRow(Value j);
  SmallVector<Value> initialSums(ArrayRef<Value> col, bool first);
  SmallVector<Value> rowTemps(Value j, ValueRange a, SmallVectorImpl<Value> &next, int64_t n, bool first);
  SmallVector<Value> plainTerms(Value j, ValueRange a, ArrayRef<Value> col, bool first);
  SmallVector<Value> accumulate(ArrayRef<Value> col, ArrayRef<Value> init, bool first);
  void takeK(SmallVectorImpl<Value> &acc, int64_t n);
  void emitDigit(SmallVectorImpl<Value> &st, Value colIdx, int64_t c, int64_t v, Value d, bool first);
  SmallVector<Value> columns(Value c0, int64_t n, ValueRange state, bool first);
  void columnsFrom(int64_t from, bool first);
  void block(Value i0);

  IcrtContext &ctx;
  KernelBuilder &kb;
  OpBuilder &b;
  const CoeffRef &in, &out;
  int64_t B, m, Lq;
  unsigned D;
  int64_t shiftBits;
  bool exactAlways;
  bool winograd;
  unsigned Dc;  ///< bits per column
  int64_t Dq, cLo, W;
  Value T, negP, wino;  ///< column c's digit of P/p_j, of -P, and (Winograd) the words of B_c
  int64_t pairs;
  bool gpu, streamLimbs;
  Value tempBuf, digits;
  /// Streamed limbs: limb w is digits s0 + 2w .. s0 + 2w + 2 (the last one
  /// only with limbOff > 0), shifted right by limbOff; it is stored once its
  /// last digit, column s0 + 2w + last, is known.
  int64_t s0, limbOff, last;
  Value corr;  ///< Winograd: A of each coefficient (low and high words)
  Type f64W, i64W;
  Value mask, shift;
  /// V vectors of W coefficients per pass, C columns per group.
  int64_t V, C;
  Value zero;
  // The block's state.
  SmallVector<Value> at;     ///< first coefficient of each vector
  SmallVector<Value> guard;  ///< digit cLo + 1 of each vector, from the first pass
  SmallVector<Value> kv;     ///< k of each vector, set by the first column group
};

DigitMatrix::DigitMatrix(IcrtContext &ctx, const CoeffRef &in, const CoeffRef &out, int64_t B, unsigned D,
                         int64_t shiftBits, bool exactAlways)
    : ctx(ctx), kb(ctx.kb), b(ctx.kb.b), in(in), out(out), B(B), m(ctx.m), Lq(ctx.Lq), D(D), shiftBits(shiftBits),
      exactAlways(exactAlways) {
  winograd = kb.options.target->ifma && ctx.basis.getPrimeBits() <= 50 && m <= 512;
  Dc = winograd ? D - 1 : D;
  Dq = (shiftBits + Lq * 64 + Dc - 1) / Dc;
  cLo = shiftBits ? std::max<int64_t>(0, shiftBits / Dc - 2) : 0;
  W = kb.lanesFor(B, {in, out});
  if (winograd) {
    wino = kb.table(abi::TableKind::IcrtWinograd, ctx.basis, Dq, ctx.logN);
  } else {
    T = kb.table(abi::TableKind::IcrtColumns, ctx.basis, Dq, ctx.logN);
    negP = kb.table(abi::TableKind::IcrtNegP, ctx.basis, Dq, ctx.logN);
  }
  pairs = winograd ? m / 2 : 0;
  gpu = kb.options.target->gpu;
  streamLimbs = gpu && Dc == 32 && !winograd;
  tempBuf = gpu ? Value() : kb.scratch({m, B});
  digits = streamLimbs ? Value() : kb.scratch({Dq, B});
  s0 = shiftBits / 32;
  limbOff = shiftBits % 32;
  last = limbOff ? 2 : 1;
  corr = winograd ? kb.scratch({2, B}) : Value();
  f64W = W == 1 ? Type(b.getF64Type()) : Type(VectorType::get({W}, b.getF64Type()));
  i64W = kb.wordType(W);
  mask = kb.constW(int64_t((uint64_t(1) << Dc) - 1), W);
  shift = kb.constW(Dc, W);
  // The vectors' temp_j / p_j sums are independent floating-point chains,
  // and below 2 C V independent digit accumulators hide the IFMA latency
  // (one lo/hi pair per column would serialize on it). On a GPU, 4 columns
  // per group: the paper-size iCRT kernels then take 62-64 registers (50%
  // occupancy) against 73-74 with 8.
  V = std::max<int64_t>(1, std::min<int64_t>(B / W, 2));
  C = gpu ? 4 : std::max<int64_t>(1, 8 / V);
  zero = kb.constW(0, W);
}

void DigitMatrix::run() {
  kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W * V), {}, [&](Value i0, ValueRange) {
    block(i0);
    return SmallVector<Value>{};
  });
  // Digits to 64-bit limbs from bit `shift` on.
  if (!streamLimbs) columnsToLimbs(kb, digits, out, B, W, Dc, Dq, Lq, shiftBits);
}

// temp_j of vector v, from the input row.
Value DigitMatrix::tempAt(Value j, int64_t v) {
  auto row = [&](int col) { return kb.splat(kb.tableAt(ctx.consts, j, col), W); };
  return ctx.tempOf(kb.loadW(in, at[v], j, W), at[v], row(abi::kIcrtInv), row(abi::kIcrtInvShoup), row(abi::kPrime),
                    W);
}

// Row j of the block: temp_j (stored for the later column groups and the
// redo; a GPU recomputes it there) and its contribution to the estimates f
// of the multiples k of P. The first column group does this inside its
// multiply-accumulate loop, so that the loads of the m prime rows overlap
// IFMA work (measured on Zen 4: -1.4 ms iCRT in HE Mul against a separate
// loop).
void DigitMatrix::gatherRow(Value j, ValueRange f, SmallVectorImpl<Value> &t, SmallVectorImpl<Value> &fNext) {
  Value invp = arith::BitcastOp::create(b, kb.loc, f64W, kb.splat(kb.tableAt(ctx.consts, j, abi::kInvPrimeF64), W));
  for (int64_t v = 0; v < V; ++v) {
    t.push_back(tempAt(j, v));
    if (tempBuf) kb.storeW(t.back(), tempBuf, {j, at[v]});
    Value tf = arith::UIToFPOp::create(b, kb.loc, f64W, t.back());
    fNext.push_back(arith::AddFOp::create(b, kb.loc, f[v], arith::MulFOp::create(b, kb.loc, tf, invp)));
  }
}

// A block reads one short run from each of the m prime rows, more streams
// than the hardware prefetchers follow: row j of the block four ahead is
// fetched into L2 while the first group of columns reads row j of this one,
// spread over its multiply-accumulates (measured on Zen 4 with rows padded
// by three cache lines: -8% iCRT time against the same prefetches in a
// separate loop over the rows; fetching the next block into L1 as well, or
// farther ahead, gains nothing). Not on a GPU, where a warp's 32 threads
// read the row together.
void DigitMatrix::prefetchRow(Value j) {
  if (!in.base || !in.wordMajor || gpu) return;
  int64_t N = cast<MemRefType>(in.mem.getType()).getShape()[1];
  for (int64_t v = 0; v < V; ++v) {
    Value ahead = kb.add(kb.coeffIndex(in, at[v]), kb.cidx(4 * B));
    kb.prefetch(in.mem, {j, arith::MinUIOp::create(b, kb.loc, ahead, kb.cidx(N - 1))}, /*locality=*/2);
  }
}

// The accumulators of columns `col` (a lo/hi pair per column and vector):
// -B_c and, where known, -A (Winograd), the rounding bit; the first group
// also carries f and A's words.
SmallVector<Value> DigitMatrix::initialSums(ArrayRef<Value> col, bool first) {
  int64_t n = int64_t(col.size());
  SmallVector<Value> init(2 * n * V, zero);
  if (winograd) {
    // -B_c, and -A where it is known (the first group accumulates it).
    for (int64_t c = 0; c < n; ++c) {
      Value bLo = kb.splat(kb.load(wino, {col[c], kb.cidx(m)}), W);
      Value bHi = kb.splat(kb.load(wino, {col[c], kb.cidx(m + 1)}), W);
      for (int64_t v = 0; v < V; ++v) {
        int64_t x = 2 * (c * V + v);
        init[x] = kb.sub(zero, bLo);
        init[x + 1] = kb.sub(zero, bHi);
        if (first) continue;
        init[x] = kb.sub(init[x], kb.loadW(corr, {kb.cidx(0), at[v]}, W));
        init[x + 1] = kb.sub(init[x + 1], kb.loadW(corr, {kb.cidx(1), at[v]}, W));
      }
    }
  }
  if (ctx.op.getRound()) {
    // round: 2^(shift - 1) joins the column holding that bit (at or above
    // cLo + 1, so the guard digits' argument is unchanged).
    int64_t bit = shiftBits - 1;
    Value one = kb.c64(int64_t(1) << (bit % Dc));
    for (int64_t c = 0; c < n; ++c) {
      Value here = arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::eq, col[c], kb.cidx(bit / Dc));
      Value r = kb.splat(arith::SelectOp::create(b, kb.loc, here, one, kb.c64(0)), W);
      for (int64_t v = 0; v < V; ++v) init[2 * (c * V + v)] = kb.add(init[2 * (c * V + v)], r);
    }
  }
  int64_t extra = first ? V * (winograd ? 3 : 1) : 0;  // f, and A's words
  for (int64_t e = 0; e < extra; ++e) init.push_back(e < V ? fconst(0.0) : zero);
  return init;
}

// temp_j of each vector: gathered (first group), from tempBuf, or (GPU)
// recomputed from the input row.
SmallVector<Value> DigitMatrix::rowTemps(Value j, ValueRange a, SmallVectorImpl<Value> &next, int64_t n, bool first) {
  SmallVector<Value> t;
  if (first) {
    prefetchRow(j);
    SmallVector<Value> fNext;
    gatherRow(j, a.slice(2 * n * V, V), t, fNext);
    for (int64_t v = 0; v < V; ++v) next[2 * n * V + v] = fNext[v];
  } else if (tempBuf) {
    for (int64_t v = 0; v < V; ++v) t.push_back(kb.loadW(tempBuf, {j, at[v]}, W));
  } else {
    for (int64_t v = 0; v < V; ++v) t.push_back(tempAt(j, v));
  }
  return t;
}

// Plain terms temp_j T_j[c] of prime j.
SmallVector<Value> DigitMatrix::plainTerms(Value j, ValueRange a, ArrayRef<Value> col, bool first) {
  int64_t n = int64_t(col.size());
  SmallVector<Value> next(a);
  SmallVector<Value> t = rowTemps(j, a, next, n, first);
  for (int64_t c = 0; c < n; ++c) {
    Value s = kb.splat(columnDigit(col[c], j), W);
    for (int64_t v = 0; v < V; ++v) {
      int64_t x = 2 * (c * V + v);
      std::tie(next[x], next[x + 1]) = kb.macSplit(a[x], a[x + 1], t[v], s, D);
    }
  }
  return next;
}

// The columns' sums over the m primes: Winograd's pairs (and A in the first
// group), or one plain term per prime.
SmallVector<Value> DigitMatrix::accumulate(ArrayRef<Value> col, ArrayRef<Value> init, bool first) {
  int64_t n = int64_t(col.size());
  if (!winograd) return kb.loop(0, m, init, [&](Value j, ValueRange a) { return plainTerms(j, a, col, first); });
  SmallVector<Value> acc = kb.loop(0, pairs, init, [&](Value jj, ValueRange a) {
    Value j0 = kb.mul(jj, kb.cidx(2)), j1 = kb.add(j0, kb.cidx(1));
    SmallVector<Value> next(a);
    SmallVector<Value> t0 = rowTemps(j0, a, next, n, first);
    SmallVector<Value> t1 = rowTemps(j1, ValueRange(next), next, n, first);
    if (first)
      for (int64_t v = 0; v < V; ++v) {
        int64_t x = 2 * n * V + V + 2 * v;
        std::tie(next[x], next[x + 1]) = kb.macSplit(a[x], a[x + 1], t0[v], t1[v], D);
      }
    for (int64_t c = 0; c < n; ++c) {
      Value s0 = kb.splat(columnDigit(col[c], j0), W), s1 = kb.splat(columnDigit(col[c], j1), W);
      for (int64_t v = 0; v < V; ++v) {
        int64_t x = 2 * (c * V + v);
        std::tie(next[x], next[x + 1]) = kb.macSplit(a[x], a[x + 1], kb.add(t0[v], s1), kb.add(t1[v], s0), D);
      }
    }
    return next;
  });
  if (m % 2) acc = plainTerms(kb.cidx(m - 1), acc, col, first);
  return acc;
}

// The first group's k = round(f) of each vector, and (Winograd) A stored
// for the later groups and subtracted from this one's columns.
void DigitMatrix::takeK(SmallVectorImpl<Value> &acc, int64_t n) {
  kv.clear();
  for (Value f : ValueRange(acc).slice(2 * n * V, V))
    kv.push_back(arith::FPToUIOp::create(b, kb.loc, i64W, arith::AddFOp::create(b, kb.loc, f, fconst(0.5))));
  if (!winograd) return;
  for (int64_t v = 0; v < V; ++v) {
    Value aLo = acc[2 * n * V + V + 2 * v], aHi = acc[2 * n * V + V + 2 * v + 1];
    kb.storeW(aLo, corr, {kb.cidx(0), at[v]});
    kb.storeW(aHi, corr, {kb.cidx(1), at[v]});
    for (int64_t c = 0; c < n; ++c) {
      int64_t x = 2 * (c * V + v);
      acc[x] = kb.sub(acc[x], aLo);
      acc[x + 1] = kb.sub(acc[x + 1], aHi);
    }
  }
}

// Streamed limbs: digit d of column colIdx completes limb w when colIdx =
// s0 + 2w + last; the window (in `st`) holds the two digits before it.
void DigitMatrix::emitDigit(SmallVectorImpl<Value> &st, Value colIdx, int64_t c, int64_t v, Value d, bool first) {
  Value &p2 = st[2 * V + 2 * v], &p1 = st[2 * V + 2 * v + 1];
  int64_t firstCol = s0 + last, lastCol = firstCol + 2 * (Lq - 1);
  Value inRange = arith::AndIOp::create(
      b, kb.loc, arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::sge, colIdx, kb.cidx(firstCol)),
      arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::sle, colIdx, kb.cidx(lastCol)));
  Value parity = arith::AndIOp::create(b, kb.loc, colIdx, kb.cidx(1));
  Value due = arith::AndIOp::create(
      b, kb.loc, inRange, arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::eq, parity, kb.cidx(firstCol & 1)));
  Value w2 = p2, w1 = p1;
  kb.ifThen(due, [&] {
    Value limb = limbOff ? kb.bitOr(kb.bitOr(kb.shr(w2, kb.constW(limbOff, W)), kb.shl(w1, kb.constW(32 - limbOff, W))),
                                    kb.shl(d, kb.constW(64 - limbOff, W)))
                         : kb.bitOr(w1, kb.shl(d, kb.constW(32, W)));
    Value w = arith::ShRUIOp::create(b, kb.loc, kb.sub(colIdx, kb.cidx(firstCol)), kb.cidx(1));
    kb.storeW(limb, out, at[v], w);
  });
  if (first && c == 1) guard.push_back(d);
  p2 = p1;
  p1 = d;
}

// Columns c0 .. c0 + n - 1; state: each vector's carry and previous
// column's high halves (and the streamed limbs' window). `first`: the
// block's first group, which reads the rows, sets kv and prefetches the
// block four ahead.
SmallVector<Value> DigitMatrix::columns(Value c0, int64_t n, ValueRange state, bool first) {
  SmallVector<Value> col;
  for (int64_t c = 0; c < n; ++c) col.push_back(kb.add(c0, kb.cidx(c)));
  SmallVector<Value> acc = accumulate(col, initialSums(col, first), first);
  if (first) takeK(acc, n);
  SmallVector<Value> st(state);
  for (int64_t c = 0; c < n; ++c) {
    Value s = kb.splat(negPDigit(col[c]), W);
    for (int64_t v = 0; v < V; ++v) {
      int64_t x = 2 * (c * V + v);
      auto [lo, hi] = kb.macSplit(acc[x], acc[x + 1], kv[v], s, D);
      // This column's low halves, the last one's high halves (twice over in
      // Winograd's columns of 2^51), the carry (signed there).
      Value prevHi = winograd ? kb.add(st[2 * v + 1], st[2 * v + 1]) : st[2 * v + 1];
      Value sum = kb.add(kb.add(lo, prevHi), st[2 * v]);
      if (streamLimbs)
        emitDigit(st, col[c], c, v, kb.bitAnd(sum, mask), first);
      else
        kb.storeW(kb.bitAnd(sum, mask), digits, {col[c], at[v]});
      st[2 * v] = winograd ? Value(arith::ShRSIOp::create(b, kb.loc, sum, shift))
                           : Value(arith::ShRUIOp::create(b, kb.loc, sum, shift));
      st[2 * v + 1] = hi;
    }
  }
  return st;
}

// Columns from..Dq-1, C at a time, from a zero carry state; `first`: the
// block's first pass (its first group reads the rows).
void DigitMatrix::columnsFrom(int64_t from, bool first) {
  int64_t n0 = std::min(C, Dq - from), full = from + n0 + (Dq - from - n0) / C * C;
  assert((!first || cLo == 0 || n0 >= 2) && "the guard digit cLo + 1 is in the first group");
  SmallVector<Value> st = columns(kb.cidx(from), n0, SmallVector<Value>((streamLimbs ? 4 : 2) * V, zero), first);
  if (full > from + n0)
    st = kb.loop(kb.cidx(from + n0), kb.cidx(full), kb.cidx(C), st,
                 [&](Value c0, ValueRange s) { return columns(c0, C, s, false); });
  if (Dq > full) columns(kb.cidx(full), Dq - full, st, false);
}

void DigitMatrix::block(Value i0) {
  at.clear();
  guard.clear();
  for (int64_t v = 0; v < V; ++v) at.push_back(kb.add(i0, kb.cidx(v * W)));
  columnsFrom(cLo, /*first=*/true);
  if (cLo == 0) return;
  // The guard digit d1 = digit cLo + 1 of any lane at or above 2^Dc - (m + 1): redo all columns.
  Value redo = arith::ConstantIntOp::create(b, kb.loc, b.getI1Type(), exactAlways ? 1 : 0);
  Value limit = kb.constW(int64_t((uint64_t(1) << Dc) - uint64_t(m + 1)), W);
  for (int64_t v = 0; v < V; ++v) {
    Value d1 = streamLimbs ? guard[v] : kb.loadW(digits, {kb.cidx(cLo + 1), at[v]}, W);
    Value hit = arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::uge, d1, limit);
    if (W > 1) hit = vector::ReductionOp::create(b, kb.loc, vector::CombiningKind::OR, hit);
    redo = arith::OrIOp::create(b, kb.loc, redo, hit);
  }
  kb.ifThen(redo, [&] { columnsFrom(0, /*first=*/false); });
}

} // namespace

void IcrtContext::digitMatrix(const CoeffRef &in, const CoeffRef &out, int64_t B, unsigned D, int64_t shiftBits,
                              bool exactAlways) {
  DigitMatrix(*this, in, out, B, D, shiftBits, exactAlways).run();
}

} // namespace fhec
