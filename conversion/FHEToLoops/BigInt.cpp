// BigInt pointwise kernels on (N, limbs) polynomials mod 2^logq: add, sub,
// negate with carry chains, right shift (rescale, region 2's division by Q),
// reduction to a smaller power of two, the centred lift to a larger one
// (bootstrapping's modulus raise), the constant multiplications of
// mul_const / add_const, the scalar addition of hybrid key switching's
// balanced digits, and constant polynomials (encoded plaintexts). Limb
// loops are IR loops, so code size does not grow with logq.
#include "conversion/FHEToLoops/Patterns.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace fhec {

namespace {

// Clears the bits at and above logq in the top limb of coefficients i .. i + W - 1.
void maskTop(KernelBuilder &kb, const CoeffRef &poly, Value i, fhe::PolyType t, int64_t W = 1) {
  unsigned r = t.getLogq() % 64;
  if (r == 0) return;
  Value top = kb.cidx(t.getLimbs() - 1);
  Value v = kb.bitAnd(kb.loadW(poly, i, top, W), kb.constW(int64_t((uint64_t(1) << r) - 1), W));
  kb.storeW(v, poly, i, top);
}

// a + b or a - b (a absent: 0 - b) of coefficients i .. i + W - 1 with a carry chain.
void addSub(KernelBuilder &kb, const CoeffRef *a, const CoeffRef &b, const CoeffRef &out, Value i, int64_t L,
            bool subtract, int64_t W = 1) {
  kb.loop(0, L, {kb.constW(0, W)}, [&](Value w, ValueRange c) {
    Value x = a ? kb.loadW(*a, i, w, W) : kb.constW(0, W), y = kb.loadW(b, i, w, W);
    auto [r, carry] = subtract ? kb.subBorrow(x, y, c[0]) : kb.addCarry(x, y, c[0]);
    kb.storeW(r, out, i, w);
    return SmallVector<Value>{carry};
  });
}

// x + c over L words with a carry chain, c >= 0: word w of c is a select
// over c's nonzero words (one compare each, as many as c has: hybrid key
// switching's constants have one per digit), so the loop stays an IR loop.
void addScalar(KernelBuilder &kb, const CoeffRef &in, const CoeffRef &out, Value i, const APInt &c, int64_t L,
               int64_t W) {
  SmallVector<std::pair<int64_t, uint64_t>> words;
  for (unsigned v = 0; v < c.getNumWords() && int64_t(v) < L; ++v)
    if (uint64_t word = c.getRawData()[v]) words.push_back({int64_t(v), word});
  kb.loop(0, L, {kb.constW(0, W)}, [&](Value w, ValueRange carry) {
    Value cw = kb.constW(0, W);
    for (auto [v, word] : words) {
      Value here = arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::eq, w, kb.cidx(v));
      cw = arith::SelectOp::create(kb.b, kb.loc, here, kb.constW(int64_t(word), W), cw);
    }
    auto [s, o] = kb.addCarry(kb.loadW(in, i, w, W), cw, carry[0]);
    kb.storeW(s, out, i, w);
    return SmallVector<Value>{o};
  });
}

// floor(x / 2^s): word w of the result takes bits [64w + s, 64w + s + 64) of x.
// With `round`, round(x / 2^s) = floor(x / 2^s) + bit s - 1 of x, carried up
// the words (the caller masks the top limb).
void shiftRight(KernelBuilder &kb, const CoeffRef &in, const CoeffRef &out, Value i, int64_t s, int64_t Lin,
                int64_t Lout, int64_t W, bool round = false) {
  int64_t q = s / 64, r = s % 64;
  auto shifted = [&](Value w) {
    Value src = kb.add(w, kb.cidx(q));
    Value v = kb.loadW(in, i, src, W);
    if (!r) return v;
    v = kb.shr(v, kb.constW(r, W));
    // The next word's low bits, or nothing past the top limb.
    Value next = kb.add(src, kb.cidx(1));
    Value inRange = arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::ult, next, kb.cidx(Lin));
    Value clamped = arith::MinUIOp::create(kb.b, kb.loc, next, kb.cidx(Lin - 1));
    Value hi = kb.shl(kb.loadW(in, i, clamped, W), kb.constW(64 - r, W));
    hi = arith::SelectOp::create(kb.b, kb.loc, inRange, hi, kb.constW(0, W));
    return kb.bitOr(v, hi);
  };
  if (!round) {
    kb.loop(Lout, [&](Value w) { kb.storeW(shifted(w), out, i, w); });
    return;
  }
  Value half = kb.loadW(in, i, kb.cidx((s - 1) / 64), W);
  Value bit = kb.bitAnd(kb.shr(half, kb.constW((s - 1) % 64, W)), kb.constW(1, W));
  kb.loop(0, Lout, {bit}, [&](Value w, ValueRange carry) {
    auto [sum, next] = kb.addCarry(shifted(w), kb.constW(0, W), carry[0]);
    kb.storeW(sum, out, i, w);
    return SmallVector<Value>{next};
  });
}

