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
#include "conversion/FHEToLoops/Crt.h"

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


} // namespace

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
CrtDigitForm::CrtDigitForm(KernelBuilder &kb, fhe::CrtOp op, const CoeffRef &in, const CoeffRef &out, int64_t B,
                           unsigned D, bool gpu)
    : kb(kb), op(op), in(in), out(out), B(B), D(D) {
  auto outT = op.getResult().getType();
  basis = outT.getBasis();
  L = op.getInput().getType().getLimbs();
  m = int64_t(basis.size());
  pb = basis.getPrimeBits();
  wordBits = kb.options.target->wordBits;
  matrix = op.getOrder() == fhe::Order::matrix;
  std::tie(from, bits) = op.getWindowBits();
  // (At most 1024 digits: the signed accumulators' bounds below.)
  winograd = matrix && kb.options.target->ifma && pb <= 50 && bits <= 51 * 1023;
  Dd = winograd ? D - 1 : D;
  real = (bits + Dd - 1) / Dd;  // the input's digits
  // (Without a window the bits above logq are zero: full-width digits.)
  top = op.getWindow() ? bits : int64_t(Dd) * real;
  nd = winograd ? real + real % 2 : real;  // pairs of digits (a zero one on top)
  W = kb.lanesFor(B, {in, out});
  consts = kb.table(abi::TableKind::PrimeConsts, basis, 0, outT.getLogN());
  // Digits of the module's Shoup base, or the GPU tile's 28-bit digits.
  abi::TableKind powers = winograd                              ? abi::TableKind::CrtWinograd
                          : D == kb.options.target->shoupBits ? abi::TableKind::CrtPowers
                                                                : abi::TableKind::CrtPowers28;
  assert((powers != abi::TableKind::CrtPowers28 || (gpu && D == unsigned(abi::kGpuCrtDigitBits))) &&
         "digits of the Shoup base, or the GPU CRT's");
  pow = kb.table(powers, basis, nd, outT.getLogN());
  center = op.getCentered()
               ? kb.table(abi::TableKind::CrtCenter, basis, op.getInput().getType().getLogq(), outT.getLogN())
               : Value();
  digits = gpu ? Value() : kb.scratch({nd, B});
  corr = winograd ? kb.scratch({2, B}) : Value();
  zero = kb.constW(0, W);
  if (!gpu) stageDigits();
  mask = kb.constW(int64_t((uint64_t(1) << D) - 1), W);
  shift = kb.constW(D, W);
  // With primes of at least D - 2 bits (the IFMA basis) and words of at
  // least D + 2 bits, the low digit l < 2^D < 8p goes into the sum
  // unreduced, one Shoup product fewer per residue; otherwise (narrower
  // primes, or the cuda target's 32-bit words for 32-bit digits) a Shoup
  // product reduces it.
  lazySum = pb + 2 >= D && D + 2 <= wordBits;
  // The dot product is below nd 2^(Dd + pb), so its high part h (from bit D
  // on) is below nd 2^(Dd + pb - D) and h1 = h >> D is at most h1Max (2 for
  // 24 Winograd digits of 51 bits and 50-bit primes, 5 for 24 digits of 52
  // bits; 0, no term at all, for few digits). Its product with beta^2 mod p
  // is then a plain word multiply, not a Shoup product (3 IFMA), and adds
  // h1Max p to the lazy sum's bound.
  int64_t h1Shift = 2 * int64_t(D) - Dd - pb;
  h1Max = h1Shift >= 0 && h1Shift < 62 ? (nd + (int64_t(1) << h1Shift) - 1) / (int64_t(1) << h1Shift) - 1 : -1;
  // (A centered CRT's term adds below p more. l < 2^D is below 2^(D - pb + 1)
  // p, or below p for digits narrower than the primes: the GPU tile's.)
  int64_t sumRange = int64_t(llvm::PowerOf2Ceil(
      uint64_t((int64_t(1) << std::max<int64_t>(0, int64_t(D) - pb + 1)) + 2 + h1Max + (center ? 1 : 0))));
  wordH1 = lazySum && h1Max >= 0 && sumRange <= 16;
}

