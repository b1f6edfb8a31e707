// iCRT (Jung et al. 2021, Algo. 5 and 6): residues back to BigInt coefficients
// mod 2^logq. temp_j = x_j (P/p_j)^-1 mod p_j (skipped for a coeff_scaled
// input, whose iNTT applied the factor and left temp_j in [0, 2 p_j)),
// X = sum_j temp_j (P/p_j) - k P with k = round(sum_j temp_j / p_j) computed
// in double precision; any representative temp_j < 2 p_j gives the same X.
//
// Exactness of k: sum_j temp_j (P/p_j) = P f with f = sum_j temp_j / p_j, and
// the centered value X = P (f - k) satisfies |X| < P/16 by the basis bound
// (passes/Bounds.h), so f lies within 1/16 of the integer k (k <= 2m). Each
// term temp_j / p_j < 2 is computed as double(temp_j) * double(1/p_j) with
// relative error below 3 * 2^-53, and the m-term sum adds at most 2m 2^-53
// per term, so |f~ - f| < 2m (m + 3) 2^-53 < 7/16 for any m below 2^23:
// round(f~) = k.
#include "conversion/FHEToLoops/Patterns.h"

#include "fhec/runtime/BigPoly.h"
#include "fhec/runtime/Tables.h"

using namespace mlir;

namespace fhec {

namespace {

void addPowerOfTwo(KernelBuilder &kb, const CoeffRef &x, int64_t B, int64_t bit, int64_t L);

// The double v in W lanes (a scalar for W = 1).
Value f64Splat(KernelBuilder &kb, double v, int64_t W) {
  OpBuilder &b = kb.b;
  if (W == 1) return arith::ConstantOp::create(b, kb.loc, b.getF64FloatAttr(v));
  auto t = VectorType::get({W}, b.getF64Type());
  return arith::ConstantOp::create(b, kb.loc, DenseElementsAttr::get(t, b.getF64FloatAttr(v)));
}

// X mod 2^logq of a block: the bits above logq in the top limb cleared.
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

// Normalized D-bit columns (a (Dq, B) scratch) to the result's Lq limbs:
// limb w is bits [shift + 64 w, shift + 64 w + 64), from column
// (shift + 64 w) / D on (static shifts).
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

struct IcrtContext {
  KernelBuilder &kb;
  fhe::IcrtOp op;
  fhe::BasisAttr basis;
  bool scaled;
  int64_t m, Lq;
  unsigned logN;
  Value consts;
  CoeffRef addend;  ///< the `addend` operand's block (mem null without one)

  // e mod p_j of the addend's coefficients i .. i + W - 1: its limb read as
  // a signed integer of its logq bits (|e| < 2^29 < p_j), plus p_j if negative.
  Value addendResidue(Value i, Value p, int64_t W) {
    OpBuilder &b = kb.b;
    int64_t bits = cast<fhe::PolyType>(op.getAddend().getType()).getLogq();
    Value up = kb.constW(64 - bits, W);
    Value e = arith::ShRSIOp::create(b, kb.loc, kb.shl(kb.loadW(addend, i, kb.cidx(0), W), up), up);
    Value negative = arith::ShRSIOp::create(b, kb.loc, e, kb.constW(63, W));
    return kb.add(e, kb.bitAnd(negative, p));
  }

  // temp_j of residues x of coefficients i .. i + W - 1: x (P/p_j)^-1 mod
  // p_j, or x itself for a coeff_scaled input (in [0, 2p) then); with an
  // addend e, that of x + e mod p_j.
  Value tempOf(Value x, Value i, Value inv, Value invShoup, Value p, int64_t W) {
    if (!addend.mem) return scaled ? x : kb.mulShoup(x, inv, invShoup, p);
    Value ej = addendResidue(i, p, W);
    if (!scaled) return kb.mulShoup(kb.modAdd(x, ej, p), inv, invShoup, p);
    // temp in [0, 2p) plus e_j (P/p_j)^-1 in [0, p): back to [0, 2p).
    return kb.reduce(kb.add(x, kb.mulShoup(ej, inv, invShoup, p)), p, 4, 2);
  }

