// fhe.icrt_sum (Jung et al. 2021, Algo. 5 and 6 per window): the sum over
// windows g of X_g 2^offset_g mod 2^logq, where X_g is the iCRT of window g's
// residues; the two forms below, chosen by emitIcrtSumBlock (Icrt.cpp).
#include "conversion/FHEToLoops/Icrt.h"

#include "fhec/runtime/BigPoly.h"
#include "fhec/runtime/Tables.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace fhec {

// fhe.icrt_sum on IFMA: the result's 51-bit columns, Dq of them, accumulate
// lazily in signed 64-bit lanes (a (Dq, B) scratch): the addend's digits,
// then each window's band of columns c0 = offset / 51 .. c0 + cols, where
//   column c0 + c += sum_j temp_j T_j[c] - k P[c]
// with T_j and P the 51-bit digits of (P/p_j) 2^(offset mod 51) and of
// P 2^(offset mod 51) (IcrtWindow table), in Winograd's form as the iCRT's
// (digitMatrix): -A - B_c plus one IFMA pair per two primes. A product's
// low half joins its column, its high half (units of 2^52) twice the next.
// One carry pass (arithmetic shifts) then normalizes the columns, before
// they are repacked into limbs. A column's sum stays below 2^62 in
// magnitude: a window adds less than (3m + 9) 2^52 to it (its low halves
// and twice the previous column's high halves, A, B_c and k P[c] included),
// and a carry pass runs between windows when the static bound would pass
// that.
void emitIcrtWindowDigitSum(KernelBuilder &kb, fhe::IcrtSumOp op, ArrayRef<CoeffRef> ins, const CoeffRef *addend,
                            const CoeffRef &out, int64_t B) {
  const int64_t Dc = 51;
  OpBuilder &b = kb.b;
  auto outT = op.getResult().getType();
  unsigned logN = outT.getLogN();
  int64_t Lq = outT.getLimbs(), Dq = (64 * Lq + Dc - 1) / Dc;
  SmallVector<CoeffRef> all(ins.begin(), ins.end());
  all.push_back(out);
  if (addend) all.push_back(*addend);
  int64_t W = kb.lanesFor(B, all);
  auto f64W = W == 1 ? Type(b.getF64Type()) : Type(VectorType::get({W}, b.getF64Type()));
  auto i64W = kb.wordType(W);
  auto fconst = [&](double v) { return f64Splat(kb, v, W); };
  Value zero = kb.constW(0, W), mask = kb.constW(int64_t((uint64_t(1) << Dc) - 1), W);
  Value cols = kb.scratch({Dq, B});
  int64_t maxM = 0;
  for (Value x : op.getInputs()) maxM = std::max<int64_t>(maxM, cast<fhe::RnsType>(x.getType()).getBasis().size());
  Value tempBuf = kb.scratch({maxM, B});
  // Static bounds of the columns' magnitudes, in bits.
  SmallVector<int64_t> bound(Dq, addend ? Dc : 0);
  auto normalize = [&] {
    kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i, ValueRange) {
      Value carry = zero;
      for (int64_t c = 0; c < Dq; ++c) {
        Value sum = kb.add(kb.loadW(cols, {kb.cidx(c), i}, W), carry);
        kb.storeW(kb.bitAnd(sum, mask), cols, {kb.cidx(c), i});
        carry = arith::ShRSIOp::create(b, kb.loc, sum, kb.constW(Dc, W));
      }
      return SmallVector<Value>{};
    });
    for (int64_t &x : bound) x = Dc;
  };
  // The addend's 51-bit digits, or zeros.
  kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i, ValueRange) {
    for (int64_t c = 0; c < Dq; ++c) {
      Value d = addend && Dc * c < int64_t(outT.getLogq())
                    ? bigIntDigit(kb, *addend, i, c, Lq, Dc, W, 0, int64_t(outT.getLogq()))
                    : zero;
      kb.storeW(d, cols, {kb.cidx(c), i});
    }
    return SmallVector<Value>{};
  });
  for (auto [g, x] : llvm::enumerate(op.getInputs())) {
    auto inT = cast<fhe::RnsType>(x.getType());
    fhe::BasisAttr basis = inT.getBasis();
    int64_t m = int64_t(basis.size()), offset = op.getOffsets()[g], c0 = offset / Dc;
    std::vector<uint64_t> primes(basis.getPrimes().begin(), basis.getPrimes().end());
    int64_t n = std::min<int64_t>(abi::icrtWindowColumns(offset % Dc, rt::productBits(primes)), Dq - c0);
    int64_t add = 52 + int64_t(llvm::Log2_64_Ceil(uint64_t(3 * m + 9)));
    assert(add + 1 <= 62 && "a window of at most 64 primes (emitIcrtSumBlock's choice of this form)");
    bool full = false;
    for (int64_t c = c0; c < c0 + n + 1 && c < Dq; ++c) full |= std::max(bound[c], add) + 1 > 62;
    if (full) normalize();
    for (int64_t c = c0; c < c0 + n + 1 && c < Dq; ++c) bound[c] = std::max(bound[c], add) + 1;
    IcrtContext ctx{kb, fhe::IcrtOp(), basis, inT.getDomain() == fhe::Domain::coeff_scaled, m, Lq, logN,
                    kb.table(abi::TableKind::PrimeConsts, basis, 0, logN), CoeffRef{}};
    Value table = kb.table(abi::TableKind::IcrtWindow, basis, offset % Dc, logN);
    const CoeffRef &in = ins[g];
    int64_t pairs = m / 2;
    kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i, ValueRange) {
      // temp_j (kept for the columns), f = sum_j temp_j / p_j, and A.
      auto rowConst = [&](Value j, int col) { return kb.splat(kb.tableAt(ctx.consts, j, col), W); };
      auto fs = kb.loop(0, m, {fconst(0.0)}, [&](Value j, ValueRange f) {
        // Row j of the block four ahead, into L2 (as digitMatrix's rows: the
        // m short runs per block are more streams than the prefetchers follow).
        if (in.base && in.wordMajor) {
          int64_t N = cast<MemRefType>(in.mem.getType()).getShape()[1];
          Value ahead = kb.add(kb.coeffIndex(in, i), kb.cidx(4 * B));
          kb.prefetch(in.mem, {j, arith::MinUIOp::create(b, kb.loc, ahead, kb.cidx(N - 1))}, /*locality=*/2);
        }
        Value t = ctx.tempOf(kb.loadW(in, i, j, W), i, rowConst(j, abi::kIcrtInv), rowConst(j, abi::kIcrtInvShoup),
                             rowConst(j, abi::kPrime), W);
        kb.storeW(t, tempBuf, {j, i});
        Value invp = arith::BitcastOp::create(b, kb.loc, f64W, rowConst(j, abi::kInvPrimeF64));
        Value tf = arith::UIToFPOp::create(b, kb.loc, f64W, t);
        return SmallVector<Value>{arith::AddFOp::create(b, kb.loc, f[0], arith::MulFOp::create(b, kb.loc, tf, invp))};
      });
      Value k = arith::FPToUIOp::create(b, kb.loc, i64W, arith::AddFOp::create(b, kb.loc, fs[0], fconst(0.5)));
      auto a = kb.loop(0, pairs, {zero, zero}, [&](Value jj, ValueRange acc) {
        Value j0 = kb.mul(jj, kb.cidx(2));
        auto [lo, hi] = kb.macSplit(acc[0], acc[1], kb.loadW(tempBuf, {j0, i}, W),
                                    kb.loadW(tempBuf, {kb.add(j0, kb.cidx(1)), i}, W), 52);
        return SmallVector<Value>{lo, hi};
      });
      // Columns c .. c + C - 1 of the band, C independent accumulator pairs.
      auto columns = [&](Value cFirst, int64_t C) {
        SmallVector<Value> col, acc;
        for (int64_t q = 0; q < C; ++q) {
          col.push_back(kb.add(cFirst, kb.cidx(q)));
          acc.push_back(kb.sub(kb.sub(zero, a[0]), kb.splat(kb.load(table, {col[q], kb.cidx(m)}), W)));
          acc.push_back(kb.sub(kb.sub(zero, a[1]), kb.splat(kb.load(table, {col[q], kb.cidx(m + 1)}), W)));
        }
        auto digit = [&](int64_t q, Value j) { return kb.splat(kb.load(table, {col[q], j}), W); };
        acc = kb.loop(0, pairs, acc, [&](Value jj, ValueRange st) {
          Value j0 = kb.mul(jj, kb.cidx(2)), j1 = kb.add(j0, kb.cidx(1));
          Value t0 = kb.loadW(tempBuf, {j0, i}, W), t1 = kb.loadW(tempBuf, {j1, i}, W);
          SmallVector<Value> next(st);
          for (int64_t q = 0; q < C; ++q)
            std::tie(next[2 * q], next[2 * q + 1]) =
                kb.macSplit(st[2 * q], st[2 * q + 1], kb.add(t0, digit(q, j1)), kb.add(t1, digit(q, j0)), 52);
          return next;
        });
        Value last = m % 2 ? kb.loadW(tempBuf, {kb.cidx(m - 1), i}, W) : Value();
        for (int64_t q = 0; q < C; ++q) {
          Value lo = acc[2 * q], hi = acc[2 * q + 1];
          if (last) std::tie(lo, hi) = kb.macSplit(lo, hi, last, digit(q, kb.cidx(m - 1)), 52);
          auto [klo, khi] = kb.macSplit(zero, zero, k, kb.splat(kb.load(table, {col[q], kb.cidx(m + 2)}), W), 52);
          lo = kb.sub(lo, klo);
          hi = kb.sub(hi, khi);
          Value at = kb.add(col[q], kb.cidx(c0));
          kb.storeW(kb.add(kb.loadW(cols, {at, i}, W), lo), cols, {at, i});
          Value up = kb.add(at, kb.cidx(1));
          Value inside = arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::ult, up, kb.cidx(Dq));
          kb.ifThen(inside, [&] { kb.storeW(kb.add(kb.loadW(cols, {up, i}, W), kb.add(hi, hi)), cols, {up, i}); });
        }
      };
      const int64_t C = n <= 8 ? n : 4;
      int64_t whole = n / C * C;
      if (whole)
        kb.loop(kb.cidx(0), kb.cidx(whole), kb.cidx(C), {}, [&](Value c, ValueRange) {
          columns(c, C);
          return SmallVector<Value>{};
        });
      if (n > whole) columns(kb.cidx(whole), n - whole);
      return SmallVector<Value>{};
    });
  }
  normalize();
  columnsToLimbs(kb, cols, out, B, W, Dc, Dq, Lq, 0);
}