// The block's digits into `digits`, and (Winograd) A of each coefficient.
void CrtDigitForm::stageDigits() {
  kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i, ValueRange) {
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
}

Value CrtDigitForm::finish(Value lo, Value hi, Value cs, Value j, Value cTerm) {
  auto c = [&](int col) { return kb.splat(kb.tableAt(cs, j, col), W); };
  Value p = c(abi::kPrime);
  Value h = kb.add(hi, winograd ? Value(arith::ShRSIOp::create(kb.b, kb.loc, lo, shift))
                                : Value(arith::ShRUIOp::create(kb.b, kb.loc, lo, shift)));
  bool noH1 = wordH1 && h1Max == 0;
  Value l = kb.bitAnd(lo, mask), h0 = noH1 ? h : kb.bitAnd(h, mask);
  Value r1 = kb.mulShoup(h0, c(abi::kBetaMod), c(abi::kBetaModShoup), p, lazySum ? 2 : 1), r2;
  if (!noH1) {
    Value h1 = arith::ShRUIOp::create(kb.b, kb.loc, h, shift);
    r2 = wordH1 ? kb.mul(h1, c(abi::kBeta2Mod))
                : kb.mulShoup(h1, c(abi::kBeta2Mod), c(abi::kBeta2ModShoup), p, lazySum ? 2 : 1);
  }
  if (lazySum) {
    // l < 2^D <= 2^(D - pb + 1) p (8p), r1 in [0, 2p), r2 below h1Max p (or
    // 2p) and a centered term below p: the sum, below 16p, goes to [0, p) by
    // conditional subtractions of 8p, 4p, 2p and p, or to [0, 4p) by the
    // first two for a lazy CRT (an NTT's input).
    Value p2 = kb.add(p, p), sum = r2 ? kb.add(kb.add(l, r1), r2) : kb.add(l, r1);
    if (cTerm) sum = kb.add(sum, cTerm);
    return op.getLazy() ? kb.reduce(sum, p2, 8, 2) : kb.reduce(kb.reduce(sum, p2, 8, 1), p, 2, 1);
  }
  Value one = kb.constW(1, W);
  Value r0 = kb.mulShoup(l, one, c(abi::kOneShoup), p);
  Value r;
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
  return r;
}

// Primes j0 .. j0 + n - 1 of V vectors of W coefficients from i0: each
// residue's dot product over the digits, then `finish`.
void CrtDigitForm::residues(Value j0, int64_t n, Value i0, int64_t V) {
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
}

// Matrix order: P primes times V vectors of W coefficients per pass, 2 P V
// independent accumulators hiding the multiply-accumulate latency (8 pairs;
// 6 in Winograd's form, whose sums of digits and powers need registers too:
// measured on Zen 4, HE Mul CRT -2 ms against 8, and no spills). Algo. 1's
// order: one prime of one vector at a time.
void CrtDigitForm::emitBlock() {
  int64_t V = matrix ? std::max<int64_t>(1, std::min<int64_t>(B / W, 2)) : 1;
  int64_t P = matrix ? std::max<int64_t>(1, (winograd ? 6 : 8) / V) : 1;
  // All primes for each pass of V vectors.
  int64_t full = m / P * P;
  kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W * V), {}, [&](Value i0, ValueRange) {
    if (full)
      kb.loop(kb.cidx(0), kb.cidx(full), kb.cidx(P), {}, [&](Value j0, ValueRange) {
        residues(j0, P, i0, V);
        return SmallVector<Value>{};
      });
    if (m > full) residues(kb.cidx(full), m - full, i0, V);
    return SmallVector<Value>{};
  });
}

void emitCrtBlock(KernelBuilder &kb, fhe::CrtOp op, const CoeffRef &in, const CoeffRef &out, int64_t B) {
  unsigned D = kb.options.target->shoupBits;
  if (D < 64) return CrtDigitForm(kb, op, in, out, B, D, /*gpu=*/false).emitBlock();
  auto outT = op.getResult().getType();
  auto basis = outT.getBasis();
  const auto window = op.getWindowBits();
  const auto from = window.first, bits = window.second;
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

void populateCrtPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  patterns.add<CoefficientOpLowering<fhe::CrtOp>>(tc, patterns.getContext(), o);
}

} // namespace fhec