  // temp_j of coefficient i and its contribution to f.
  std::pair<Value, Value> temp(const CoeffRef &in, Value i, Value j) {
    Value x = kb.load(in, i, j);
    Value t = tempOf(x, i, kb.tableAt(consts, j, abi::kIcrtInv), kb.tableAt(consts, j, abi::kIcrtInvShoup),
                     kb.tableAt(consts, j, abi::kPrime), 1);
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
  void matrix(const CoeffRef &in, const CoeffRef &out, int64_t B, int64_t shiftBits, int64_t roundBit,
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

  // Algo. 6 over D-bit digits (D < 64, IFMA's 52), W coefficients per vector:
  // column c of X mod 2^(D Dq) is sum_j temp_j T_j[c] + k negP[c], with
  // T_j = P/p_j and negP = -P mod 2^(D Dq) in base 2^D (adding k negP
  // subtracts k P, no borrows). The low and high halves of the digit products
  // accumulate lazily in 64-bit lanes (m + 1 terms below 2^52 each: temp_j <
  // 2 p_j < 2^51 and k <= 2m), and one
  // carry pass per group normalizes the columns; the digits are then repacked
  // into the 64-bit limbs of the result, from bit `shift` on.
  //
  // With a shift, the columns start two guard digits below the first one the
  // result needs, at cLo, ignoring the carry C from the columns below. Those
  // sum to less than (m + 1) 2^D 2^(D cLo) (m products t_j T_j below
  // 2^D 2^(D cLo) each, and k <= 2m times negP), so C < (m + 1) 2^D and it
  // changes a digit at cLo + 2 or above only if the two guard digits d0 + d1
  // 2^D reach 2^(2D) - (m + 1) 2^D, which needs d1 >= 2^D - (m + 1): then
  // (with probability about m 2^-D per coefficient) the vector's columns are
  // redone from column 0, exactly. (D is the columns' width here: 51 in
  // Winograd's form below, where temp_j < 2^51 keeps every bound.)
  //
  // On IFMA the columns use Winograd's inner-product form (as the CRT does,
  // Crt.cpp): with columns of Dc = D - 1 = 51 bits and temp_j < 2^51, a temp
  // plus a column digit stays below 2^52, and for each column c
  //   sum_j temp_j T_j[c] = sum_{j even} (temp_j + T_j+1[c]) (temp_j+1 + T_j[c])
  //                         - A - B_c
  // with A = sum_{j even} temp_j temp_j+1 per coefficient (once for all
  // columns) and B_c = sum_{j even} T_j[c] T_j+1[c] per column (IcrtWinograd
  // table); an odd m's last prime is a plain term. One IFMA product pair per
  // two primes instead of two. The accumulators' words are then signed (their
  // column sums are not), and a product's high half, in units of 2^52, counts
  // twice in the next column of 2^51.
  //
  // On a GPU (one coefficient per thread) nothing is kept per thread in
  // memory: a column group after the first reloads the input rows (coalesced
  // across the warp, from L1/L2) and recomputes temp_j, and the 32-bit
  // digits become the result's 64-bit limbs as they are produced, from a
  // window of the last three, so neither the (m) temps nor the (Dq) digits
  // live in local memory. The input is then read after limbs of the result
  // were stored: the two never share memory (a kernel's result has a buffer
  // of its own in the workspace plan, a fused intermediate its own scratch).
  void digitMatrix(const CoeffRef &in, const CoeffRef &out, int64_t B, unsigned D, int64_t shiftBits,
                   bool exactAlways) {
    bool winograd = kb.options.target->ifma && basis.getPrimeBits() <= 50 && m <= 512;
    unsigned Dc = winograd ? D - 1 : D;  // bits per column
    int64_t Dq = (shiftBits + Lq * 64 + Dc - 1) / Dc;
    int64_t cLo = shiftBits ? std::max<int64_t>(0, shiftBits / Dc - 2) : 0;
    int64_t W = kb.lanesFor(B, {in, out});
    // Column c's digit of P/p_j, of -P, and (Winograd) the words of B_c.
    Value T, negP, wino;
    if (winograd) {
      wino = kb.table(abi::TableKind::IcrtWinograd, basis, Dq, logN);
    } else {
      T = kb.table(abi::TableKind::IcrtColumns, basis, Dq, logN);
      negP = kb.table(abi::TableKind::IcrtNegP, basis, Dq, logN);
    }
    auto columnDigit = [&](Value c, Value j) { return winograd ? kb.load(wino, {c, j}) : kb.load(T, {c, j}); };
    auto negPDigit = [&](Value c) {
      return winograd ? kb.load(wino, {c, kb.cidx(m + 2)}) : kb.load(negP, {kb.cidx(0), c});
    };
    int64_t pairs = winograd ? m / 2 : 0;
    bool gpu = kb.options.target->gpu;
    bool streamLimbs = gpu && Dc == 32 && !winograd;
    Value tempBuf = gpu ? Value() : kb.scratch({m, B});
    Value digits = streamLimbs ? Value() : kb.scratch({Dq, B});
    // Streamed limbs: limb w is digits s0 + 2w .. s0 + 2w + 2 (the last one
    // only with limbOff > 0), shifted right by limbOff; it is stored once its
    // last digit, column s0 + 2w + last, is known.
    int64_t s0 = shiftBits / 32, limbOff = shiftBits % 32, last = limbOff ? 2 : 1;
    SmallVector<Value> guard;  // digit cLo + 1 of each vector, from the first pass
    // Winograd: A of each coefficient (low and high words).
    Value corr = winograd ? kb.scratch({2, B}) : Value();
    OpBuilder &b = kb.b;
    auto f64W = W == 1 ? Type(b.getF64Type()) : Type(VectorType::get({W}, b.getF64Type()));
    auto i64W = kb.wordType(W);
    Value mask = kb.constW(int64_t((uint64_t(1) << Dc) - 1), W), shift = kb.constW(Dc, W);
    auto fconst = [&](double v) { return f64Splat(kb, v, W); };
    // V vectors of W coefficients per pass: their temp_j / p_j sums are
    // independent floating-point chains, and below 2 C V independent digit
    // accumulators hide the IFMA latency (one lo/hi pair per column would
    // serialize on it). On a GPU, 4 columns per group: the paper-size iCRT
    // kernels then take 62-64 registers (50% occupancy) against 73-74 with 8.
    int64_t V = std::max<int64_t>(1, std::min<int64_t>(B / W, 2));
    int64_t C = gpu ? 4 : std::max<int64_t>(1, 8 / V);
    Value zero = kb.constW(0, W);
    kb.loop(kb.cidx(0), kb.cidx(B), kb.cidx(W * V), {}, [&](Value i0, ValueRange) {
      SmallVector<Value> at;  // first coefficient of each vector
      guard.clear();
      for (int64_t v = 0; v < V; ++v) at.push_back(kb.add(i0, kb.cidx(v * W)));
      // Row j of the block: temp_j (stored for the later column groups and
      // the redo; a GPU recomputes it there) and its contribution to the estimates f of the multiples k
      // of P. The first column group does this inside its multiply-accumulate
      // loop, so that the loads of the m prime rows overlap IFMA work
      // (measured on Zen 4: -1.4 ms iCRT in HE Mul against a separate loop).
      // temp_j of vector v, from the input row.
      auto tempAt = [&](Value j, int64_t v) {
        auto row = [&](int col) { return kb.splat(kb.tableAt(consts, j, col), W); };
        return tempOf(kb.loadW(in, at[v], j, W), at[v], row(abi::kIcrtInv), row(abi::kIcrtInvShoup),
                      row(abi::kPrime), W);
      };
      auto gatherRow = [&](Value j, ValueRange f, SmallVectorImpl<Value> &t, SmallVectorImpl<Value> &fNext) {
        Value invp = arith::BitcastOp::create(b, kb.loc, f64W, kb.splat(kb.tableAt(consts, j, abi::kInvPrimeF64), W));
        for (int64_t v = 0; v < V; ++v) {
          t.push_back(tempAt(j, v));
          if (tempBuf) kb.storeW(t.back(), tempBuf, {j, at[v]});
          Value tf = arith::UIToFPOp::create(b, kb.loc, f64W, t.back());
          fNext.push_back(arith::AddFOp::create(b, kb.loc, f[v], arith::MulFOp::create(b, kb.loc, tf, invp)));
        }
      };
      SmallVector<Value> kv;  // k of each vector, set by the first column group
      // A block reads one short run from each of the m prime rows, more
      // streams than the hardware prefetchers follow: row j of the block
      // four ahead is fetched into L2 while the first group of columns
      // reads row j of this one, spread over its multiply-accumulates
      // (measured on Zen 4 with rows padded by three cache lines: -8% iCRT
      // time against the same prefetches in a separate loop over the rows;
      // fetching the next block into L1 as well, or farther ahead, gains
      // nothing). Not on a GPU, where a warp's 32 threads read the row together.
      auto prefetchRow = [&](Value j) {
        if (!in.base || !in.wordMajor || kb.options.target->gpu) return;
        int64_t N = cast<MemRefType>(in.mem.getType()).getShape()[1];
        for (int64_t v = 0; v < V; ++v) {
          Value ahead = kb.add(kb.coeffIndex(in, at[v]), kb.cidx(4 * B));
          kb.prefetch(in.mem, {j, arith::MinUIOp::create(b, kb.loc, ahead, kb.cidx(N - 1))}, /*locality=*/2);
        }
      };
      // Columns c0 .. c0 + n - 1; state: each vector's carry and previous
      // column's high halves. `first`: the block's first group, which reads
      // the rows, sets kv and prefetches the block four ahead.
      auto columns = [&](Value c0, int64_t n, ValueRange state, bool first) {
        SmallVector<Value> col;
        for (int64_t c = 0; c < n; ++c) col.push_back(kb.add(c0, kb.cidx(c)));
        SmallVector<Value> init(2 * n * V, zero);
        if (winograd) {
          // -B_c, and -A where it is known (the first group accumulates it).
          for (int64_t c = 0; c < n; ++c) {
            Value bLo = kb.splat(kb.load(wino, {col[c], kb.cidx(m)}), W);
            Value bHi = kb.splat(kb.load(wino, {col[c], kb.cidx(m + 1)}), W);
            for (int64_t v = 0; v < V; ++v) {
              int64_t x = 2 * (c * V + v);
              init[x] = kb.sub(zero, bLo);
              init[x + 1] = kb.sub(zero, bHi);
              if (first) continue;
              init[x] = kb.sub(init[x], kb.loadW(corr, {kb.cidx(0), at[v]}, W));
              init[x + 1] = kb.sub(init[x + 1], kb.loadW(corr, {kb.cidx(1), at[v]}, W));
            }
          }
        }
        if (op.getRound()) {
          // round: 2^(shift - 1) joins the column holding that bit (at or
          // above cLo + 1, so the guard digits' argument is unchanged).
          int64_t bit = shiftBits - 1;
          Value one = kb.c64(int64_t(1) << (bit % Dc));
          for (int64_t c = 0; c < n; ++c) {
            Value here = arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::eq, col[c], kb.cidx(bit / Dc));
            Value r = kb.splat(arith::SelectOp::create(b, kb.loc, here, one, kb.c64(0)), W);
            for (int64_t v = 0; v < V; ++v) init[2 * (c * V + v)] = kb.add(init[2 * (c * V + v)], r);
          }
        }
        int64_t extra = first ? V * (winograd ? 3 : 1) : 0;  // f, and A's words
        for (int64_t e = 0; e < extra; ++e) init.push_back(e < V ? fconst(0.0) : zero);
        // temp_j of each vector: gathered (first group), from tempBuf, or
        // (GPU) recomputed from the input row.
        auto temps = [&](Value j, ValueRange a, SmallVectorImpl<Value> &next) {
          SmallVector<Value> t;
          if (first) {
            prefetchRow(j);
            SmallVector<Value> fNext;
            gatherRow(j, a.slice(2 * n * V, V), t, fNext);
            for (int64_t v = 0; v < V; ++v) next[2 * n * V + v] = fNext[v];
          } else if (tempBuf) {
            for (int64_t v = 0; v < V; ++v) t.push_back(kb.loadW(tempBuf, {j, at[v]}, W));
          } else {
            for (int64_t v = 0; v < V; ++v) t.push_back(tempAt(j, v));
          }
          return t;
        };
        // Plain terms temp_j T_j[c] of primes j..
        auto plainTerms = [&](Value j, ValueRange a) {
          SmallVector<Value> next(a);
          SmallVector<Value> t = temps(j, a, next);
          for (int64_t c = 0; c < n; ++c) {
            Value s = kb.splat(columnDigit(col[c], j), W);
            for (int64_t v = 0; v < V; ++v) {
              int64_t x = 2 * (c * V + v);
              std::tie(next[x], next[x + 1]) = kb.macSplit(a[x], a[x + 1], t[v], s, D);
            }
          }
          return next;
        };
        SmallVector<Value> acc;
        if (winograd) {
          acc = kb.loop(0, pairs, init, [&](Value jj, ValueRange a) {
            Value j0 = kb.mul(jj, kb.cidx(2)), j1 = kb.add(j0, kb.cidx(1));
            SmallVector<Value> next(a);
            SmallVector<Value> t0 = temps(j0, a, next);
            SmallVector<Value> t1 = temps(j1, ValueRange(next), next);
            if (first)
              for (int64_t v = 0; v < V; ++v) {
                int64_t x = 2 * n * V + V + 2 * v;
                std::tie(next[x], next[x + 1]) = kb.macSplit(a[x], a[x + 1], t0[v], t1[v], D);
              }
            for (int64_t c = 0; c < n; ++c) {
              Value s0 = kb.splat(columnDigit(col[c], j0), W), s1 = kb.splat(columnDigit(col[c], j1), W);
              for (int64_t v = 0; v < V; ++v) {
                int64_t x = 2 * (c * V + v);
                std::tie(next[x], next[x + 1]) =
                    kb.macSplit(a[x], a[x + 1], kb.add(t0[v], s1), kb.add(t1[v], s0), D);
              }
            }
            return next;
          });
          if (m % 2) acc = plainTerms(kb.cidx(m - 1), acc);
        } else {
          acc = kb.loop(0, m, init, [&](Value j, ValueRange a) { return plainTerms(j, a); });
        }
        if (first) {
          kv.clear();
          for (Value f : ValueRange(acc).slice(2 * n * V, V))
            kv.push_back(arith::FPToUIOp::create(b, kb.loc, i64W, arith::AddFOp::create(b, kb.loc, f, fconst(0.5))));
          if (winograd)
            for (int64_t v = 0; v < V; ++v) {
              Value aLo = acc[2 * n * V + V + 2 * v], aHi = acc[2 * n * V + V + 2 * v + 1];
              kb.storeW(aLo, corr, {kb.cidx(0), at[v]});
              kb.storeW(aHi, corr, {kb.cidx(1), at[v]});
              for (int64_t c = 0; c < n; ++c) {
                int64_t x = 2 * (c * V + v);
                acc[x] = kb.sub(acc[x], aLo);
                acc[x + 1] = kb.sub(acc[x + 1], aHi);
              }
            }
        }
        SmallVector<Value> st(state);
        // Streamed limbs: digit d of column col completes limb w when col =
        // s0 + 2w + last; the window holds the two digits before it.
        auto emitDigit = [&](Value colIdx, int64_t c, int64_t v, Value d) {
          Value &p2 = st[2 * V + 2 * v], &p1 = st[2 * V + 2 * v + 1];
          int64_t firstCol = s0 + last, lastCol = firstCol + 2 * (Lq - 1);
          Value inRange = arith::AndIOp::create(
              b, kb.loc, arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::sge, colIdx, kb.cidx(firstCol)),
              arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::sle, colIdx, kb.cidx(lastCol)));
          Value parity = arith::AndIOp::create(b, kb.loc, colIdx, kb.cidx(1));
          Value due = arith::AndIOp::create(
              b, kb.loc, inRange,
              arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::eq, parity, kb.cidx(firstCol & 1)));
          Value w2 = p2, w1 = p1;
          kb.ifThen(due, [&] {
            Value limb = limbOff ? kb.bitOr(kb.bitOr(kb.shr(w2, kb.constW(limbOff, W)),
                                                     kb.shl(w1, kb.constW(32 - limbOff, W))),
                                            kb.shl(d, kb.constW(64 - limbOff, W)))
                                 : kb.bitOr(w1, kb.shl(d, kb.constW(32, W)));
            Value w = arith::ShRUIOp::create(b, kb.loc, kb.sub(colIdx, kb.cidx(firstCol)), kb.cidx(1));
            kb.storeW(limb, out, at[v], w);
          });
          if (first && c == 1) guard.push_back(d);
          p2 = p1;
          p1 = d;
        };
        for (int64_t c = 0; c < n; ++c) {
          Value s = kb.splat(negPDigit(col[c]), W);
          for (int64_t v = 0; v < V; ++v) {
            int64_t x = 2 * (c * V + v);
            auto [lo, hi] = kb.macSplit(acc[x], acc[x + 1], kv[v], s, D);
            // This column's low halves, the last one's high halves (twice
            // over in Winograd's columns of 2^51), the carry (signed there).
            Value prevHi = winograd ? kb.add(st[2 * v + 1], st[2 * v + 1]) : st[2 * v + 1];
            Value sum = kb.add(kb.add(lo, prevHi), st[2 * v]);
            if (streamLimbs)
              emitDigit(col[c], c, v, kb.bitAnd(sum, mask));
            else
              kb.storeW(kb.bitAnd(sum, mask), digits, {col[c], at[v]});
            st[2 * v] = winograd ? Value(arith::ShRSIOp::create(b, kb.loc, sum, shift))
                                 : Value(arith::ShRUIOp::create(b, kb.loc, sum, shift));
            st[2 * v + 1] = hi;
          }
        }
        return st;
      };
      // Columns from..Dq-1, C at a time, from a zero carry state; `first`:
      // the block's first pass (its first group reads the rows).
      auto columnsFrom = [&](int64_t from, bool first) {
        int64_t n0 = std::min(C, Dq - from), full = from + n0 + (Dq - from - n0) / C * C;
        assert((!first || cLo == 0 || n0 >= 2) && "the guard digit cLo + 1 is in the first group");
        SmallVector<Value> st =
            columns(kb.cidx(from), n0, SmallVector<Value>((streamLimbs ? 4 : 2) * V, zero), first);
        if (full > from + n0)
          st = kb.loop(kb.cidx(from + n0), kb.cidx(full), kb.cidx(C), st,
                       [&](Value c0, ValueRange s) { return columns(c0, C, s, false); });
        if (Dq > full) columns(kb.cidx(full), Dq - full, st, false);
      };
      columnsFrom(cLo, /*first=*/true);
      if (cLo > 0) {
        // The guard digit d1 = digit cLo + 1 of any lane at or above 2^Dc - (m + 1): redo all columns.
        Value redo = arith::ConstantIntOp::create(b, kb.loc, b.getI1Type(), exactAlways ? 1 : 0);
        Value limit = kb.constW(int64_t((uint64_t(1) << Dc) - uint64_t(m + 1)), W);
        for (int64_t v = 0; v < V; ++v) {
          Value d1 = streamLimbs ? guard[v] : kb.loadW(digits, {kb.cidx(cLo + 1), at[v]}, W);
          Value hit = arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::uge, d1, limit);
          if (W > 1) hit = vector::ReductionOp::create(b, kb.loc, vector::CombiningKind::OR, hit);
          redo = arith::OrIOp::create(b, kb.loc, redo, hit);
        }
        kb.ifThen(redo, [&] { columnsFrom(0, /*first=*/false); });
      }
      return SmallVector<Value>{};
    });
    // Digits to 64-bit limbs from bit `shift` on.
    if (!streamLimbs) columnsToLimbs(kb, digits, out, B, W, Dc, Dq, Lq, shiftBits);
  }
};

