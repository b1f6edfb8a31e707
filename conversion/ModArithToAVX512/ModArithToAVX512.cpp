// modarith-to-avx512: the arithmetic of the cpu-avx512 target. The products
// run on AVX-512 IFMA (vpmadd52luq / vpmadd52huq through llvm.call_intrinsic,
// 8 x 52-bit multiplies per instruction): Shoup constants are in base 2^52,
// residues below p < 2^50 stay lazily in [0, 4p) < 2^52, BigInt kernels work
// on 52-bit digits. Scalar ops of the same module use the same base with
// 64-bit multiplies. add/sub/reduce and the accumulations are the portable ones.
#include "conversion/ModArithToArith/ModArithToArith.h"
#include "conversion/Passes.h"
#include "dialect/ModArith/IR/ModArithDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace fhec {
#define GEN_PASS_DEF_MODARITHTOAVX512
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

constexpr int64_t kMask52 = (int64_t(1) << 52) - 1;

bool isIfmaVector(Type t) {
  auto v = dyn_cast<VectorType>(t);
  return v && v.getRank() == 1 && v.getNumElements() == 8 && v.getElementType().isInteger(64);
}

// acc + (x y mod 2^52) and acc + floor(x y / 2^52) for x, y < 2^52, 8 lanes.
Value madd52(Emit &e, bool high, Value acc, Value x, Value y) {
  StringRef name = high ? "llvm.x86.avx512.vpmadd52h.uq.512" : "llvm.x86.avx512.vpmadd52l.uq.512";
  return LLVM::CallIntrinsicOp::create(e.b, e.loc, e.type, e.b.getStringAttr(name), ValueRange{acc, x, y}).getResult(0);
}

// floor(x y / 2^52) for scalars (x y < 2^104).
Value mulHi52(Emit &e, Value x, Value y) {
  auto p = arith::MulUIExtendedOp::create(e.b, e.loc, x, y);
  return e.bitOr(e.shl(p.getHigh(), 12), e.shr(p.getLow(), 52));
}

struct MulShoup : OpConversionPattern<modarith::MulShoupOp> {
  using OpConversionPattern::OpConversionPattern;
  // q = floor(x w' / 2^52) with w' = floor(w 2^52 / p); r = x w - q p in [0, 2p).
  LogicalResult matchAndRewrite(modarith::MulShoupOp op, OpAdaptor a, ConversionPatternRewriter &rw) const override {
    Emit e{rw, op.getLoc(), op.getType()};
    Value r;
    if (isIfmaVector(e.type)) {
      // x w - q p = x w + q (2^52 - p) mod 2^52: the second product accumulates onto the first.
      Value zero = e.constant(0);
      Value q = madd52(e, true, zero, a.getX(), a.getWShoup());
      Value negP = e.sub(e.constant(int64_t(1) << 52), a.getP());
      r = e.bitAnd(madd52(e, false, madd52(e, false, zero, a.getX(), a.getW()), q, negP), e.constant(kMask52));
    } else {
      Value q = mulHi52(e, a.getX(), a.getWShoup());
      r = e.sub(e.mul(a.getX(), a.getW()), e.mul(q, a.getP()));  // exact: r < 2p
    }
    if (op.getOut() == 1) r = e.condSub(r, a.getP());
    rw.replaceOp(op, r);
    return success();
  }
};

struct MulBarrett : OpConversionPattern<modarith::MulBarrettOp> {
  using OpConversionPattern::OpConversionPattern;
  // x y < p^2 < 2^(2b), b <= 50: c1 = floor(x y / 2^(b-2)) < 2^52,
  // q = floor(c1 mu / 2^52) with mu = floor(2^(b+50) / p) is at most 2 below
  // floor(x y / p), so r = x y - q p < 3p.
  LogicalResult matchAndRewrite(modarith::MulBarrettOp op, OpAdaptor a, ConversionPatternRewriter &rw) const override {
    Emit e{rw, op.getLoc(), op.getType()};
    Value bits = a.getBits();
    auto shiftBy = [&](Value v, Value s, bool left) -> Value {
      return left ? Value(arith::ShLIOp::create(e.b, e.loc, v, s)) : Value(arith::ShRUIOp::create(e.b, e.loc, v, s));
    };
    Value r;
    if (isIfmaVector(e.type)) {
      Value zero = e.constant(0);
      Value lo = madd52(e, false, zero, a.getX(), a.getY()), hi = madd52(e, true, zero, a.getX(), a.getY());
      Value c1 = e.bitOr(shiftBy(hi, e.sub(e.constant(54), bits), true), shiftBy(lo, e.sub(bits, e.constant(2)), false));
      Value q = madd52(e, true, zero, c1, a.getMu());
      Value negP = e.sub(e.constant(int64_t(1) << 52), a.getP());
      r = e.bitAnd(madd52(e, false, lo, q, negP), e.constant(kMask52));
    } else {
      auto prod = arith::MulUIExtendedOp::create(e.b, e.loc, a.getX(), a.getY());
      Value s = e.sub(bits, e.constant(2));
      Value c1 = e.bitOr(shiftBy(prod.getLow(), s, false), shiftBy(prod.getHigh(), e.sub(e.constant(64), s), true));
      Value q = mulHi52(e, c1, a.getMu());
      r = e.sub(prod.getLow(), e.mul(q, a.getP()));
    }
    rw.replaceOp(op, e.reduceBarrett(r, a.getP(), op.getOut()));
    return success();
  }
};

// The digit products of the BigInt kernels on IFMA (52-bit digits).
struct MacSplit : OpConversionPattern<modarith::MacSplitOp> {
  using OpConversionPattern::OpConversionPattern;
  MacSplit(MLIRContext *ctx) : OpConversionPattern(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(modarith::MacSplitOp op, OpAdaptor a, ConversionPatternRewriter &rw) const override {
    if (op.getDigit() != 52 || !isIfmaVector(op.getX().getType())) return failure();
    Emit e{rw, op.getLoc(), op.getX().getType()};
    rw.replaceOp(op, {madd52(e, false, a.getLo(), a.getX(), a.getY()), madd52(e, true, a.getHi(), a.getX(), a.getY())});
    return success();
  }
};

struct ModArithToAVX512Pass : public fhec::impl::ModArithToAVX512Base<ModArithToAVX512Pass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addIllegalDialect<modarith::ModArithDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(ctx);
    populateModArithBasePatterns(patterns);
    patterns.add<MulShoup, MulBarrett>(ctx);
    patterns.add<MacSplit>(ctx);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) signalPassFailure();
  }
};

} // namespace
