// CRT (Jung et al. 2021, Algo. 1): BigInt coefficients to residues, the matrix
// product (N, digits) x (digits, m) with the beta^k mod p_j table. With 64-bit
// words (beta = 2^64) each residue accumulates its limbs' products in three
// words and reduces them with Shoup. With IFMA (beta = 2^52) the coefficients
// are cut into 52-bit digits and each residue accumulates the low and high
// halves of its digit products lazily (modarith.mac_split), W coefficients
// per vector, then reduces the 104+-bit sum with three Shoup products.
#include "conversion/FHEToLoops/Patterns.h"

using namespace mlir;

namespace fhec {

namespace {

// Digit (base 2^D, D < 64) k of coefficient i of an (N, L) BigInt: bits
// [D k, D k + D), from limb w = D k / 64 and, across a limb boundary, w + 1.
Value digitOf(KernelBuilder &kb, const CoeffRef &in, Value i, Value k, int64_t L, unsigned D) {
  OpBuilder &b = kb.b;
  Value bit = kb.mul(k, kb.cidx(D));
  Value w = kb.shr(bit, kb.cidx(6)), off = arith::AndIOp::create(b, kb.loc, bit, kb.cidx(63));
  Value off64 = arith::IndexCastOp::create(b, kb.loc, b.getI64Type(), off);
  Value lo = arith::ShRUIOp::create(b, kb.loc, kb.load(in, i, w), off64);
  Value next = kb.add(w, kb.cidx(1));
  Value hasNext = arith::AndIOp::create(
      b, kb.loc, arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::ult, next, kb.cidx(L)),
      arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::ne, off, kb.cidx(0)));
  Value clamped = arith::MinUIOp::create(b, kb.loc, next, kb.cidx(L - 1));
  Value hi = arith::ShLIOp::create(b, kb.loc, kb.load(in, i, clamped), kb.sub(kb.c64(64), off64));
  hi = arith::SelectOp::create(b, kb.loc, hasNext, hi, kb.c64(0));
  return kb.bitAnd(kb.bitOr(lo, hi), kb.c64(int64_t((uint64_t(1) << D) - 1)));
}

// The digit form (D < 64): digits of the block's coefficients in a (digits,
// B) scratch, then per prime and group of W coefficients a lazy dot product.
void digitCrt(KernelBuilder &kb, fhe::CrtOp op, const CoeffRef &in, const CoeffRef &out, int64_t B, unsigned D) {
  auto outT = op.getResult().getType();
  auto basis = outT.getBasis();
  int64_t L = op.getInput().getType().getLimbs(), m = int64_t(basis.size());
  int64_t nd = (int64_t(op.getInput().getType().getLogq()) + D - 1) / D;
  int64_t lanes = kb.options.target->lanes;
  int64_t W = out.primeMajor && B % lanes == 0 ? lanes : 1;
  Value consts = kb.table(abi::TableKind::PrimeConsts, basis, 0, outT.getLogN());
  Value pow = kb.table(abi::TableKind::CrtPowers, basis, nd, outT.getLogN());
  Value digits = kb.scratch({nd, B});
  kb.loop(B, [&](Value i) { kb.loop(nd, [&](Value k) { kb.store(digitOf(kb, in, i, k, L, D), digits, {k, i}); }); });
  Value mask = kb.constW(int64_t((uint64_t(1) << D) - 1), W), shift = kb.constW(D, W);
  auto residues = [&](Value j, Value i0) {
    Value zero = kb.constW(0, W);
    auto acc = kb.loop(0, nd, {zero, zero}, [&](Value k, ValueRange a) {
      auto [lo, hi] = kb.macSplit(a[0], a[1], kb.loadW(digits, {k, i0}, W), kb.splat(kb.load(pow, {j, k}), W), D);
      return SmallVector<Value>{lo, hi};
    });
    // lo + hi 2^D = l + h0 2^D + h1 2^(2D), each part below 2^D, reduced with Shoup.
    Value h = kb.add(acc[1], arith::ShRUIOp::create(kb.b, kb.loc, acc[0], shift));
    Value l = kb.bitAnd(acc[0], mask), h0 = kb.bitAnd(h, mask);
    Value h1 = arith::ShRUIOp::create(kb.b, kb.loc, h, shift);
    auto c = [&](int col) { return kb.splat(kb.tableAt(consts, j, col), W); };
    Value p = c(abi::kPrime);
    Value r0 = kb.mulShoup(l, kb.constW(1, W), c(abi::kOneShoup), p);
    Value r1 = kb.mulShoup(h0, c(abi::kBetaMod), c(abi::kBetaModShoup), p);
    Value r2 = kb.mulShoup(h1, c(abi::kBeta2Mod), c(abi::kBeta2ModShoup), p);
    Value r = kb.modAdd(kb.modAdd(r0, r1, p), r2, p);
    if (W > 1)
      kb.storeW(r, out.mem, {j, kb.coeffIndex(out, i0)});
    else
      kb.store(r, out, i0, j);
  };
  if (op.getOrder() == fhe::Order::matrix)
    kb.loop(m, [&](Value j) { kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i0, ValueRange) {
      residues(j, i0);
      return SmallVector<Value>{};
    }); });
  else
    kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i0, ValueRange) {
      kb.loop(m, [&](Value j) { residues(j, i0); });
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
