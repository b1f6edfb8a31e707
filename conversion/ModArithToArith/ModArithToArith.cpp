// modarith-to-arith: the portable expansion of the modarith ops into arith,
// elementwise on scalars or vectors. Shoup constants are in base 2^w with w
// the integer width; conditional subtractions are unsigned minima
// (min(x, x - p) is x - p exactly when x >= p), so they stay branch-free.
#include "conversion/ModArithToArith/ModArithToArith.h"
#include "conversion/Passes.h"
#include "dialect/ModArith/IR/ModArithDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/DialectConversion.h"

namespace fhec {
#define GEN_PASS_DEF_MODARITHTOARITH
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace fhec {
Value Emit::constant(int64_t v) {
  if (auto vt = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt, b.getIntegerAttr(vt.getElementType(), v)));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
}
Value Emit::add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
Value Emit::sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
Value Emit::mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
Value Emit::mulHi(Value x, Value y) { return arith::MulUIExtendedOp::create(b, loc, x, y).getHigh(); }
Value Emit::minu(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
Value Emit::times(Value p, int64_t k) { return k == 1 ? p : shl(p, llvm::Log2_64(k)); }
Value Emit::condSub(Value x, Value bound) { return minu(x, sub(x, bound)); }
Value Emit::reduceBarrett(Value r, Value p, int64_t out) {
  if (out <= 2) r = condSub(r, times(p, 2));
  return out == 1 ? condSub(r, p) : r;
}
Value Emit::zext(Value bit) { return arith::ExtUIOp::create(b, loc, type, bit); }
Value Emit::shr(Value x, int64_t s) { return arith::ShRUIOp::create(b, loc, x, constant(s)); }
Value Emit::shl(Value x, int64_t s) { return arith::ShLIOp::create(b, loc, x, constant(s)); }
Value Emit::bitAnd(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
Value Emit::bitOr(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
} // namespace fhec

namespace {

template <typename Op> struct Lowering : OpConversionPattern<Op> {
  /// narrowBits: if nonzero, i64 operands are truncated to words of this
  /// width, the op is computed on them and the result is zero-extended.
  Lowering(MLIRContext *ctx, unsigned narrowBits = 0) : OpConversionPattern<Op>(ctx), narrowBits(narrowBits) {}
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor a, ConversionPatternRewriter &rw) const override {
    Type type = op->getResult(0).getType();
    if (narrowBits && type.isInteger(64)) {
      Type word = rw.getIntegerType(narrowBits);
      SmallVector<Value> narrow;
      for (Value v : a.getOperands()) narrow.push_back(arith::TruncIOp::create(rw, op.getLoc(), word, v));
      Emit e{rw, op.getLoc(), word};
      SmallVector<Value> results = lower(op, typename Op::Adaptor(narrow, op), e);
      for (Value &r : results) r = arith::ExtUIOp::create(rw, op.getLoc(), type, r);
      rw.replaceOp(op, results);
      return success();
    }
    Emit e{rw, op.getLoc(), type};
    rw.replaceOp(op, lower(op, a, e));
    return success();
  }
  SmallVector<Value> lower(Op op, typename Op::Adaptor a, Emit &e) const;
  unsigned narrowBits;
};

template <> SmallVector<Value> Lowering<modarith::AddOp>::lower(modarith::AddOp op, modarith::AddOp::Adaptor a, Emit &e) const {
  Value s = e.add(a.getLhs(), a.getRhs());
  if (op.getOut() == op.getIn()) s = e.condSub(s, e.times(a.getP(), op.getIn()));
  return {s};
}

template <> SmallVector<Value> Lowering<modarith::SubOp>::lower(modarith::SubOp op, modarith::SubOp::Adaptor a, Emit &e) const {
  Value bound = e.times(a.getP(), op.getIn());
  Value d = e.sub(a.getLhs(), a.getRhs());
  Value lifted = e.add(d, bound);  // x - y + in p
  if (op.getOut() == 2 * op.getIn()) return {lifted};
  return {e.minu(d, lifted)};  // d when x >= y, else d + in p (d wrapped)
}

template <> SmallVector<Value> Lowering<modarith::ReduceOp>::lower(modarith::ReduceOp op, modarith::ReduceOp::Adaptor a, Emit &e) const {
  Value x = a.getInput();
  for (int64_t k = op.getIn() / 2; k >= int64_t(op.getOut()); k /= 2) x = e.condSub(x, e.times(a.getP(), k));
  return {x};
}

// Algo. 2: q = floor(x w' / 2^w), r = x w - q p in [0, 2p).
template <> SmallVector<Value> Lowering<modarith::MulShoupOp>::lower(modarith::MulShoupOp op, modarith::MulShoupOp::Adaptor a, Emit &e) const {
  Value q = e.mulHi(a.getX(), a.getWShoup());
  Value r = e.sub(e.mul(a.getX(), a.getW()), e.mul(q, a.getP()));
  if (op.getOut() == 1) r = e.condSub(r, a.getP());
  return {r};
}

// Barrett: z = x y < 2^(2b); q = ((z >> (b - 1)) mu) >> (b + 1); r = z - q p in [0, 3p).
template <>
SmallVector<Value> Lowering<modarith::MulBarrettOp>::lower(modarith::MulBarrettOp op, modarith::MulBarrettOp::Adaptor a, Emit &e) const {
  auto z = arith::MulUIExtendedOp::create(e.b, e.loc, a.getX(), a.getY());
  unsigned width = getElementTypeOrSelf(e.type).getIntOrFloatBitWidth();
  Value w = e.constant(width), one = e.constant(1);
  auto shr2 = [&](Value lo, Value hi, Value s) {
    Value l = arith::ShRUIOp::create(e.b, e.loc, lo, s);
    Value h = arith::ShLIOp::create(e.b, e.loc, hi, e.sub(w, s));
    return arith::OrIOp::create(e.b, e.loc, l, h).getResult();
  };
  Value q1 = shr2(z.getLow(), z.getHigh(), e.sub(a.getBits(), one));
  auto q2 = arith::MulUIExtendedOp::create(e.b, e.loc, q1, a.getMu());
  Value q3 = shr2(q2.getLow(), q2.getHigh(), e.add(a.getBits(), one));
  Value r = e.sub(z.getLow(), e.mul(q3, a.getP()));
  return {e.reduceBarrett(r, a.getP(), op.getOut())};
}

template <> SmallVector<Value> Lowering<modarith::MacOp>::lower(modarith::MacOp, modarith::MacOp::Adaptor a, Emit &e) const {
  auto prod = arith::MulUIExtendedOp::create(e.b, e.loc, a.getX(), a.getY());
  auto s0 = arith::AddUIExtendedOp::create(e.b, e.loc, a.getAcc0(), prod.getLow());
  // hi <= 2^w - 2, so hi + carry cannot overflow.
  Value hi = e.add(prod.getHigh(), e.zext(s0.getOverflow()));
  auto s1 = arith::AddUIExtendedOp::create(e.b, e.loc, a.getAcc1(), hi);
  Value s2 = e.add(a.getAcc2(), e.zext(s1.getOverflow()));
  return {s0.getSum(), s1.getSum(), s2};
}

template <>
SmallVector<Value> Lowering<modarith::MacLazyOp>::lower(modarith::MacLazyOp, modarith::MacLazyOp::Adaptor a,
                                                        Emit &e) const {
  auto prod = arith::MulUIExtendedOp::create(e.b, e.loc, a.getX(), a.getY());
  auto s0 = arith::AddUIExtendedOp::create(e.b, e.loc, a.getAcc0(), prod.getLow());
  // The caller's bound: the high word cannot overflow.
  Value s1 = e.add(e.add(a.getAcc1(), prod.getHigh()), e.zext(s0.getOverflow()));
  return {s0.getSum(), s1};
}

// (x * y) split at D bits, added to (lo, hi).
template <>
SmallVector<Value> Lowering<modarith::MacSplitOp>::lower(modarith::MacSplitOp op, modarith::MacSplitOp::Adaptor a,
                                                         Emit &e) const {
  int64_t D = op.getDigit();
  unsigned width = getElementTypeOrSelf(e.type).getIntOrFloatBitWidth();
  if (2 * D <= int64_t(width)) {
    // x, y < 2^D: the product fits one word. As the product of two
    // zero-extended half words it is one wide multiply (PTX mul.wide.u32),
    // not a double-word product whose high word is zero.
    Type half = IntegerType::get(e.b.getContext(), width / 2);
    if (auto vt = dyn_cast<VectorType>(e.type)) half = vt.clone(half);
    auto widen = [&](Value v) {
      return arith::ExtUIOp::create(e.b, e.loc, e.type, arith::TruncIOp::create(e.b, e.loc, half, v));
    };
    Value x = widen(a.getX()), y = widen(a.getY());
    Value prod = e.mul(x, y);
    Value l = e.bitAnd(prod, e.constant(int64_t((uint64_t(1) << D) - 1)));
    return {e.add(a.getLo(), l), e.add(a.getHi(), e.shr(prod, D))};
  }
  auto prod = arith::MulUIExtendedOp::create(e.b, e.loc, a.getX(), a.getY());
  Value l = prod.getLow(), h = prod.getHigh();
  if (D < 64) {
    h = e.bitOr(e.shl(h, 64 - D), e.shr(l, D));
    l = e.bitAnd(l, e.constant(int64_t((uint64_t(1) << D) - 1)));
  }
  return {e.add(a.getLo(), l), e.add(a.getHi(), h)};
}

struct ModArithToArithPass : public fhec::impl::ModArithToArithBase<ModArithToArithPass> {
  using ModArithToArithBase::ModArithToArithBase;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addIllegalDialect<modarith::ModArithDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (wordBits != 64 && wordBits != 32) {
      getOperation()->emitError() << "modarith-to-arith: word-bits must be 64 or 32, not " << unsigned(wordBits.getValue());
      return signalPassFailure();
    }
    RewritePatternSet patterns(ctx);
    unsigned narrow = wordBits == 64 ? 0 : wordBits;
    // Residue words: narrowed for 32-bit targets. The multi-word BigInt
    // accumulations keep their 64-bit words.
    patterns.add<Lowering<modarith::AddOp>, Lowering<modarith::SubOp>, Lowering<modarith::ReduceOp>,
                 Lowering<modarith::MulShoupOp>, Lowering<modarith::MulBarrettOp>>(ctx, narrow);
    populateModArithWidePatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) signalPassFailure();
  }
};

} // namespace

namespace fhec {
void populateModArithBasePatterns(RewritePatternSet &patterns) {
  patterns.add<Lowering<modarith::AddOp>, Lowering<modarith::SubOp>, Lowering<modarith::ReduceOp>>(
      patterns.getContext());
  populateModArithWidePatterns(patterns);
}

void populateModArithWidePatterns(RewritePatternSet &patterns) {
  patterns.add<Lowering<modarith::MacOp>, Lowering<modarith::MacLazyOp>, Lowering<modarith::MacSplitOp>>(
      patterns.getContext());
}
} // namespace fhec
