// iCRT (Jung et al. 2021, Algo. 5 and 6): residues back to BigInt coefficients
// mod 2^logq. temp_j = x_j (P/p_j)^-1 mod p_j (skipped for a coeff_scaled
// input, whose iNTT applied the factor and left temp_j in [0, 2 p_j)),
// X = sum_j temp_j (P/p_j) - k P with k = round(sum_j temp_j / p_j) computed
// in double precision; any representative temp_j < 2 p_j gives the same X.
//
// Exactness of k: sum_j temp_j (P/p_j) = P f with f = sum_j temp_j / p_j, and
// the centered value X = P (f - k) satisfies |X| < P/16 by the basis bound
// (conversion/CKKSToFHE/Bounds.h), so f lies within 1/16 of the integer k (k <= 2m). Each
// term temp_j / p_j < 2 is computed as double(temp_j) * double(1/p_j) with
// relative error below 3 * 2^-53, and the m-term sum adds at most 2m 2^-53
// per term, so |f~ - f| < 2m (m + 3) 2^-53 < 7/16 for any m below 2^23:
// round(f~) = k.
#include "conversion/FHEToLoops/Icrt.h"

#include "fhec/runtime/BigPoly.h"
#include "fhec/runtime/Tables.h"

using namespace mlir;

namespace fhec {

Value f64Splat(KernelBuilder &kb, double v, int64_t W) {
  OpBuilder &b = kb.b;
  if (W == 1) return arith::ConstantOp::create(b, kb.loc, b.getF64FloatAttr(v));
  auto t = VectorType::get({W}, b.getF64Type());
  return arith::ConstantOp::create(b, kb.loc, DenseElementsAttr::get(t, b.getF64FloatAttr(v)));
}

void maskTopLimb(KernelBuilder &kb, const CoeffRef &out, fhe::PolyType t, int64_t B) {
  unsigned r = t.getLogq() % 64;
  if (!r) return;
  int64_t W = kb.lanesFor(B, {out});
  Value top = kb.cidx(t.getLimbs() - 1), mask = kb.constW(int64_t((uint64_t(1) << r) - 1), W);
  kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i, ValueRange) {
    kb.storeW(kb.bitAnd(kb.loadW(out, i, top, W), mask), out, i, top);
    return SmallVector<Value>{};
  });
}

void columnsToLimbs(KernelBuilder &kb, Value digits, const CoeffRef &out, int64_t B, int64_t W, int64_t D, int64_t Dq,
                    int64_t Lq, int64_t shiftBits) {
  kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i, ValueRange) {
    for (int64_t w = 0; w < Lq; ++w) {
      int64_t bit = shiftBits + 64 * w, d0 = bit / D, off = bit - d0 * D;
      Value limb = kb.shr(kb.loadW(digits, {kb.cidx(d0), i}, W), kb.constW(off, W));
      for (int64_t d = d0 + 1; d < Dq && d * D < bit + 64; ++d)
        limb = kb.bitOr(limb, kb.shl(kb.loadW(digits, {kb.cidx(d), i}, W), kb.constW(d * D - bit, W)));
      kb.storeW(limb, out, i, kb.cidx(w));
    }
    return SmallVector<Value>{};
  });
}

void addPowerOfTwo(KernelBuilder &kb, const CoeffRef &x, int64_t B, int64_t bit, int64_t L) {
  kb.loop(B, [&](Value i) {
    Value zero = kb.c64(0);
    kb.loop(bit / 64, L, {kb.c64(int64_t(uint64_t(1) << (bit % 64)))}, [&](Value k, ValueRange carry) {
      auto [sum, out] = kb.addCarry(kb.load(x, i, k), carry[0], zero);
      kb.store(sum, x, i, k);
      return SmallVector<Value>{out};
    });
  });
}

Value IcrtContext::addendResidue(Value i, Value p, int64_t W) {
  OpBuilder &b = kb.b;
  int64_t bits = cast<fhe::PolyType>(op.getAddend().getType()).getLogq();
  Value up = kb.constW(64 - bits, W);
  Value e = arith::ShRSIOp::create(b, kb.loc, kb.shl(kb.loadW(addend, i, kb.cidx(0), W), up), up);
  Value negative = arith::ShRSIOp::create(b, kb.loc, e, kb.constW(63, W));
  return kb.add(e, kb.bitAnd(negative, p));
}