// The centred lift of a `from` coefficient to L words: its words below the
// top limb copied, the top limb sign-extended from bit logq - 1, the sign above.
void signExtend(KernelBuilder &kb, const CoeffRef &in, const CoeffRef &out, Value i, fhe::PolyType from, int64_t L,
                int64_t W) {
  int64_t Lin = from.getLimbs();
  kb.loop(kb.cidx(0), kb.cidx(Lin - 1), [&](Value w) { kb.storeW(kb.loadW(in, i, w, W), out, i, w); });
  Value top = kb.loadW(in, i, kb.cidx(Lin - 1), W);
  if (unsigned r = from.getLogq() % 64) {
    Value up = kb.constW(64 - r, W);
    top = arith::ShRSIOp::create(kb.b, kb.loc, kb.shl(top, up), up);
  }
  kb.storeW(top, out, i, kb.cidx(Lin - 1));
  Value sign = arith::ShRSIOp::create(kb.b, kb.loc, top, kb.constW(63, W));
  kb.loop(kb.cidx(Lin), kb.cidx(L), [&](Value w) { kb.storeW(sign, out, i, w); });
}

// Coefficient i of x * c mod 2^(64 L) by operand scanning over |c|'s words
// (one pass per nonzero word: the constant's size, not logq's), negated for
// c < 0.
void mulScalar(KernelBuilder &kb, const CoeffRef &in, const CoeffRef &out, Value i, const APInt &c, int64_t L) {
  bool negative = c.isNegative();
  APInt mag = negative ? -c : c;
  kb.loop(L, [&](Value w) { kb.store(kb.c64(0), out, i, w); });
  for (int64_t v = 0; v < L && v < int64_t(mag.getNumWords()); ++v) {
    uint64_t word = mag.getRawData()[v];
    if (!word) continue;
    Value cw = kb.c64(int64_t(word)), off = kb.cidx(v);
    kb.loop(0, L - v, {kb.c64(0)}, [&](Value w, ValueRange carry) {
      Value dst = kb.add(w, off);
      auto [lo, hi] = kb.mulWide(kb.load(in, i, w), cw);
      auto [sum, o] = kb.addCarry(kb.load(out, i, dst), lo, carry[0]);
      kb.store(sum, out, i, dst);
      return SmallVector<Value>{kb.add(hi, o)};
    });
  }
  if (negative) addSub(kb, nullptr, out, out, i, L, true);
}

} // namespace

void emitShiftRight(KernelBuilder &kb, const CoeffRef &in, const CoeffRef &out, int64_t B, int64_t shift, int64_t Lin,
                    int64_t Lout) {
  int64_t W = kb.lanesFor(B, {in, out});
  kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i, ValueRange) {
    shiftRight(kb, in, out, i, shift, Lin, Lout, W);
    return SmallVector<Value>{};
  });
}

bool isBigIntBlockOp(Operation *op) {
  return isa<fhe::PolyAddOp, fhe::PolySubOp, fhe::PolyNegateOp, fhe::PolyShrOp, fhe::PolyReduceOp, fhe::PolyModRaiseOp,
             fhe::PolyAddScalarOp, fhe::PolyMulScalarOp>(op);
}

