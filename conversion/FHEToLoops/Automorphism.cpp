// Automorphism kernels X -> X^g (slot rotation and conjugation; HEAAN 2.1's
// leftRotate and conjugate): a gather out[t] = +-in[i] with i g = t mod 2N.
// Output t reads i1 = t g^-1 mod 2N: coefficient i1 when i1 < N, else the
// negation of coefficient i1 - N (X^N = -1). On residues (fhe.automorphism)
// the negation is mod p_j, which gives the residues of HEAAN's signed
// automorphism (-x, not q - x); on BigInts (fhe.poly_automorphism) it is mod q.
// The product by a monomial X^k (fhe.poly_mul_monomial, HEAAN's
// multByMonomial) is the same gather with t reading t - k mod 2N.
// The index map is two integer operations per coefficient, not a table.
// In the evaluation domain (a complete NTT in bit-reversed order) the
// automorphism is a plain permutation of the slots: slot t (the value at
// psi^(2 brv(t) + 1)) reads slot brv(((2 brv(t) + 1) g mod 2N) >> 1). On
// CPUs, prime-major, both domains gather one prime row at a time
// (AutomorphismRows), the evaluation domain from the N slots' sources
// computed once; otherwise (GPUs) a block of slots from every prime row at a
// time. Rows kernels (Rows.cpp) take a row through the automorphism as one of
// their stages.
// On 8-lane targets the slots lie in the NTT's transposed order
// (nttTransposedOrder): slot positions are mapped to it and back.
#include "conversion/FHEToLoops/Ntt.h"
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

// For output coefficient t: (source index, negated as an i1), from
// i1 = t g^-1 - k mod 2N (X -> X^g, then times X^k; gInv or k absent: 1 or
// 0). g^-1 and k are kernel parameters: rotations by different amounts (or
// monomials of different degrees) share one kernel.
std::pair<Value, Value> source(KernelBuilder &kb, Value t, Value gInv, int64_t N, Value minusK = Value()) {
  Value i1 = gInv ? kb.mul(t, gInv) : t;
  if (minusK) i1 = kb.add(i1, minusK);
  i1 = kb.bitAnd(i1, kb.cidx(2 * N - 1));
  Value negated = arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::uge, i1, kb.cidx(N));
  return {kb.bitAnd(i1, kb.cidx(N - 1)), negated};
}

// Output coefficients per block of the coefficient loop.
constexpr int64_t kBlock = 64;

// The low `bits` bits of x (an i64) in reverse order: the swaps of halves,
// quarters, ... of a 64-bit word, then a shift.
Value bitReverse(KernelBuilder &kb, Value x, unsigned bits) {
  static const uint64_t masks[] = {0x5555555555555555ull, 0x3333333333333333ull, 0x0F0F0F0F0F0F0F0Full,
                                   0x00FF00FF00FF00FFull, 0x0000FFFF0000FFFFull, 0x00000000FFFFFFFFull};
  for (int s = 0; s < 6; ++s) {
    Value sh = kb.c64(int64_t(1) << s), m = kb.c64(int64_t(masks[s]));
    // Named steps: call arguments' evaluation order is unspecified, and the
    // IR must not depend on the compiler that built fhec.
    Value high = kb.bitAnd(kb.shr(x, sh), m);
    Value low = kb.shl(kb.bitAnd(x, m), sh);
    x = kb.bitOr(high, low);
  }
  return kb.shr(x, kb.c64(64 - int64_t(bits)));
}

// For evaluation-domain slot t (an i64): the slot phi_g moves to it.
Value evalSource(KernelBuilder &kb, Value t, Value g, unsigned logN) {
  Value r = bitReverse(kb, t, logN);
  Value e = kb.add(kb.shl(r, kb.c64(1)), kb.c64(1));  // 2 brv(t) + 1
  Value eg = kb.bitAnd(kb.mul(e, g), kb.c64((int64_t(2) << logN) - 1));
  return bitReverse(kb, kb.shr(eg, kb.c64(1)), logN);
}