Value IcrtContext::tempOf(Value x, Value i, Value inv, Value invShoup, Value p, int64_t W) {
  if (!addend.mem) return scaled ? x : kb.mulShoup(x, inv, invShoup, p);
  Value ej = addendResidue(i, p, W);
  if (!scaled) return kb.mulShoup(kb.modAdd(x, ej, p), inv, invShoup, p);
  // temp in [0, 2p) plus e_j (P/p_j)^-1 in [0, p): back to [0, 2p).
  return kb.reduce(kb.add(x, kb.mulShoup(ej, inv, invShoup, p)), p, 4, 2);
}

std::pair<Value, Value> IcrtContext::temp(const CoeffRef &in, Value i, Value j) {
  Value x = kb.load(in, i, j);
  Value t = tempOf(x, i, kb.tableAt(consts, j, abi::kIcrtInv), kb.tableAt(consts, j, abi::kIcrtInvShoup),
                   kb.tableAt(consts, j, abi::kPrime), 1);
  OpBuilder &b = kb.b;
  Value invp = arith::BitcastOp::create(b, kb.loc, b.getF64Type(), kb.tableAt(consts, j, abi::kInvPrimeF64));
  Value tf = arith::UIToFPOp::create(b, kb.loc, b.getF64Type(), t);
  return {t, arith::MulFOp::create(b, kb.loc, tf, invp)};
}

Value IcrtContext::roundToInt(Value f) {
  OpBuilder &b = kb.b;
  Value half = arith::ConstantOp::create(b, kb.loc, b.getF64FloatAttr(0.5));
  return arith::FPToUIOp::create(b, kb.loc, b.getI64Type(), arith::AddFOp::create(b, kb.loc, f, half));
}

Value IcrtContext::zeroF() { return arith::ConstantOp::create(kb.b, kb.loc, kb.b.getF64FloatAttr(0.0)); }

Value IcrtContext::addF(Value x, Value y) { return arith::AddFOp::create(kb.b, kb.loc, x, y); }

void IcrtContext::operandScan(const CoeffRef &in, const CoeffRef &out, Value i) {
  Value pdivp = kb.table(abi::TableKind::IcrtPDivP, basis, 0, logN);
  Value P = kb.table(abi::TableKind::IcrtP, basis, 0, logN);
  int64_t PL = cast<MemRefType>(P.getType()).getShape()[1];
  Value acc = kb.scratch({PL + 1});
  kb.loop(PL + 1, [&](Value w) { kb.store(kb.c64(0), acc, {w}); });
  auto f = kb.loop(0, m, {zeroF()}, [&](Value j, ValueRange it) {
    std::pair<Value, Value> tt = temp(in, i, j);
    Value t = tt.first, term = tt.second;
    auto carry = kb.loop(0, PL, {kb.c64(0)}, [&](Value k, ValueRange c) {
      auto [lo, hi] = kb.mulWide(t, kb.load(pdivp, {j, k}));
      auto [s, o] = kb.addCarry(kb.load(acc, {k}), lo, c[0]);
      kb.store(s, acc, {k});
      return SmallVector<Value>{kb.add(hi, o)};
    });
    Value top = kb.cidx(PL);
    kb.store(kb.add(kb.load(acc, {top}), carry[0]), acc, {top});
    return SmallVector<Value>{addF(it[0], term)};
  });
  Value k = roundToInt(f[0]);
  Value zero = kb.c64(0);
  kb.loop(0, Lq, {zero, zero}, [&](Value w, ValueRange st) {
    auto [lo, hi] = kb.mulWide(k, kb.load(P, {kb.cidx(0), w}));
    auto [kp, c1] = kb.addCarry(lo, st[0], zero);
    auto [d, borrow] = kb.subBorrow(kb.load(acc, {w}), kp, st[1]);
    kb.store(d, out, i, w);
    return SmallVector<Value>{kb.add(hi, c1), borrow};
  });
}