void emitBigIntBlock(KernelBuilder &kb, Operation *op, ArrayRef<CoeffRef> ins, const CoeffRef &out, int64_t B) {
  auto t = cast<fhe::PolyType>(op->getResult(0).getType());
  int64_t L = t.getLimbs();
  SmallVector<CoeffRef> refs(ins);
  refs.push_back(out);
  // Vectors of W coefficients with word-major (limb-major) operands; a
  // product by a constant (mulScalar) one coefficient at a time.
  int64_t W = isa<fhe::PolyMulScalarOp>(op) ? 1 : kb.lanesFor(B, refs);
  kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W), {}, [&](Value i, ValueRange) {
    llvm::TypeSwitch<Operation *>(op)
        .Case<fhe::PolyAddOp>([&](auto) { addSub(kb, &ins[0], ins[1], out, i, L, false, W); })
        .Case<fhe::PolySubOp>([&](auto) { addSub(kb, &ins[0], ins[1], out, i, L, true, W); })
        .Case<fhe::PolyNegateOp>([&](auto) { addSub(kb, nullptr, ins[0], out, i, L, true, W); })
        .Case<fhe::PolyShrOp>([&](fhe::PolyShrOp o) {
          shiftRight(kb, ins[0], out, i, o.getShift(), o.getInput().getType().getLimbs(), L, W, o.getRound());
        })
        .Case<fhe::PolyReduceOp>([&](auto) {
          kb.loop(L, [&](Value w) { kb.storeW(kb.loadW(ins[0], i, w, W), out, i, w); });
        })
        .Case<fhe::PolyModRaiseOp>([&](fhe::PolyModRaiseOp o) {
          signExtend(kb, ins[0], out, i, o.getInput().getType(), L, W);
        })
        .Case<fhe::PolyAddScalarOp>([&](fhe::PolyAddScalarOp o) { addScalar(kb, ins[0], out, i, o.getValue(), L, W); })
        .Case<fhe::PolyMulScalarOp>([&](fhe::PolyMulScalarOp o) { mulScalar(kb, ins[0], out, i, o.getValue(), L); })
        .Default([](Operation *) { llvm_unreachable("not a fusable BigInt op"); });
    maskTop(kb, out, i, t, W);
    return SmallVector<Value>{};
  });
}

