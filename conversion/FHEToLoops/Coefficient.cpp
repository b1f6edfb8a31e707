// Coefficient-space kernels: the ops that work on whole coefficients (CRT,
// iCRT, the BigInt chains) are emitted one block of B coefficients at a time.
// A single op is one parallel loop over blocks; an fhe.fused coefficient
// kernel runs its whole chain on each block, keeping the intermediates in a
// block-local scratch so they never go to memory (Jung et al. 2021,
// Section IV: region 1's iCRT of axax feeding region 2's CRT while the
// BigInt is in cache; the closing shift/add/rescale chain in one pass).
#include "conversion/FHEToLoops/Patterns.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace fhec {

int64_t coefficientBlock(Operation *op, int64_t N) {
  int64_t B = 1;
  if (auto f = dyn_cast<fhe::FusedOp>(op)) {
    for (Operation &inner : f.getBody()->without_terminator()) B = std::max(B, coefficientBlock(&inner, N));
  } else if (auto attr = op->getAttrOfType<IntegerAttr>("block")) {
    B = attr.getInt();
  }
  // A power of two no larger than N, so blocks tile the coefficients exactly.
  B = std::min<int64_t>(B, N);
  return int64_t(1) << llvm::Log2_64(uint64_t(B));
}

void forEachCoefficientBlock(KernelBuilder &kb, int64_t N, int64_t B, function_ref<void(Value)> body) {
  kb.parallel({N}, [&](ValueRange iv) { body(iv[0]); }, {B});
}

void emitCoefficientBlock(KernelBuilder &kb, Operation *op, ArrayRef<CoeffRef> ins, const CoeffRef &out, int64_t B) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<fhe::CrtOp>([&](fhe::CrtOp o) { emitCrtBlock(kb, o, ins[0], out, B); })
      .Case<fhe::IcrtOp>([&](fhe::IcrtOp o) { emitIcrtBlock(kb, o, ins[0], out, B); })
      .Default([&](Operation *o) { emitBigIntBlock(kb, o, ins, out, B); });
}

namespace {

struct FusedCoefficientLowering : KernelPattern<fhe::FusedOp> {
  using KernelPattern::KernelPattern;

  LogicalResult matchAndRewrite(fhe::FusedOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    if (op.getSpace() != fhe::Space::coefficient) return failure();
    KernelBuilder kb(rewriter, op.getLoc(), options);
    Block &body = *op.getBody();
    SmallVector<Value> yielded(op.getYield().getValues());
    llvm::DenseMap<Value, Value> outBuf;
    for (Value y : yielded)
      if (!outBuf.count(y)) outBuf[y] = kb.alloc(memrefFor(y.getType()));
    unsigned logN = 0;
    for (Type t : op.getResultTypes())
      logN = isa<fhe::PolyType>(t) ? cast<fhe::PolyType>(t).getLogN() : cast<fhe::RnsType>(t).getLogN();
    int64_t N = int64_t(1) << logN, B = coefficientBlock(op, N);
    auto isPrimeMajor = [](Type t) {
      auto r = dyn_cast<fhe::RnsType>(t);
      return r && r.getLayout() == fhe::Layout::prime_major;
    };
    kb.phaseBegin(phaseOf(op));
    forEachCoefficientBlock(kb, N, B, [&](Value i0) {
      llvm::DenseMap<Value, CoeffRef> refs;
      for (auto [a, mem] : llvm::zip(body.getArguments(), adaptor.getInputs()))
        refs[a] = CoeffRef{mem, i0, isPrimeMajor(a.getType())};
      for (auto &[v, mem] : outBuf) refs[v] = CoeffRef{mem, i0, isPrimeMajor(v.getType())};
      for (Operation &inner : body.without_terminator()) {
        Value res = inner.getResult(0);
        if (!refs.count(res)) {
          // Intermediate: (B, limbs) words of BigInt or (B, m) residues, on the stack.
          int64_t cols = isa<fhe::PolyType>(res.getType())
                             ? int64_t(cast<fhe::PolyType>(res.getType()).getLimbs())
                             : int64_t(cast<fhe::RnsType>(res.getType()).getBasis().size());
          refs[res] = CoeffRef{kb.scratch({B, cols}), Value(), false};
        }
        SmallVector<CoeffRef> ins;
        for (Value v : inner.getOperands()) ins.push_back(refs.at(v));
        emitCoefficientBlock(kb, &inner, ins, refs.at(res), B);
      }
    });
    kb.phaseEnd(phaseOf(op));
    SmallVector<Value> repl;
    for (Value y : yielded) repl.push_back(outBuf.at(y));
    rewriter.replaceOp(op, repl);
    return success();
  }

};

} // namespace

void populateCoefficientKernelPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  patterns.add<FusedCoefficientLowering>(tc, patterns.getContext(), o);
}

} // namespace fhec
