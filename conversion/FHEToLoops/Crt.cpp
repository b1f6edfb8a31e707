// CRT (Jung et al. 2021, Algo. 1): BigInt coefficients to residues, the matrix
// product (N, digits) x (digits, m) with the beta^k mod p_j table. With 64-bit
// words (beta = 2^64) each residue accumulates its limbs' products in three
// words and reduces them with Shoup. With IFMA (beta = 2^52) the coefficients
// are cut into 52-bit digits and each residue accumulates the low and high
// halves of its digit products lazily (modarith.mac_split), W coefficients
// per vector, then reduces the 104+-bit sum with Shoup products.
#include "conversion/FHEToLoops/Patterns.h"

using namespace mlir;

namespace fhec {

namespace {

// Digit k (base 2^D, D < 64) of W coefficients i .. i + W - 1 of an L-limb
// BigInt: bits [D k, D k + D), from limb w = D k / 64 and, across a limb
// boundary, w + 1 (static shifts).
Value digitOf(KernelBuilder &kb, const CoeffRef &in, Value i, int64_t k, int64_t L, unsigned D, int64_t W) {
  int64_t bit = int64_t(D) * k, w = bit / 64, off = bit % 64;
  Value v = kb.loadW(in, i, kb.cidx(w), W);
  if (off) v = kb.shr(v, kb.constW(off, W));
  if (off + int64_t(D) > 64 && w + 1 < L) v = kb.bitOr(v, kb.shl(kb.loadW(in, i, kb.cidx(w + 1), W), kb.constW(64 - off, W)));
  return kb.bitAnd(v, kb.constW(int64_t((uint64_t(1) << D) - 1), W));
}

// The digit form (D < 64): digits of the block's coefficients in a (digits,
// B) scratch, then per prime and group of W coefficients a lazy dot product.
void digitCrt(KernelBuilder &kb, fhe::CrtOp op, const CoeffRef &in, const CoeffRef &out, int64_t B, unsigned D) {
  auto outT = op.getResult().getType();
  auto basis = outT.getBasis();
  int64_t L = op.getInput().getType().getLimbs(), m = int64_t(basis.size());
  int64_t nd = (int64_t(op.getInput().getType().getLogq()) + D - 1) / D;
  int64_t W = kb.lanesFor(B, {in, out});
  Value consts = kb.table(abi::TableKind::PrimeConsts, basis, 0, outT.getLogN());
  Value pow = kb.table(abi::TableKind::CrtPowers, basis, nd, outT.getLogN());
  Value digits = kb.scratch({nd, B});
  kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i, ValueRange) {
    for (int64_t k = 0; k < nd; ++k) kb.storeW(digitOf(kb, in, i, k, L, D, W), digits, {kb.cidx(k), i});
    return SmallVector<Value>{};
  });
  Value mask = kb.constW(int64_t((uint64_t(1) << D) - 1), W), shift = kb.constW(D, W);
  // With primes of at least D - 2 bits (the IFMA basis) and words of at
  // least D + 2 bits, the low digit l < 2^D < 8p goes into the sum
  // unreduced, one Shoup product fewer per residue; otherwise (narrower
  // primes, or the cuda target's 32-bit words for 32-bit digits) a Shoup
  // product reduces it.
  int64_t pb = basis.getPrimeBits(), wordBits = kb.options.target->wordBits();
  bool lazySum = pb + 2 >= D && D + 2 <= wordBits;
  // The sum's high part h below (the high halves of nd digit products, each
  // below p, and the nd - 1 carries of the low ones) is below nd p, so its top
  // part h1 = h >> D is at most h1Max (5 for 24 digits of 52 bits and 50-bit
  // primes; 0, no term at all, for at most 4). Its product with beta^2 mod p
  // is then a plain word multiply, not a Shoup product (3 IFMA), and adds
  // h1Max p to the lazy sum's bound.
  int64_t h1Max = pb <= int64_t(D) ? (nd + (int64_t(1) << (D - pb)) - 1) / (int64_t(1) << (D - pb)) - 1 : -1;
  int64_t sumRange = int64_t(llvm::PowerOf2Ceil(uint64_t((int64_t(1) << (D - pb + 1)) + 2 + h1Max)));
  bool wordH1 = lazySum && h1Max >= 0 && sumRange <= 16;
  // Matrix order: P primes times V vectors of W coefficients per pass, 2 P V
  // independent accumulators hiding the multiply-accumulate latency. Algo. 1's
  // order: one prime of one vector at a time.
  bool matrix = op.getOrder() == fhe::Order::matrix;
  int64_t V = matrix ? std::max<int64_t>(1, std::min<int64_t>(B / W, 2)) : 1;
  int64_t P = matrix ? std::max<int64_t>(1, 8 / V) : 1;
  auto residues = [&](Value j0, int64_t n, Value i0) {
    SmallVector<Value> at, row;
    for (int64_t v = 0; v < V; ++v) at.push_back(kb.add(i0, kb.cidx(v * W)));
    for (int64_t q = 0; q < n; ++q) row.push_back(kb.add(j0, kb.cidx(q)));
    Value zero = kb.constW(0, W);
    auto acc = kb.loop(0, nd, SmallVector<Value>(2 * n * V, zero), [&](Value k, ValueRange a) {
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
    for (int64_t q = 0; q < n; ++q) {
      auto c = [&](int col) { return kb.splat(kb.tableAt(consts, row[q], col), W); };
      Value p = c(abi::kPrime);
      for (int64_t v = 0; v < V; ++v) {
        Value lo = acc[2 * (q * V + v)], hi = acc[2 * (q * V + v) + 1];
        // lo + hi 2^D = l + h0 2^D + h1 2^(2D), each part below 2^D, h0
        // reduced with Shoup, h1 (small) with Shoup or a word multiply.
        Value h = kb.add(hi, arith::ShRUIOp::create(kb.b, kb.loc, lo, shift));
        bool noH1 = wordH1 && h1Max == 0;
        Value l = kb.bitAnd(lo, mask), h0 = noH1 ? h : kb.bitAnd(h, mask);
        Value r1 = kb.mulShoup(h0, c(abi::kBetaMod), c(abi::kBetaModShoup), p, lazySum ? 2 : 1), r2;
        if (!noH1) {
          Value h1 = arith::ShRUIOp::create(kb.b, kb.loc, h, shift);
          r2 = wordH1 ? kb.mul(h1, c(abi::kBeta2Mod))
                      : kb.mulShoup(h1, c(abi::kBeta2Mod), c(abi::kBeta2ModShoup), p, lazySum ? 2 : 1);
        }
        Value r;
        if (lazySum) {
          // l < 2^D <= 2^(D - pb + 1) p (8p), r1 in [0, 2p) and r2 below
          // h1Max p (or 2p): the sum, below 16p, goes to [0, p) by
          // conditional subtractions of 8p, 4p, 2p and p, or to [0, 4p) by
          // the first two for a lazy CRT (an NTT's input).
          Value p2 = kb.add(p, p), sum = r2 ? kb.add(kb.add(l, r1), r2) : kb.add(l, r1);
          r = op.getLazy() ? kb.reduce(sum, p2, 8, 2) : kb.reduce(kb.reduce(sum, p2, 8, 1), p, 2, 1);
        } else {
          Value r0 = kb.mulShoup(l, kb.constW(1, W), c(abi::kOneShoup), p);
          r = kb.modAdd(kb.modAdd(r0, r1, p), r2, p);
        }
        kb.storeW(r, out, at[v], row[q]);
      }
    }
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
  int64_t L = op.getInput().getType().getLimbs(), m = int64_t(basis.size());
  Value consts = kb.table(abi::TableKind::PrimeConsts, basis, 0, outT.getLogN());
  Value pow = kb.table(abi::TableKind::CrtPowers, basis, L, outT.getLogN());
  auto residue = [&](Value j, Value i) {
    Value zero = kb.c64(0);
    // Products of a limb and beta^k mod p_j < 2^primeBits.
    auto acc = kb.dot(L, basis.getPrimeBits(), {zero, zero, zero}, [&](Value k) { return kb.load(in, i, k); },
                      [&](Value k) { return kb.load(pow, {j, k}); });
    // acc0 + acc1 beta + acc2 beta^2 mod p_j, one Shoup product per word.
    Value p = kb.tableAt(consts, j, abi::kPrime);
    Value r0 = kb.mulShoup(acc[0], kb.c64(1), kb.tableAt(consts, j, abi::kOneShoup), p);
    Value r1 = kb.mulShoup(acc[1], kb.tableAt(consts, j, abi::kBetaMod), kb.tableAt(consts, j, abi::kBetaModShoup), p);
    Value r2 = kb.mulShoup(acc[2], kb.tableAt(consts, j, abi::kBeta2Mod), kb.tableAt(consts, j, abi::kBeta2ModShoup), p);
    kb.store(kb.modAdd(kb.modAdd(r0, r1, p), r2, p), out, i, j);
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