// fhe.icrt_sum in the 64-bit form, one coefficient at a time: each window's
// X_g by Algo. 5 (operandScan) as a two's complement number of PL_g limbs
// (|X_g| < P_g / 4), then added, sign-extended and shifted by its offset,
// to the result mod 2^(64 Lq). (IcrtContext's op is null here: without an
// addend its temps never read it.)
void emitIcrtWindowLimbSum(KernelBuilder &kb, fhe::IcrtSumOp op, ArrayRef<CoeffRef> ins, const CoeffRef *addend,
                           const CoeffRef &out, int64_t B) {
  auto outT = op.getResult().getType();
  unsigned logN = outT.getLogN();
  int64_t Lq = outT.getLimbs();
  kb.loop(B, [&](Value i) {
    for (int64_t w = 0; w < Lq; ++w) kb.store(addend ? kb.load(*addend, i, kb.cidx(w)) : kb.c64(0), out, i, kb.cidx(w));
  });
  for (auto input : llvm::enumerate(op.getInputs())) {
    const size_t g = input.index();
    Value x = input.value();
    auto inT = cast<fhe::RnsType>(x.getType());
    fhe::BasisAttr basis = inT.getBasis();
    std::vector<uint64_t> primes(basis.getPrimes().begin(), basis.getPrimes().end());
    int64_t PL = rt::productLimbs(primes), offset = op.getOffsets()[g], first = offset / 64, sh = offset % 64;
    IcrtContext ctx{kb, fhe::IcrtOp(), basis, inT.getDomain() == fhe::Domain::coeff_scaled, int64_t(basis.size()),
                    PL, logN, kb.table(abi::TableKind::PrimeConsts, basis, 0, logN), CoeffRef{}};
    CoeffRef X{kb.scratch({B, PL}), Value(), false};
    kb.loop(B, [&](Value i) {
      ctx.operandScan(ins[g], X, i);
      Value sign = arith::ShRSIOp::create(kb.b, kb.loc, kb.load(X, i, kb.cidx(PL - 1)), kb.c64(63));
      auto word = [&](int64_t s) { return s < 0 ? kb.c64(0) : s < PL ? kb.load(X, i, kb.cidx(s)) : sign; };
      Value carry = kb.c64(0);
      for (int64_t w = first; w < Lq; ++w) {
        int64_t s = w - first;
        Value v = word(s);
        if (sh) v = kb.bitOr(kb.shl(v, kb.c64(sh)), kb.shr(word(s - 1), kb.c64(64 - sh)));
        auto [sum, c] = kb.addCarry(kb.load(out, i, kb.cidx(w)), v, carry);
        kb.store(sum, out, i, kb.cidx(w));
        carry = c;
      }
    });
  }
}

} // namespace fhec