// Position x (an i64) of the NTT's transposed order to the natural order, and
// back (an involution): within each group of 64, 8 e + b <-> 8 b + e.
Value transposedSlot(KernelBuilder &kb, Value x) {
  Value low = kb.bitAnd(x, kb.c64(7));
  Value mid = kb.bitAnd(kb.shr(x, kb.c64(3)), kb.c64(7));
  Value swapped = kb.bitOr(kb.shl(low, kb.c64(3)), mid);
  Value group = kb.bitAnd(x, kb.c64(~int64_t(63)));
  return kb.bitOr(group, swapped);
}

// The source (an i64) of evaluation-domain slot `at` (an index), in the
// NTT's transposed order on 8-lane targets.
Value slotSource(KernelBuilder &kb, Value at, Value g, unsigned logN, bool transposed) {
  Value slot = arith::IndexCastOp::create(kb.b, kb.loc, kb.b.getI64Type(), at);
  if (transposed) slot = transposedSlot(kb, slot);
  Value from = evalSource(kb, slot, g, logN);
  return transposed ? transposedSlot(kb, from) : from;
}

} // namespace

Value evalAutomorphismSource(KernelBuilder &kb, fhe::AutomorphismOp op, Value at) {
  auto t = op.getResult().getType();
  Value g = arith::IndexCastOp::create(kb.b, kb.loc, kb.b.getI64Type(), kb.kernelParam(op.getGalois()));
  Value from = slotSource(kb, at, g, t.getLogN(), nttTransposedOrder(*kb.options.target, t.getLogN()));
  return arith::IndexCastOp::create(kb.b, kb.loc, kb.b.getIndexType(), from);
}

namespace {

// Coefficient-domain output t of row j: +-x[j][i], negated mod p = p_j.
Value signedSource(KernelBuilder &kb, const CoeffRef &src, Value j, Value t, Value gInv, int64_t N, Value p) {
  auto [i, negated] = source(kb, t, gInv, N);
  Value x = kb.load(src, i, j);
  return arith::SelectOp::create(kb.b, kb.loc, negated, kb.modSub(kb.c64(0), x, p), x);
}

} // namespace

// The evaluation domain's slot sources once (an N-word buffer; slot t reads
// slot sources[t] of its row), or the coefficient domain's g^-1 and primes.
AutomorphismRows::AutomorphismRows(KernelBuilder &kb, fhe::AutomorphismOp op, Value in, Value out)
    : kb(kb), in(in), out(out) {
  auto t = op.getResult().getType();
  N = t.getN();
  if (t.getDomain() != fhe::Domain::eval) {
    gInv = kb.kernelParam(inverseMod2N(op.getGalois(), t.getLogN()));
    consts = kb.table(abi::TableKind::PrimeConsts, t.getBasis(), 0, t.getLogN());
    return;
  }
  int64_t B = std::min(kBlock, N);
  Value g = kb.kernelParam(op.getGalois());
  Value gI64 = arith::IndexCastOp::create(kb.b, kb.loc, kb.b.getI64Type(), g);
  bool transposed = nttTransposedOrder(*kb.options.target, t.getLogN());
  sources = kb.alloc(MemRefType::get({N}, kb.b.getI64Type()));
  kb.parallel({N / B}, [&](ValueRange iv) {
    Value t0 = kb.mul(iv[0], kb.cidx(B));
    kb.loop(B, [&](Value dt) {
      Value at = kb.add(t0, dt);
      kb.store(slotSource(kb, at, gI64, t.getLogN(), transposed), sources, {at});
    });
  });
}