// x += 2^bit mod 2^(64 L) for each coefficient of a block (the 64-bit
// forms' rounding before their shift): one carry chain over the limbs.
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
void windowDigitSum(KernelBuilder &kb, fhe::IcrtSumOp op, ArrayRef<CoeffRef> ins, const CoeffRef *addend,
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
void windowLimbSum(KernelBuilder &kb, fhe::IcrtSumOp op, ArrayRef<CoeffRef> ins, const CoeffRef *addend,
                   const CoeffRef &out, int64_t B) {
  auto outT = op.getResult().getType();
  unsigned logN = outT.getLogN();
  int64_t Lq = outT.getLimbs();
  kb.loop(B, [&](Value i) {
    for (int64_t w = 0; w < Lq; ++w) kb.store(addend ? kb.load(*addend, i, kb.cidx(w)) : kb.c64(0), out, i, kb.cidx(w));
  });
  for (auto [g, x] : llvm::enumerate(op.getInputs())) {
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

} // namespace

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
    windowDigitSum(kb, op, ins, addend, out, B);
  else
    windowLimbSum(kb, op, ins, addend, out, B);
  maskTopLimb(kb, out, outT, B);
}

void populateIcrtPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  patterns.add<CoefficientOpLowering<fhe::IcrtOp>, CoefficientOpLowering<fhe::IcrtSumOp>>(tc, patterns.getContext(), o);
}

} // namespace fhec