// Algo. 6 on a block of B coefficients: temp (B, m) x T (m, Lq) with
// T = (P/p_j) mod 2^(64 Lq) (stored by columns), one output column at a time for the whole
// block; each column's three-word sum carries two words into the next, and
// k * (P mod 2^(64 Lq)) is subtracted with its own carry and borrow chains.
//
// With a shift of s bits (the result is X >> s), the columns start at
// cLo = s / 64 - 2, ignoring what the columns below contribute: that part
// X_low = sum_j temp_j (T_j mod 2^(64 cLo)) - k (P mod 2^(64 cLo)) lies in
// (-2m, m 2^(b+1)) times 2^(64 cLo) for b-bit primes (temp_j < 2 p_j), so
// its carry C into column cLo is in [-2m, m 2^(b+1)): up to
// (m >> (63 - b)) + 1 units of guard limb cLo + 1. Added to the two guard
// limbs cLo and cLo + 1, it changes limb cLo + 2 or above only when guard
// limb cLo + 1 is 0 (a borrow) or within (m >> (63 - b)) + 2 of all ones (a
// carry): then (or with `exactAlways`) the block's columns are redone from
// column 0, exactly.
// `roundBit` >= 0: 2^roundBit is added to the result first (rounding).
void IcrtContext::matrix(const CoeffRef &in, const CoeffRef &out, int64_t B, int64_t shiftBits, int64_t roundBit,
            bool exactAlways) {
  Value T = kb.table(abi::TableKind::IcrtColumns, basis, Lq, logN);
  Value Pm = kb.table(abi::TableKind::IcrtP, basis, Lq, logN);
  Value tempBuf = kb.scratch({B, m});
  Value kv = kb.scratch({B});
  // state rows: accumulator carry (two words), k*P carry, borrow.
  Value state = kb.scratch({4, B});
  kb.loop(B, [&](Value i) {
    auto f = kb.loop(0, m, {zeroF()}, [&](Value j, ValueRange it) {
      auto [t, term] = temp(in, i, j);
      kb.store(t, tempBuf, {i, j});
      return SmallVector<Value>{addF(it[0], term)};
    });
    kb.store(roundToInt(f[0]), kv, {i});
  });
  Value zero = kb.c64(0);
  Value r0 = kb.cidx(0), r1 = kb.cidx(1), r2 = kb.cidx(2), r3 = kb.cidx(3);
  // Columns from..Lq-1 from zero carries, then the rounding term.
  auto columns = [&](int64_t from) {
    kb.loop(B, [&](Value i) {
      for (int64_t r = 0; r < 4; ++r) kb.store(zero, state, {kb.cidx(r), i});
    });
    kb.loop(kb.cidx(from), kb.cidx(Lq), [&](Value c) {
      Value pc = kb.load(Pm, {r0, c});
      kb.loop(B, [&](Value i) {
        // temp_j < 2 p_j < 2^(primeBits + 1) times a 64-bit limb of P/p_j.
        auto a = kb.dot(m, basis.getPrimeBits() + 1, {kb.load(state, {r0, i}), kb.load(state, {r1, i}), zero},
                        [&](Value j) { return kb.load(tempBuf, {i, j}); }, [&](Value j) { return kb.load(T, {c, j}); });
        kb.store(a[1], state, {r0, i});
        kb.store(a[2], state, {r1, i});
        auto [lo, hi] = kb.mulWide(kb.load(kv, {i}), pc);
        auto [kp, c1] = kb.addCarry(lo, kb.load(state, {r2, i}), zero);
        kb.store(kb.add(hi, c1), state, {r2, i});
        auto [d, borrow] = kb.subBorrow(a[0], kp, kb.load(state, {r3, i}));
        kb.store(borrow, state, {r3, i});
        kb.store(d, out, i, c);
      });
    });
    if (roundBit >= 0) addPowerOfTwo(kb, out, B, roundBit, Lq);
  };
  int64_t cLo = std::max<int64_t>(0, shiftBits / 64 - 2);
  columns(cLo);
  if (cLo == 0) return;
  OpBuilder &b = kb.b;
  // The carry side's threshold: all ones minus the units C can carry, plus one.
  int64_t unitShift = 63 - int64_t(basis.getPrimeBits());
  assert(unitShift >= 0 && "temp_j < 2 p_j must fit a 64-bit word");
  Value nearlyOnes = kb.c64(-2 - (m >> unitShift));
  auto redo = kb.loop(0, B, {arith::ConstantIntOp::create(b, kb.loc, b.getI1Type(), exactAlways ? 1 : 0)},
                      [&](Value i, ValueRange any) {
                        Value g = kb.load(out, i, kb.cidx(cLo + 1));
                        Value hit = arith::OrIOp::create(
                            b, kb.loc, arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::eq, g, zero),
                            arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::uge, g, nearlyOnes));
                        return SmallVector<Value>{arith::OrIOp::create(b, kb.loc, any[0], hit)};
                      });
  kb.ifThen(redo[0], [&] { columns(0); });
}