namespace {

// x * c, one coefficient at a time (mulScalar); on GPU targets through a
// kernel of shared-memory tiles (emitCoefficientKernel), whose copies
// coalesce where a thread's own coefficient's limbs would not.
struct MulScalarLowering : KernelPattern<fhe::PolyMulScalarOp> {
  using KernelPattern::KernelPattern;
  LogicalResult matchAndRewrite(fhe::PolyMulScalarOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    KernelBuilder kb(rewriter, op.getLoc(), options);
    auto t = op.getResult().getType();
    Value outM = kb.alloc(kb.memrefOf(t));
    kb.phaseBegin(abi::Phase::Other);
    llvm::MapVector<Value, Value> memory;
    memory[op.getInput()] = adaptor.getInput();
    memory[op.getResult()] = outM;
    emitCoefficientKernel(kb, {op.getOperation()}, memory, t.getN(), 1);
    kb.phaseEnd(abi::Phase::Other);
    rewriter.replaceOp(op, outM);
    return success();
  }
};

// Copy, then add c (as L words of two's complement) to coefficient 0.
struct AddConstantTermLowering : KernelPattern<fhe::PolyAddConstantTermOp> {
  using KernelPattern::KernelPattern;
  LogicalResult matchAndRewrite(fhe::PolyAddConstantTermOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    KernelBuilder kb(rewriter, op.getLoc(), options);
    auto t = op.getResult().getType();
    int64_t L = t.getLimbs();
    APInt c = op.getValue().sextOrTrunc(unsigned(64 * L));
    Value outM = kb.alloc(kb.memrefOf(t));
    kb.phaseBegin(abi::Phase::Other);
    memref::CopyOp::create(rewriter, op.getLoc(), adaptor.getInput(), outM);
    // The constant's L words: its own few words, then the sign extension (an IR loop).
    Value words = kb.scratch({L});
    int64_t own = std::min<int64_t>(L, op.getValue().getNumWords());
    kb.loop(L, [&](Value w) { kb.store(kb.c64(c.isNegative() ? -1 : 0), words, {w}); });
    for (int64_t w = 0; w < own; ++w) kb.store(kb.c64(int64_t(c.getRawData()[w])), words, {kb.cidx(w)});
    CoeffRef out{outM, Value()};
    Value i = kb.cidx(0);
    kb.loop(0, L, {kb.c64(0)}, [&](Value w, ValueRange carry) {
      auto [s, o] = kb.addCarry(kb.load(out, i, w), kb.load(words, {w}), carry[0]);
      kb.store(s, out, i, w);
      return SmallVector<Value>{o};
    });
    maskTop(kb, out, i, t);
    kb.phaseEnd(abi::Phase::Other);
    rewriter.replaceOp(op, outM);
    return success();
  }
};

// A constant polynomial (an encoded plaintext): its coefficients, as W words
// of two's complement each, live in a constant global (one per distinct
// constant), and the kernel sign-extends them to the L limbs of the result
// and masks the top limb (mod 2^logq).
struct PolyConstantLowering : KernelPattern<fhe::PolyConstantOp> {
  using KernelPattern::KernelPattern;
  LogicalResult matchAndRewrite(fhe::PolyConstantOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    KernelBuilder kb(rewriter, op.getLoc(), options);
    auto t = op.getResult().getType();
    int64_t N = t.getN(), L = t.getLimbs();
    DenseIntElementsAttr value = op.getValue();
    unsigned width = value.getElementType().getIntOrFloatBitWidth();
    int64_t W = (width + 63) / 64;
    SmallVector<APInt> words;
    words.reserve(size_t(N * W));
    for (const APInt &c : value.getValues<APInt>()) {
      APInt x = c.sext(unsigned(64 * W));
      for (int64_t w = 0; w < W; ++w) words.push_back(x.extractBits(64, unsigned(64 * w)));
    }
    auto globalType = MemRefType::get({N, W}, rewriter.getI64Type());
    auto init = DenseIntElementsAttr::get(RankedTensorType::get({N, W}, rewriter.getI64Type()), words);
    // One global per distinct constant, named by its content (FNV-1a of the
    // words: stable across runs, unlike pointer hashes).
    auto module = op->getParentOfType<ModuleOp>();
    uint64_t h = 1469598103934665603ull;
    for (const APInt &w : words) h = (h ^ w.getZExtValue()) * 1099511628211ull;
    std::string name = "__fhec_plaintext_" + llvm::utohexstr(h ^ uint64_t(N * W));
    if (!module.lookupSymbol(name)) {
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      memref::GlobalOp::create(rewriter, op.getLoc(), name, rewriter.getStringAttr("private"), globalType, init,
                               /*constant=*/true, rewriter.getI64IntegerAttr(64));
    }
    Value global = memref::GetGlobalOp::create(rewriter, op.getLoc(), globalType, name);
    Value outM = kb.alloc(kb.memrefOf(t));
    CoeffRef in{global, Value()}, out{outM, Value()};
    kb.phaseBegin(abi::Phase::Other);
    forEachCoefficientBlock(kb, N, 1, [&](Value i) {
      Value sign = arith::ShRSIOp::create(kb.b, kb.loc, kb.load(in, i, kb.cidx(W - 1)), kb.c64(63));
      kb.loop(L, [&](Value w) {
        Value inRange = arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::ult, w, kb.cidx(W));
        Value clamped = arith::MinUIOp::create(kb.b, kb.loc, w, kb.cidx(W - 1));
        Value v = arith::SelectOp::create(kb.b, kb.loc, inRange, kb.load(in, i, clamped), sign);
        kb.store(v, out, i, w);
      });
      maskTop(kb, out, i, t);
    });
    kb.phaseEnd(abi::Phase::Other);
    rewriter.replaceOp(op, outM);
    return success();
  }
};

} // namespace

void populateBigIntPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<CoefficientOpLowering<fhe::PolyAddOp>, CoefficientOpLowering<fhe::PolySubOp>,
               CoefficientOpLowering<fhe::PolyNegateOp>, CoefficientOpLowering<fhe::PolyShrOp>,
               CoefficientOpLowering<fhe::PolyReduceOp>, CoefficientOpLowering<fhe::PolyModRaiseOp>,
               CoefficientOpLowering<fhe::PolyAddScalarOp>, MulScalarLowering, AddConstantTermLowering,
               PolyConstantLowering>(tc, ctx, o);
}

} // namespace fhec