//===----------------------------------------------------------------------===//
// GPU: the iCRT of a tile of coefficients as a tiled matrix product
//===----------------------------------------------------------------------===//

namespace fhec {

namespace {

// Columns per pass, and prime rows per staged chunk: at most 5 columns per
// warp and 16 rows per chunk keep the kernels' registers within 64 on sm_90
// at the paper's size (ptxas -v; with 6 columns a warp ptxas takes 64 and an
// 8-byte stack frame, and the shared memory only fits with 16-bit carries).
constexpr int64_t kIcrtPassCols = 40;

// The m rows in ceil(m / 16) chunks of an even count.
int64_t icrtChunkRows(int64_t m) {
  int64_t chunks = (m + 15) / 16, J = (m + chunks - 1) / chunks;
  return J + J % 2;
}

} // namespace

bool hasGpuIcrtTile(fhe::IcrtOp op, const LoweringOptions &o) {
  auto inT = cast<fhe::RnsType>(op.getInput().getType());
  return usesGpuLaunches(o) && o.target->wordBits == 32 && op.getOrder() == fhe::Order::matrix && !op.getAddend() &&
         inT.getLayout() == fhe::Layout::prime_major && inT.getBasis().getPrimeBits() <= 30;
}

SmallVector<MemRefType> gpuIcrtSharedTypes(KernelBuilder &kb, ArrayRef<fhe::IcrtOp> ops) {
  int64_t J = 2;
  for (fhe::IcrtOp op : ops)
    J = std::max(J, icrtChunkRows(int64_t(cast<fhe::RnsType>(op.getInput().getType()).getBasis().size())));
  return {kb.sharedType({J, kGpuTileCoeffs}, 32),                          // temp_j (< p) of a chunk of rows
          kb.sharedType({kIcrtPassCols, kGpuTileCoeffs}, 32),              // the pass's column digits of those rows
          kb.sharedType({kGpuTileWarps, kGpuTileCoeffs}),                  // each warp's share of f (f64 bits)
          kb.sharedType({kIcrtPassCols + kGpuTileWarps, kGpuTileCoeffs}),  // column sums, each warp's last high half
          kb.sharedType({kGpuTileCoeffs}, 32),                             // each coefficient's redo flag
          kb.sharedType({6, kGpuTileCoeffs}),                              // k and the carry chain between passes
          kb.sharedType({kIcrtPassCols, kGpuTileCoeffs}, 32)};             // each column sum's low word
}

// The tile's iCRT (Algo. 6 over 30-bit digits, as digitMatrix's): a pass
// computes up to kIcrtPassCols columns of X = sum_j temp_j (P/p_j) + k (-P)
// for the tile's 32 coefficients. Warp w takes Q consecutive columns of it
// and lane l the tile's coefficient l, so that a warp's temp loads are 32
// consecutive words and its digit loads one broadcast word (shared memory,
// no bank conflicts). Chunks of J prime rows are staged in turn: temp_j of
// the coefficients (a warp reads a row's 32 coefficients, coalesced) and
// each warp's digits of P/p_j (lane l the chunk's prime l: consecutive
// words of a column, the table's layout). A chunk's J <= 16 products
// temp_j d (< 2^60 each, temp_j reduced to [0, p)) continue the column's low
// word lo < 2^32 in a 64-bit register (each product's addend), whose low
// half is the new lo and whose high half goes into the column's high sum;
// both wait in shared memory (split at 30 bits after the chunks). The first
// pass also sums f = sum_j temp_j / p_j (each thread over the rows it
// stages; the warps' shares meet in shared memory) for k. Then warp 0 runs
// the carry chain over the pass's columns, one coefficient per lane, and
// stores the 64-bit limbs as their last digit arrives (no digit buffer);
// k and the chain's state wait in shared memory between passes.
// With a shift the columns start at cLo, two guard digits below the first
// the result needs, and a guard digit near the top of its range (about m
// 2^-30 per coefficient) makes the block redo them from column 0, as
// digitMatrix argues (each lane flags its own coefficient: no two threads
// write one word).
void emitGpuIcrtTile(KernelBuilder &kb, fhe::IcrtOp op, Value in, Value out, const GpuTile &tile, ValueRange sh) {
  OpBuilder &b = kb.b;
  Location loc = kb.loc;
  auto inT = cast<fhe::RnsType>(op.getInput().getType());
  auto outT = op.getResult().getType();
  fhe::BasisAttr basis = inT.getBasis();
  unsigned logN = inT.getLogN();
  int64_t m = int64_t(basis.size()), Lq = outT.getLimbs(), shift = op.getShiftBits();
  IcrtContext ctx{kb,  op,   basis, inT.getDomain() == fhe::Domain::coeff_scaled,
                  m,   Lq,   logN,  kb.table(abi::TableKind::PrimeConsts, basis, 0, logN),
                  CoeffRef{}};
  // 30-bit columns (the bits of X up to shift + logq): with temp_j < p < 2^30
  // a chunk's J <= 16 products share one 64-bit sum.
  const int64_t D = abi::kGpuDigitBits;
  int64_t Dq = (shift + int64_t(outT.getLogq()) + D - 1) / D, cLo = shift ? std::max<int64_t>(0, shift / D - 2) : 0;
  Value T = kb.table(abi::TableKind::IcrtColumns30, basis, Dq, logN);
  Value negP = kb.table(abi::TableKind::IcrtNegP30, basis, Dq, logN);
  int64_t J = icrtChunkRows(m), chunks = (m + J - 1) / J;
  Value temps = sh[0], digits = sh[1], fpart = sh[2], cols = sh[3], flag = sh[4], state = sh[5], lows = sh[6];
  Type i32 = b.getI32Type(), i64 = b.getI64Type(), f64 = b.getF64Type();
  auto narrow = [&](Value v) { return arith::TruncIOp::create(b, loc, i32, v).getResult(); };
  auto wide = [&](Value v) { return arith::ExtUIOp::create(b, loc, i64, v).getResult(); };
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) { return arith::CmpIOp::create(b, loc, p, x, y).getResult(); };
  auto below = [&](Value x, int64_t n) { return cmp(arith::CmpIPredicate::ult, x, kb.cidx(n)); };
  auto clamp = [&](Value x, int64_t hi) { return arith::MinUIOp::create(b, loc, x, kb.cidx(hi)).getResult(); };
  auto select = [&](Value c, Value x, Value y) { return arith::SelectOp::create(b, loc, c, x, y).getResult(); };
  auto both = [&](Value x, Value y) { return arith::AndIOp::create(b, loc, x, y).getResult(); };
  auto asF64 = [&](Value v) { return arith::BitcastOp::create(b, loc, f64, v).getResult(); };
  Value zero = kb.c64(0), mask = kb.c64((int64_t(1) << D) - 1), sD = kb.c64(D);
  Value lane = tile.lane, warp = tile.warp, coeff = kb.add(tile.i0, lane);
  // Between passes, nothing stays in registers: k (the multiple of P of
  // the lane's coefficient, from the first pass) and warp 0's carry chain
  // (the carry, the high half of the pass's last column, the last three
  // digits) wait in rows kK and 0..4 of `state`.
  const int64_t kK = 5;
  auto stateRow = [&](int64_t r) { return SmallVector<Value>{kb.cidx(r), lane}; };
  Value kFirst;  // the first pass's k, in a register there
  // Limb w of the result holds bits shift + 64 w .. + 63 of X, digits
  // (shift + 64 w) / D .. (shift + 64 w + 63) / D: at most four.
  auto firstDigit = [&](int64_t w) { return (shift + 64 * w) / D; };
  auto lastDigit = [&](int64_t w) { return std::min(Dq - 1, (shift + 64 * w + 63) / D); };
  unsigned topBits = outT.getLogq() % 64;

