// Automorphism kernels X -> X^g (slot rotation and conjugation; HEAAN 2.1's
// leftRotate and conjugate): a gather out[t] = +-in[i] with i g = t mod 2N.
// Output t reads i1 = t g^-1 mod 2N: coefficient i1 when i1 < N, else the
// negation of coefficient i1 - N (X^N = -1). On residues (fhe.automorphism)
// the negation is mod p_j, which gives the residues of HEAAN's signed
// automorphism (-x, not q - x); on BigInts (fhe.poly_automorphism) it is mod q.
// The index map is two integer operations per coefficient, not a table.
#include "conversion/FHEToLoops/Patterns.h"

using namespace mlir;

namespace fhec {

namespace {

// g^-1 mod 2N (g odd; 2N a power of two: Newton's iteration doubles the bits).
int64_t inverseMod2N(int64_t g, unsigned logN) {
  uint64_t x = uint64_t(g);  // correct to 3 bits
  for (int i = 0; i < 6; ++i) x *= 2 - uint64_t(g) * x;
  return int64_t(x & ((uint64_t(2) << logN) - 1));
}

// For output coefficient t: (source index, negated as an i1). g^-1 is a
// kernel parameter: rotations by different amounts share one kernel.
std::pair<Value, Value> source(KernelBuilder &kb, Value t, Value gInv, int64_t N) {
  Value i1 = kb.bitAnd(kb.mul(t, gInv), kb.cidx(2 * N - 1));
  Value negated = arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::uge, i1, kb.cidx(N));
  return {kb.bitAnd(i1, kb.cidx(N - 1)), negated};
}

// Output coefficients per block of the coefficient loop.
constexpr int64_t kBlock = 64;

struct AutomorphismLowering : KernelPattern<fhe::AutomorphismOp> {
  using KernelPattern::KernelPattern;
  LogicalResult matchAndRewrite(fhe::AutomorphismOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    KernelBuilder kb(rewriter, op.getLoc(), options);
    auto t = op.getResult().getType();
    int64_t N = t.getN(), B = std::min(kBlock, N);
    Value m = kb.primeCount(t.getBasis());
    Value gInv = kb.kernelParam(inverseMod2N(op.getGalois(), t.getLogN()));
    bool primeMajor = t.getLayout() == fhe::Layout::prime_major;
    Value out = kb.alloc(memrefFor(t));
    Value consts = kb.table(abi::TableKind::PrimeConsts, t.getBasis(), 0, t.getLogN());
    kb.phaseBegin(abi::Phase::Other);
    forEachCoefficientBlock(kb, N, B, [&](Value t0) {
      CoeffRef src{adaptor.getInput(), Value(), primeMajor}, dst{out, t0, primeMajor};
      kb.loop(kb.cidx(0), m, [&](Value j) {
        Value p = kb.tableAt(consts, j, abi::kPrime);
        kb.loop(B, [&](Value dt) {
          auto [i, negated] = source(kb, kb.add(t0, dt), gInv, N);
          Value x = kb.load(src, i, j);
          Value v = arith::SelectOp::create(kb.b, kb.loc, negated, kb.modSub(kb.c64(0), x, p), x);
          kb.store(v, dst, dt, j);
        });
      });
    });
    kb.phaseEnd(abi::Phase::Other);
    rewriter.replaceOp(op, out);
    return success();
  }
};

struct PolyAutomorphismLowering : KernelPattern<fhe::PolyAutomorphismOp> {
  using KernelPattern::KernelPattern;
  LogicalResult matchAndRewrite(fhe::PolyAutomorphismOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    KernelBuilder kb(rewriter, op.getLoc(), options);
    auto t = op.getResult().getType();
    int64_t N = t.getN(), L = t.getLimbs(), B = std::min(kBlock, N);
    Value gInv = kb.kernelParam(inverseMod2N(op.getGalois(), t.getLogN()));
    unsigned topBits = t.getLogq() % 64;
    Value out = kb.alloc(memrefFor(t));
    kb.phaseBegin(abi::Phase::Other);
    forEachCoefficientBlock(kb, N, B, [&](Value t0) {
      CoeffRef src{adaptor.getInput(), Value()}, dst{out, t0};
      kb.loop(B, [&](Value dt) {
        auto [i, negated] = source(kb, kb.add(t0, dt), gInv, N);
        // q - x as 0 - x over L words (mod 2^(64 L)), then the top limb masked;
        // x itself when not negated (a mask of all zeros or all ones).
        Value mask = arith::ExtSIOp::create(kb.b, kb.loc, kb.b.getI64Type(), negated);
        kb.loop(0, L, {kb.c64(0)}, [&](Value w, ValueRange borrow) {
          Value x = kb.load(src, i, w);
          auto [neg, nextBorrow] = kb.subBorrow(kb.c64(0), x, borrow[0]);
          Value v = kb.bitOr(kb.bitAnd(neg, mask), kb.bitAnd(x, arith::XOrIOp::create(kb.b, kb.loc, mask, kb.c64(-1))));
          kb.store(v, dst, dt, w);
          return SmallVector<Value>{nextBorrow};
        });
        if (topBits) {
          Value top = kb.cidx(L - 1);
          kb.store(kb.bitAnd(kb.load(dst, dt, top), kb.c64(int64_t((uint64_t(1) << topBits) - 1))), dst, dt, top);
        }
      });
    });
    kb.phaseEnd(abi::Phase::Other);
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void populateAutomorphismPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  patterns.add<AutomorphismLowering, PolyAutomorphismLowering>(tc, patterns.getContext(), o);
}

} // namespace fhec