// Row j, a cache line of outputs at a time; with `next`, that row of the
// input is prefetched into L2 meanwhile, so that the next row's gather hits
// L2 instead of memory. Measured at N = 2^16, 73 primes, Zen 4, one
// rotation: 4.5 ms instead of 13.5 ms (evaluation domain), 5.6-7.5 instead
// of 21 ms (coefficient domain) against a gather of a block of slots from
// every row at a time.
void AutomorphismRows::row(Value j, Value next) {
  const int64_t line = std::min<int64_t>(8, N);  // words per cache line
  CoeffRef src{in, Value(), true}, dst{out, Value(), true};
  Value p = sources ? Value() : kb.tableAt(consts, j, abi::kPrime);
  kb.loop(kb.cidx(0), kb.cidx(N), kb.cidx(line), {}, [&](Value t0, ValueRange) {
    if (next) kb.prefetch(in, {next, t0}, /*locality=*/2);
    kb.loop(line, [&](Value dt) {
      Value t = kb.add(t0, dt), x;
      if (sources)
        x = kb.load(src, arith::IndexCastOp::create(kb.b, kb.loc, kb.b.getIndexType(), kb.load(sources, {t})), j);
      else
        x = signedSource(kb, src, j, t, gInv, N, p);
      kb.store(x, dst, t, j);
    });
    return SmallVector<Value>{};
  });
}