  // Columns c0 .. c0 + n - 1; `first`: the first pass (it computes k);
  // `fresh`: a chain's first pass (the carry chain starts from zeros).
  auto pass = [&](int64_t c0, int64_t n, bool first, bool fresh) {
    int64_t Q = (n + kGpuTileWarps - 1) / kGpuTileWarps;
    assert(Q * kGpuTileWarps <= kIcrtPassCols && "a pass's columns fit the digit and column buffers");
    Value x0 = kb.mul(warp, kb.cidx(Q));  // the warp's first column in the pass
    // (The thread's share of f accumulates in its slot of fpart, not in a
    // register beside the column sums.)
    if (first) kb.store(zero, fpart, {warp, lane});
    // Column x0 + q's sum lo + hi 2^32: its low word lo (row x0 + q of
    // `lows`) and its 64-bit high sum hi (of `cols`), the thread's own
    // words, in shared memory between chunks (in registers they would cost
    // 3 Q of them).
    // (After a previous pass's or tile's carry chain has read them.)
    auto colAt = [&](int64_t q) { return SmallVector<Value>{kb.add(x0, kb.cidx(q)), lane}; };
    kb.barrier();
    for (int64_t q = 0; q < Q; ++q) {
      kb.store(zero, cols, colAt(q));
      kb.store(zero, lows, colAt(q));
    }
    kb.loop(0, chunks, {}, [&](Value ch, ValueRange) {
      Value j0 = kb.mul(ch, kb.cidx(J));
      kb.barrier();  // the previous chunk's readers are done
      // Loads past the buffers' ends (rows j >= m of the last chunk, columns
      // past the pass's) are predicated off: zeros instead.
      auto loadIf = [&](Value valid, function_ref<SmallVector<Value>()> load, int64_t results) {
        auto op = scf::IfOp::create(
            b, loc, valid, [&](OpBuilder &, Location) { scf::YieldOp::create(b, loc, load()); },
            [&](OpBuilder &, Location) { scf::YieldOp::create(b, loc, SmallVector<Value>(results, zero)); });
        return SmallVector<Value>(op.getResults());
      };
      for (int64_t s = 0; s * kGpuTileWarps < J; ++s) {
        Value r = kb.add(warp, kb.cidx(s * kGpuTileWarps)), j = kb.add(j0, r);
        bool partial = (s + 1) * kGpuTileWarps > J;
        Value valid = below(j, m);
        if (partial) valid = both(valid, below(r, J));
        // temp_j, and its share of f as f64 bits.
        SmallVector<Value> tf = loadIf(valid, [&] {
          auto row = [&](int col) { return kb.tableAt(ctx.consts, j, col); };
          Value t = ctx.tempOf(kb.load(in, {j, coeff}), Value(), row(abi::kIcrtInv), row(abi::kIcrtInvShoup),
                               row(abi::kPrime), 1);
          // A coeff_scaled input is temp itself, in [0, 2p): reduced to [0, p)
          // so that four products share a 64-bit sum.
          if (ctx.scaled) t = kb.reduce(t, row(abi::kPrime), 2, 1);
          SmallVector<Value> res{t};
          if (first) {
            Value term = arith::MulFOp::create(b, loc, arith::UIToFPOp::create(b, loc, f64, t),
                                               asF64(row(abi::kInvPrimeF64)));
            res.push_back(arith::BitcastOp::create(b, loc, i64, term));
          }
          return res;
        }, first ? 2 : 1);
        if (first) {
          Value f = arith::AddFOp::create(b, loc, asF64(kb.load(fpart, {warp, lane})), asF64(tf[1]));
          kb.store(arith::BitcastOp::create(b, loc, i64, f), fpart, {warp, lane});
        }
        auto put = [&] { kb.store(tf[0], temps, {r, lane}); };
        if (partial)
          kb.ifThen(below(r, J), put);
        else
          put();
      }
      // The digits of the warp's own columns x0 + q, lane l taking prime row
      // j0 + l (lanes past J store zeros nobody reads).
      Value j = kb.add(j0, lane);
      for (int64_t q = 0; q < Q; ++q) {
        Value x = kb.add(x0, kb.cidx(q));
        Value d = loadIf(both(below(x, n), below(j, m)),
                         [&] { return SmallVector<Value>{kb.load(T, {kb.add(x, kb.cidx(c0)), j})}; }, 1)[0];
        kb.store(d, digits, {x, lane});
      }
      kb.barrier();
      // Rows r0 .. r0 + R - 1 into each column's chunk sum.
      auto mac = [&](Value r0, int64_t R, ValueRange s) {
        SmallVector<Value> t;
        for (int64_t i = 0; i < R; ++i) t.push_back(kb.load(temps, {kb.add(r0, kb.cidx(i)), lane}));
        SmallVector<Value> sNext(s);
        for (int64_t q = 0; q < Q; ++q) {
          // The column's R digits: one broadcast vector load (rows of 32
          // words, r0 a multiple of R).
          SmallVector<Value> d = kb.loadRun(digits, {kb.add(x0, kb.cidx(q)), r0}, R, 4 * R);
          for (int64_t i = 0; i < R; ++i) sNext[q] = kb.add(sNext[q], kb.mul(t[i], d[i]));
        }
        return sNext;
      };
      // temp_j < p < 2^30 and digits < 2^30: the chunk's J <= 16 products and
      // lo < 2^32 sum below 2^64 (16 (2^30 - 1)^2 + 2^32 - 1).
      // (Unrolled: at most four groups of four rows.)
      SmallVector<Value> sums;
      for (int64_t q = 0; q < Q; ++q) sums.push_back(kb.load(lows, colAt(q)));
      for (int64_t r0 = 0; r0 < J; r0 += 4) sums = mac(kb.cidx(r0), std::min<int64_t>(4, J - r0), sums);
      // The sum's low word the new lo (a 32-bit store), its high word into hi.
      for (int64_t q = 0; q < Q; ++q) {
        kb.store(sums[q], lows, colAt(q));
        kb.store(kb.add(kb.load(cols, colAt(q)), kb.shr(sums[q], kb.c64(32))), cols, colAt(q));
      }
      return SmallVector<Value>{};
    });
    if (first) {
      kb.barrier();
      Value f = asF64(kb.load(fpart, {kb.cidx(0), lane}));
      for (int64_t w = 1; w < kGpuTileWarps; ++w)
        f = arith::AddFOp::create(b, loc, f, asF64(kb.load(fpart, {kb.cidx(w), lane})));
      kFirst = ctx.roundToInt(f);
      kb.ifThen(below(tile.tid, kGpuTileCoeffs), [&] { kb.store(kFirst, state, stateRow(kK)); });
    }
    Value k = first ? kFirst : kb.load(state, stateRow(kK));
    // k (-P), the rounding bit, and each column's value lo + the previous
    // column's hi; the warp's last hi goes after the pass's columns.
    SmallVector<Value> lo, hi;
    int64_t roundBit = op.getRound() ? shift - 1 : -1;
    for (int64_t q = 0; q < Q; ++q) {
      Value x = kb.add(x0, kb.cidx(q)), c = kb.add(x, kb.cidx(c0));
      Value nd = select(below(x, n), kb.load(negP, {kb.cidx(0), clamp(c, Dq - 1)}), zero);
      Value prod = kb.mul(wide(narrow(k)), wide(narrow(nd)));
      // The column's sum lo + hi 2^32 split at D: lo's low D bits, and
      // (lo >> D) + hi 2^(32 - D).
      Value low = kb.load(lows, colAt(q));
      Value accHi = kb.add(kb.shr(low, sD), kb.shl(kb.load(cols, colAt(q)), kb.c64(32 - D)));
      lo.push_back(kb.add(kb.bitAnd(low, mask), kb.bitAnd(prod, mask)));
      hi.push_back(kb.add(accHi, kb.shr(prod, sD)));
      if (roundBit >= 0 && roundBit / D >= c0 && roundBit / D < c0 + n) {
        Value here = cmp(arith::CmpIPredicate::eq, c, kb.cidx(roundBit / D));
        lo.back() = kb.add(lo.back(), select(here, kb.c64(int64_t(1) << (roundBit % D)), zero));
      }
    }
    for (int64_t q = 0; q < Q; ++q)
      kb.store(q ? kb.add(lo[q], hi[q - 1]) : lo[q], cols, {kb.add(x0, kb.cidx(q)), lane});
    kb.store(hi[Q - 1], cols, {kb.add(warp, kb.cidx(kIcrtPassCols)), lane});
    kb.barrier();
    kb.ifThen(below(tile.tid, kGpuTileCoeffs), [&] {
      auto saved = [&](int64_t r) { return fresh ? zero : kb.load(state, stateRow(r)); };
      Value carry = saved(0), pending = saved(1);
      // The last three digits, digit c - 1 first.
      SmallVector<Value> prev{saved(2), saved(3), saved(4)};
      for (int64_t x = 0; x < n; ++x) {
        Value v = kb.add(kb.load(cols, {kb.cidx(x), lane}), carry);
        if (x == 0)
          v = kb.add(v, pending);
        else if (x % Q == 0)
          v = kb.add(v, kb.load(cols, {kb.cidx(kIcrtPassCols + x / Q - 1), lane}));
        Value d = kb.bitAnd(v, mask);
        carry = kb.shr(v, sD);
        int64_t c = c0 + x;
        for (int64_t w = 0; w < Lq; ++w) {
          if (lastDigit(w) != c) continue;
          // Digits firstDigit(w) .. c, each at bit D e - (shift + 64 w).
          Value limb;
          for (int64_t e = firstDigit(w); e <= c; ++e) {
            Value de = e == c ? d : prev[size_t(c - e - 1)];
            int64_t at = D * e - (shift + 64 * w);
            Value part = at > 0 ? kb.shl(de, kb.c64(at)) : at < 0 ? kb.shr(de, kb.c64(-at)) : de;
            limb = limb ? kb.bitOr(limb, part) : part;
          }
          if (w == Lq - 1 && topBits) limb = kb.bitAnd(limb, kb.c64(int64_t((uint64_t(1) << topBits) - 1)));
          kb.store(limb, out, {lane, kb.cidx(w)});
        }
        if (first && cLo > 0 && c == cLo + 1) {
          Value hit = cmp(arith::CmpIPredicate::uge, d, kb.c64(int64_t((uint64_t(1) << D) - uint64_t(m + 1))));
          kb.store(arith::ExtUIOp::create(b, loc, i32, hit), flag, {lane});
        }
        prev = {d, prev[0], prev[1]};
      }
      // Column n's value is the high half of the pass's last column.
      pending = n % Q ? kb.load(cols, {kb.cidx(n), lane}) : kb.load(cols, {kb.cidx(kIcrtPassCols + n / Q - 1), lane});
      SmallVector<Value> chain{carry, pending, prev[0], prev[1], prev[2]};
      for (auto [r, v] : llvm::enumerate(chain)) kb.store(v, state, stateRow(int64_t(r)));
    });
  };
  // Columns from..Dq-1 in balanced passes of at most maxCols columns.
  auto columnsFrom = [&](int64_t from, bool first, int64_t maxCols) {
    int64_t nc = Dq - from, passes = (nc + maxCols - 1) / maxCols, per = (nc + passes - 1) / passes;
    for (int64_t c = from; c < Dq; c += per) pass(c, std::min(per, Dq - c), first && c == from, c == from);
  };
  columnsFrom(cLo, /*first=*/true, kIcrtPassCols);
  if (cLo > 0) {
    // Any coefficient's flag (each lane wrote its own): the block redoes them all.
    kb.barrier();
    Value any = kb.c64(0);
    for (int64_t l = 0; l < kGpuTileCoeffs; ++l) any = kb.bitOr(any, kb.load(flag, {kb.cidx(l)}));
    Value redo = cmp(arith::CmpIPredicate::ne, any, kb.c64(0));
    if (kb.options.icrtExactAlways) redo = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    kb.ifThen(redo, [&] { columnsFrom(0, /*first=*/false, kIcrtPassCols); });
  }
}

} // namespace fhec