void emitIcrtBlock(KernelBuilder &kb, fhe::IcrtOp op, const CoeffRef &in, const CoeffRef *addend, const CoeffRef &out,
                   int64_t B) {
  auto inT = cast<fhe::RnsType>(op.getInput().getType());
  auto outT = op.getResult().getType();
  IcrtContext ctx{kb,
                  op,
                  inT.getBasis(),
                  inT.getDomain() == fhe::Domain::coeff_scaled,
                  int64_t(inT.getBasis().size()),
                  int64_t(outT.getLimbs()),
                  inT.getLogN(),
                  kb.table(abi::TableKind::PrimeConsts, inT.getBasis(), 0, inT.getLogN()),
                  addend ? *addend : CoeffRef{}};
  unsigned D = kb.options.target->shoupBits;
  int64_t shift = op.getShiftBits();
  if (op.getOrder() == fhe::Order::matrix && D < 64) {
    ctx.digitMatrix(in, out, B, D, shift, kb.options.icrtExactAlways);
  } else {
    // The 64-bit forms compute X mod 2^(logq + shift) (the matrix form from
    // two guard limbs below the shift on), then shift it.
    CoeffRef full = out;
    if (shift) {
      ctx.Lq = rt::limbsFor(int(outT.getLogq() + shift));
      full = out.wordMajor ? CoeffRef{kb.scratch({ctx.Lq, B}), Value(), true}
                           : CoeffRef{kb.scratch({B, ctx.Lq}), Value(), false};
    }
    int64_t roundBit = op.getRound() ? shift - 1 : -1;
    if (op.getOrder() == fhe::Order::matrix) {
      ctx.matrix(in, full, B, shift, roundBit, kb.options.icrtExactAlways);
    } else {
      kb.loop(B, [&](Value i) { ctx.operandScan(in, full, i); });
      if (roundBit >= 0) addPowerOfTwo(kb, full, B, roundBit, ctx.Lq);
    }
    if (shift) emitShiftRight(kb, full, out, B, shift, ctx.Lq, outT.getLimbs());
  }
  maskTopLimb(kb, out, outT, B);
}

void emitIcrtSumBlock(KernelBuilder &kb, fhe::IcrtSumOp op, ArrayRef<CoeffRef> ins, const CoeffRef *addend,
                      const CoeffRef &out, int64_t B) {
  auto outT = op.getResult().getType();
  bool ifma = kb.options.target->ifma && llvm::all_of(op.getInputs(), [](Value x) {
                auto basis = cast<fhe::RnsType>(x.getType()).getBasis();
                return basis.getPrimeBits() <= 50 && basis.size() <= 64;
              });
  if (ifma)
    emitIcrtWindowDigitSum(kb, op, ins, addend, out, B);
  else
    emitIcrtWindowLimbSum(kb, op, ins, addend, out, B);
  maskTopLimb(kb, out, outT, B);
}

void populateIcrtPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  patterns.add<CoefficientOpLowering<fhe::IcrtOp>, CoefficientOpLowering<fhe::IcrtSumOp>>(tc, patterns.getContext(), o);
}

} // namespace fhec
