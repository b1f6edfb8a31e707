// iCRT (Jung et al. 2021, Algo. 5 and 6): residues back to BigInt coefficients
// mod 2^logq. temp_j = x_j (P/p_j)^-1 mod p_j (skipped for a coeff_scaled
// input, whose iNTT applied the factor), X = sum_j temp_j (P/p_j) - k P with
// k = round(sum_j temp_j / p_j) computed in double precision.
//
// Exactness of k: sum_j temp_j (P/p_j) = P f with f = sum_j temp_j / p_j, and
// the centered value X = P (f - k) satisfies |X| < P/16 by the basis bound
// (passes/Bounds.h), so f lies within 1/16 of the integer k. Each term
// temp_j / p_j < 1 is computed as double(temp_j) * double(1/p_j) with relative
// error below 3 * 2^-53, and the m-term sum adds at most m * 2^-53 per term,
// so |f~ - f| < m (m + 3) 2^-53 < 7/16 for any m below 2^24: round(f~) = k.
#include "conversion/FHEToLoops/Patterns.h"

#include "fhec/runtime/Tables.h"

using namespace mlir;

namespace fhec {

namespace {

struct IcrtContext {
  KernelBuilder &kb;
  fhe::IcrtOp op;
  fhe::BasisAttr basis;
  bool scaled;
  int64_t m, Lq;
  unsigned logN;
  Value consts;

  // temp_j of coefficient i and its contribution to f.
  std::pair<Value, Value> temp(const CoeffRef &in, Value i, Value j) {
    Value x = kb.load(in, i, j);
    Value t = scaled ? x
                     : kb.mulShoup(x, kb.tableAt(consts, j, abi::kIcrtInv), kb.tableAt(consts, j, abi::kIcrtInvShoup),
                                   kb.tableAt(consts, j, abi::kPrime));
    OpBuilder &b = kb.b;
    Value invp = arith::BitcastOp::create(b, kb.loc, b.getF64Type(), kb.tableAt(consts, j, abi::kInvPrimeF64));
    Value tf = arith::UIToFPOp::create(b, kb.loc, b.getF64Type(), t);
    return {t, arith::MulFOp::create(b, kb.loc, tf, invp)};
  }

  Value roundToInt(Value f) {
    OpBuilder &b = kb.b;
    Value half = arith::ConstantOp::create(b, kb.loc, b.getF64FloatAttr(0.5));
    return arith::FPToUIOp::create(b, kb.loc, b.getI64Type(), arith::AddFOp::create(b, kb.loc, f, half));
  }

  Value zeroF() { return arith::ConstantOp::create(kb.b, kb.loc, kb.b.getF64FloatAttr(0.0)); }
  Value addF(Value x, Value y) { return arith::AddFOp::create(kb.b, kb.loc, x, y); }