namespace {

struct AutomorphismLowering : KernelPattern<fhe::AutomorphismOp> {
  using KernelPattern::KernelPattern;
  LogicalResult matchAndRewrite(fhe::AutomorphismOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    KernelBuilder kb(rewriter, op.getLoc(), options);
    auto t = op.getResult().getType();
    // On a GPU one thread per slot: a warp's stores are consecutive words of
    // each prime row, and the slot's source stays in a register.
    int64_t N = t.getN(), B = kb.options.target->gpu ? 1 : std::min(kBlock, N);
    Value m = kb.primeCount(t.getBasis());
    bool primeMajor = t.getLayout() == fhe::Layout::prime_major;
    Value out = kb.alloc(kb.memrefOf(t));
    kb.phaseBegin(abi::Phase::Other);
    if (!kb.options.target->gpu && primeMajor) {
      // One prime row at a time, the next one prefetched.
      AutomorphismRows rows(kb, op, adaptor.getInput(), out);
      kb.parallel(ValueRange{m}, [&](ValueRange iv) {
        // (Named operands: the IR must not depend on the compiler's argument order.)
        Value after = kb.add(iv[0], kb.cidx(1)), last = kb.sub(m, kb.cidx(1));
        rows.row(iv[0], arith::MinUIOp::create(kb.b, kb.loc, after, last));
      });
    } else if (t.getDomain() == fhe::Domain::eval) {
      // A block of slots from every prime row at a time.
      Value g = kb.kernelParam(op.getGalois());
      Value gI64 = arith::IndexCastOp::create(kb.b, kb.loc, kb.b.getI64Type(), g);
      bool transposed = nttTransposedOrder(*kb.options.target, t.getLogN());
      forEachCoefficientBlock(kb, N, B, [&](Value t0) {
        CoeffRef src{adaptor.getInput(), Value(), primeMajor}, dst{out, t0, primeMajor};
        if (B == 1) {
          Value from = arith::IndexCastOp::create(kb.b, kb.loc, kb.b.getIndexType(),
                                                  slotSource(kb, t0, gI64, t.getLogN(), transposed));
          kb.loop(kb.cidx(0), m, [&](Value j) { kb.store(kb.load(src, from, j), dst, kb.cidx(0), j); });
          return;
        }
        Value sources = kb.scratch({B});
        kb.loop(B, [&](Value dt) {
          kb.store(slotSource(kb, kb.add(t0, dt), gI64, t.getLogN(), transposed), sources, {dt});
        });
        kb.loop(kb.cidx(0), m, [&](Value j) {
          kb.loop(B, [&](Value dt) {
            Value from = arith::IndexCastOp::create(kb.b, kb.loc, kb.b.getIndexType(), kb.load(sources, {dt}));
            kb.store(kb.load(src, from, j), dst, dt, j);
          });
        });
      });
    } else {
      Value gInv = kb.kernelParam(inverseMod2N(op.getGalois(), t.getLogN()));
      Value consts = kb.table(abi::TableKind::PrimeConsts, t.getBasis(), 0, t.getLogN());
      forEachCoefficientBlock(kb, N, B, [&](Value t0) {
        CoeffRef src{adaptor.getInput(), Value(), primeMajor}, dst{out, t0, primeMajor};
        kb.loop(kb.cidx(0), m, [&](Value j) {
          Value p = kb.tableAt(consts, j, abi::kPrime);
          kb.loop(B, [&](Value dt) { kb.store(signedSource(kb, src, j, kb.add(t0, dt), gInv, N, p), dst, dt, j); });
        });
      });
    }
    kb.phaseEnd(abi::Phase::Other);
    rewriter.replaceOp(op, out);
    return success();
  }
};

// out[t] = +-in[i] over the N coefficients of a BigInt polynomial of type
// t, (i, sign) from `source` with gInv and minusK.
Value emitPolyGather(KernelBuilder &kb, fhe::PolyType t, Value input, Value gInv, Value minusK) {
  int64_t N = t.getN(), L = t.getLimbs(), B = kb.options.target->gpu ? 1 : std::min(kBlock, N);
  unsigned topBits = t.getLogq() % 64;
  Value out = kb.alloc(kb.memrefOf(t));
  kb.phaseBegin(abi::Phase::Other);
  forEachCoefficientBlock(kb, N, B, [&](Value t0) {
    CoeffRef src{input, Value()}, dst{out, t0};
    kb.loop(B, [&](Value dt) {
      std::pair<Value, Value> from = source(kb, kb.add(t0, dt), gInv, N, minusK);
      Value i = from.first, negated = from.second;
      // q - x as 0 - x over L words (mod 2^(64 L)), then the top limb masked;
      // x itself when not negated (a mask of all zeros or all ones).
      Value mask = arith::ExtSIOp::create(kb.b, kb.loc, kb.b.getI64Type(), negated);
      kb.loop(0, L, {kb.c64(0)}, [&](Value w, ValueRange borrow) {
        Value x = kb.load(src, i, w);
        Value neg, nextBorrow;
        std::tie(neg, nextBorrow) = kb.subBorrow(kb.c64(0), x, borrow[0]);
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
  return out;
}

// The signed gathers on BigInt coefficients: fhe.poly_automorphism (X -> X^g)
// and fhe.poly_mul_monomial (times X^k: t reads t - k).
struct PolyAutomorphismLowering : KernelPattern<fhe::PolyAutomorphismOp> {
  using KernelPattern::KernelPattern;
  LogicalResult matchAndRewrite(fhe::PolyAutomorphismOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    KernelBuilder kb(rewriter, op.getLoc(), options);
    Value gInv = kb.kernelParam(inverseMod2N(op.getGalois(), op.getResult().getType().getLogN()));
    rewriter.replaceOp(op, emitPolyGather(kb, op.getResult().getType(), adaptor.getInput(), gInv, Value()));
    return success();
  }
};

struct PolyMulMonomialLowering : KernelPattern<fhe::PolyMulMonomialOp> {
  using KernelPattern::KernelPattern;
  LogicalResult matchAndRewrite(fhe::PolyMulMonomialOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    KernelBuilder kb(rewriter, op.getLoc(), options);
    auto t = op.getResult().getType();
    Value minusK = kb.kernelParam((2 * t.getN() - op.getK()) % (2 * t.getN()));
    rewriter.replaceOp(op, emitPolyGather(kb, t, adaptor.getInput(), Value(), minusK));
    return success();
  }
};

} // namespace

void populateAutomorphismPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  patterns.add<AutomorphismLowering, PolyAutomorphismLowering, PolyMulMonomialLowering>(tc, patterns.getContext(), o);
}

} // namespace fhec