  // Algo. 5 for one coefficient: a BigInt accumulator of PLimbs + 1 words,
  // row j adding temp_j * (P/p_j); then the low Lq words of acc - k P.
  void operandScan(const CoeffRef &in, const CoeffRef &out, Value i) {
    Value pdivp = kb.table(abi::TableKind::IcrtPDivP, basis, 0, logN);
    Value P = kb.table(abi::TableKind::IcrtP, basis, 0, logN);
    int64_t PL = cast<MemRefType>(P.getType()).getShape()[1];
    Value acc = kb.scratch({PL + 1});
    kb.loop(PL + 1, [&](Value w) { kb.store(kb.c64(0), acc, {w}); });
    auto f = kb.loop(0, m, {zeroF()}, [&](Value j, ValueRange it) {
      auto [t, term] = temp(in, i, j);
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
  void matrix(const CoeffRef &in, const CoeffRef &out, int64_t B) {
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
      for (int64_t r = 0; r < 4; ++r) kb.store(kb.c64(0), state, {kb.cidx(r), i});
    });
    Value zero = kb.c64(0);
    Value r0 = kb.cidx(0), r1 = kb.cidx(1), r2 = kb.cidx(2), r3 = kb.cidx(3);
    kb.loop(Lq, [&](Value c) {
      Value pc = kb.load(Pm, {r0, c});
      kb.loop(B, [&](Value i) {
        // temp_j < p_j < 2^primeBits times a 64-bit limb of P/p_j.
        auto a = kb.dot(m, basis.getPrimeBits(), {kb.load(state, {r0, i}), kb.load(state, {r1, i}), zero},
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
  }

  // Algo. 6 over D-bit digits (D < 64, IFMA's 52), W coefficients per vector:
  // column c of X mod 2^(D Dq) is sum_j temp_j T_j[c] + k negP[c], with
  // T_j = P/p_j and negP = -P mod 2^(D Dq) in base 2^D (adding k negP
  // subtracts k P, no borrows). The low and high halves of the digit products
  // accumulate lazily in 64-bit lanes (m + 1 terms below 2^52 each), and one
  // carry pass per group normalizes the columns; the digits are then repacked
  // into the 64-bit limbs of the result.
  void digitMatrix(const CoeffRef &in, const CoeffRef &out, int64_t B, unsigned D) {
    int64_t Dq = (Lq * 64 + D - 1) / D;
    int64_t lanes = kb.options.target->lanes;
    int64_t W = in.primeMajor && B % lanes == 0 ? lanes : 1;
    Value T = kb.table(abi::TableKind::IcrtColumns, basis, Dq, logN);
    Value negP = kb.table(abi::TableKind::IcrtNegP, basis, Dq, logN);
    Value tempBuf = kb.scratch({m, B}), kBuf = kb.scratch({B}), digits = kb.scratch({Dq, B});
    OpBuilder &b = kb.b;
    auto f64W = W == 1 ? Type(b.getF64Type()) : Type(VectorType::get({W}, b.getF64Type()));
    auto i64W = kb.wordType(W);
    Value mask = kb.constW(int64_t((uint64_t(1) << D) - 1), W), shift = kb.constW(D, W);
    auto fconst = [&](double v) -> Value {
      if (W == 1) return arith::ConstantOp::create(b, kb.loc, b.getF64FloatAttr(v));
      return arith::ConstantOp::create(b, kb.loc, DenseElementsAttr::get(cast<VectorType>(f64W), b.getF64FloatAttr(v)));
    };
    auto group = [&](function_ref<void(Value)> body) {
      kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i0, ValueRange) {
        body(i0);
        return SmallVector<Value>{};
      });
    };
    // temp_j and the estimate k of the multiple of P, W coefficients at a time.
    group([&](Value i0) {
      auto f = kb.loop(0, m, {fconst(0.0)}, [&](Value j, ValueRange it) {
        auto row = [&](int col) { return kb.splat(kb.tableAt(consts, j, col), W); };
        Value x = W > 1 ? kb.loadW(in.mem, {j, kb.coeffIndex(in, i0)}, W) : kb.load(in, i0, j);
        Value t = scaled ? x : kb.mulShoup(x, row(abi::kIcrtInv), row(abi::kIcrtInvShoup), row(abi::kPrime));
        kb.storeW(t, tempBuf, {j, i0});
        Value invp = arith::BitcastOp::create(b, kb.loc, f64W, row(abi::kInvPrimeF64));
        Value tf = arith::UIToFPOp::create(b, kb.loc, f64W, t);
        return SmallVector<Value>{arith::AddFOp::create(b, kb.loc, it[0], arith::MulFOp::create(b, kb.loc, tf, invp))};
      });
      Value k = arith::FPToUIOp::create(b, kb.loc, i64W, arith::AddFOp::create(b, kb.loc, f[0], fconst(0.5)));
      kb.storeW(k, kBuf, {i0});
    });
    // Columns with one carry pass.
    group([&](Value i0) {
      Value zero = kb.constW(0, W);
      Value kv = kb.loadW(kBuf, {i0}, W);
      kb.loop(0, Dq, {zero, zero}, [&](Value c, ValueRange st) {
        auto acc = kb.loop(0, m, {zero, zero}, [&](Value j, ValueRange a) {
          auto [lo, hi] = kb.macSplit(a[0], a[1], kb.loadW(tempBuf, {j, i0}, W), kb.splat(kb.load(T, {c, j}), W), D);
          return SmallVector<Value>{lo, hi};
        });
        auto [lo, hi] = kb.macSplit(acc[0], acc[1], kv, kb.splat(kb.load(negP, {kb.cidx(0), c}), W), D);
        Value v = kb.add(kb.add(lo, st[1]), st[0]);  // this column's low halves, the last one's high halves, carry
        kb.storeW(kb.bitAnd(v, mask), digits, {c, i0});
        return SmallVector<Value>{arith::ShRUIOp::create(b, kb.loc, v, shift), hi};
      });
    });
    // Digits to 64-bit limbs: limb w is bits [64 w, 64 w + 64), from digits
    // w0 = 64 w / D, w0 + 1 and (when a digit is shorter than 32 bits of the limb) w0 + 2.
    kb.loop(B, [&](Value i) {
      kb.loop(Lq, [&](Value w) {
        Value bit = kb.mul(w, kb.cidx(64));
        Value d0 = arith::DivUIOp::create(b, kb.loc, bit, kb.cidx(D));
        Value off = arith::IndexCastOp::create(b, kb.loc, b.getI64Type(), kb.sub(bit, kb.mul(d0, kb.cidx(D))));
        Value limb = arith::ShRUIOp::create(b, kb.loc, kb.load(digits, {d0, i}), off);
        for (int64_t step = 1; step <= 2; ++step) {
          // digit d0 + step starts at bit step D - off of the limb, if below 64 and within the digits.
          Value at = kb.sub(kb.c64(int64_t(step * D)), off);
          Value idx = kb.add(d0, kb.cidx(step));
          Value ok = arith::AndIOp::create(
              b, kb.loc, arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::ult, at, kb.c64(64)),
              arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::ult, idx, kb.cidx(Dq)));
          Value clamped = arith::MinUIOp::create(b, kb.loc, idx, kb.cidx(Dq - 1));
          Value part = arith::ShLIOp::create(b, kb.loc, kb.load(digits, {clamped, i}),
                                             arith::MinUIOp::create(b, kb.loc, at, kb.c64(63)));
          limb = kb.bitOr(limb, arith::SelectOp::create(b, kb.loc, ok, part, kb.c64(0)));
        }
        kb.store(limb, out, i, w);
      });
    });
  }
};

} // namespace

void emitIcrtBlock(KernelBuilder &kb, fhe::IcrtOp op, const CoeffRef &in, const CoeffRef &out, int64_t B) {
  auto inT = cast<fhe::RnsType>(op.getInput().getType());
  auto outT = op.getResult().getType();
  IcrtContext ctx{kb,
                  op,
                  inT.getBasis(),
                  inT.getDomain() == fhe::Domain::coeff_scaled,
                  int64_t(inT.getBasis().size()),
                  int64_t(outT.getLimbs()),
                  inT.getLogN(),
                  kb.table(abi::TableKind::PrimeConsts, inT.getBasis(), 0, inT.getLogN())};
  unsigned D = kb.options.target->shoupBits;
  if (op.getOrder() == fhe::Order::matrix && D < 64)
    ctx.digitMatrix(in, out, B, D);
  else if (op.getOrder() == fhe::Order::matrix)
    ctx.matrix(in, out, B);
  else
    kb.loop(B, [&](Value i) { ctx.operandScan(in, out, i); });
  // X mod 2^logq: clear the bits above logq in the top limb.
  if (unsigned r = outT.getLogq() % 64) {
    Value top = kb.cidx(outT.getLimbs() - 1), mask = kb.c64(int64_t((uint64_t(1) << r) - 1));
    kb.loop(B, [&](Value i) {
      kb.store(arith::AndIOp::create(kb.b, kb.loc, kb.load(out, i, top), mask), out, i, top);
    });
  }
}

void populateIcrtPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  patterns.add<CoefficientOpLowering<fhe::IcrtOp>>(tc, patterns.getContext(), o);
}

} // namespace fhec
