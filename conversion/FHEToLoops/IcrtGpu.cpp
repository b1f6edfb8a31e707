// GPU: the iCRT of a tile of coefficients as a tiled matrix product (Jung et
// al. 2021's matrix form of Algo. 6 over 30-bit digits, as IcrtDigits.cpp's;
// HE-Booster's thread mapping). A pass computes up to kIcrtPassCols columns
// of X = sum_j temp_j (P/p_j) + k (-P) for the tile's 32 coefficients. Warp
// w takes Q consecutive columns of it and lane l the tile's coefficient l,
// so that a warp's temp loads are 32 consecutive words and its digit loads
// one broadcast word (shared memory, no bank conflicts). Chunks of J prime
// rows are staged in turn: temp_j of the coefficients (a warp reads a row's
// 32 coefficients, coalesced) and each warp's digits of P/p_j (lane l the
// chunk's prime l: consecutive words of a column, the table's layout). A
// chunk's J <= 16 products temp_j d (< 2^60 each, temp_j reduced to [0, p))
// continue the column's low word lo < 2^32 in a 64-bit register (each
// product's addend), whose low half is the new lo and whose high half goes
// into the column's high sum; both wait in shared memory (split at 30 bits
// after the chunks). The first pass also sums f = sum_j temp_j / p_j (each
// thread over the rows it stages; the warps' shares meet in shared memory)
// for k. Then warp 0 runs the carry chain over the pass's columns, one
// coefficient per lane, and stores the 64-bit limbs as their last digit
// arrives (no digit buffer); k and the chain's state wait in shared memory
// between passes.
// With a shift the columns start at cLo, two guard digits below the first
// the result needs, and a guard digit near the top of its range (about m
// 2^-30 per coefficient) makes the block redo them from column 0, as
// IcrtDigits.cpp argues (each lane flags its own coefficient: no two threads
// write one word).
#include "conversion/FHEToLoops/Icrt.h"

#include "fhec/runtime/Tables.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

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

class GpuIcrtTile {
public:
  GpuIcrtTile(KernelBuilder &kb, fhe::IcrtOp op, Value in, Value out, const GpuTile &tile, ValueRange sh);
  void run();

private:
  Value narrow(Value v) { return arith::TruncIOp::create(b, loc, b.getI32Type(), v).getResult(); }
  Value wide(Value v) { return arith::ExtUIOp::create(b, loc, b.getI64Type(), v).getResult(); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) { return arith::CmpIOp::create(b, loc, p, x, y).getResult(); }
  Value below(Value x, int64_t n) { return cmp(arith::CmpIPredicate::ult, x, kb.cidx(n)); }
  Value clamp(Value x, int64_t hi) { return arith::MinUIOp::create(b, loc, x, kb.cidx(hi)).getResult(); }
  Value select(Value c, Value x, Value y) { return arith::SelectOp::create(b, loc, c, x, y).getResult(); }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y).getResult(); }
  Value asF64(Value v) { return arith::BitcastOp::create(b, loc, b.getF64Type(), v).getResult(); }
  SmallVector<Value> stateRow(int64_t r) { return {kb.cidx(r), lane}; }
  /// Column x0 + q of the pass, the lane's word.
  SmallVector<Value> colAt(Value x0, int64_t q) { return {kb.add(x0, kb.cidx(q)), lane}; }
  // Limb w of the result holds bits shift + 64 w .. + 63 of X, digits
  // (shift + 64 w) / D .. (shift + 64 w + 63) / D: at most four.
  int64_t firstDigit(int64_t w) { return (shift + 64 * w) / D; }
  int64_t lastDigit(int64_t w) { return std::min(Dq - 1, (shift + 64 * w + 63) / D); }
  SmallVector<Value> loadIf(Value valid, function_ref<SmallVector<Value>()> load, int64_t results);
  void stageRows(Value j0, bool first);
  void stageDigits(Value j0, int64_t c0, int64_t n, int64_t Q, Value x0);
  SmallVector<Value> mac(Value r0, int64_t R, ValueRange s, int64_t Q, Value x0);
  void chunk(Value ch, int64_t c0, int64_t n, int64_t Q, Value x0, bool first);
  Value multipleOfP(bool first);
  void columnValues(int64_t c0, int64_t n, int64_t Q, Value x0, Value k);
  void carryChain(int64_t c0, int64_t n, int64_t Q, bool first, bool fresh);
  void pass(int64_t c0, int64_t n, bool first, bool fresh);
  void columnsFrom(int64_t from, bool first, int64_t maxCols);

  KernelBuilder &kb;
  OpBuilder &b;
  Location loc;
  fhe::IcrtOp op;
  Value in, out;
  const GpuTile &tile;
  int64_t m, Lq, shift;
  IcrtContext ctx;
  /// 30-bit columns (the bits of X up to shift + logq): with temp_j < p <
  /// 2^30 a chunk's J <= 16 products share one 64-bit sum.
  int64_t D, Dq, cLo;
  Value T, negP;
  int64_t J, chunks;
  Value temps, digits, fpart, cols, flag, state, lows;  ///< the shared buffers of gpuIcrtSharedTypes
  Value zero, mask, sD;
  Value lane, warp, coeff;
  /// Between passes, nothing stays in registers: k (the multiple of P of
  /// the lane's coefficient, from the first pass) and warp 0's carry chain
  /// (the carry, the high half of the pass's last column, the last three
  /// digits) wait in rows kK and 0..4 of `state`.
  static constexpr int64_t kK = 5;
  Value kFirst;  ///< the first pass's k, in a register there
  unsigned topBits;
};

GpuIcrtTile::GpuIcrtTile(KernelBuilder &kb, fhe::IcrtOp op, Value in, Value out, const GpuTile &tile, ValueRange sh)
    : kb(kb), b(kb.b), loc(kb.loc), op(op), in(in), out(out), tile(tile),
      m(int64_t(cast<fhe::RnsType>(op.getInput().getType()).getBasis().size())),
      Lq(op.getResult().getType().getLimbs()), shift(op.getShiftBits()),
      ctx{kb,
          op,
          cast<fhe::RnsType>(op.getInput().getType()).getBasis(),
          cast<fhe::RnsType>(op.getInput().getType()).getDomain() == fhe::Domain::coeff_scaled,
          m,
          Lq,
          cast<fhe::RnsType>(op.getInput().getType()).getLogN(),
          kb.table(abi::TableKind::PrimeConsts, cast<fhe::RnsType>(op.getInput().getType()).getBasis(), 0,
                   cast<fhe::RnsType>(op.getInput().getType()).getLogN()),
          CoeffRef{}} {
  auto outT = op.getResult().getType();
  D = abi::kGpuDigitBits;
  Dq = (shift + int64_t(outT.getLogq()) + D - 1) / D;
  cLo = shift ? std::max<int64_t>(0, shift / D - 2) : 0;
  T = kb.table(abi::TableKind::IcrtColumns30, ctx.basis, Dq, ctx.logN);
  negP = kb.table(abi::TableKind::IcrtNegP30, ctx.basis, Dq, ctx.logN);
  J = icrtChunkRows(m);
  chunks = (m + J - 1) / J;
  temps = sh[0], digits = sh[1], fpart = sh[2], cols = sh[3], flag = sh[4], state = sh[5], lows = sh[6];
  zero = kb.c64(0);
  mask = kb.c64((int64_t(1) << D) - 1);
  sD = kb.c64(D);
  lane = tile.lane;
  warp = tile.warp;
  coeff = kb.add(tile.i0, lane);
  topBits = outT.getLogq() % 64;
}

// Loads past the buffers' ends (rows j >= m of the last chunk, columns past
// the pass's) are predicated off: zeros instead.
SmallVector<Value> GpuIcrtTile::loadIf(Value valid, function_ref<SmallVector<Value>()> load, int64_t results) {
  auto ifOp = scf::IfOp::create(
      b, loc, valid, [&](OpBuilder &, Location) { scf::YieldOp::create(b, loc, load()); },
      [&](OpBuilder &, Location) { scf::YieldOp::create(b, loc, SmallVector<Value>(results, zero)); });
  return SmallVector<Value>(ifOp.getResults());
}

// Rows j0 .. j0 + J - 1 of temp_j into `temps`, warp w staging rows w, w +
// 8, ..; the first pass adds each row's temp_j / p_j to the thread's share
// of f.
void GpuIcrtTile::stageRows(Value j0, bool first) {
  Type i64 = b.getI64Type(), f64 = b.getF64Type();
  for (int64_t s = 0; s * kGpuTileWarps < J; ++s) {
    Value r = kb.add(warp, kb.cidx(s * kGpuTileWarps)), j = kb.add(j0, r);
    bool partial = (s + 1) * kGpuTileWarps > J;
    Value valid = below(j, m);
    if (partial) valid = both(valid, below(r, J));
    // temp_j, and its share of f as f64 bits.
    SmallVector<Value> tf = loadIf(
        valid,
        [&] {
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
        },
        first ? 2 : 1);
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
}

// The digits of the warp's own columns x0 + q, lane l taking prime row
// j0 + l (lanes past J store zeros nobody reads).
void GpuIcrtTile::stageDigits(Value j0, int64_t c0, int64_t n, int64_t Q, Value x0) {
  Value j = kb.add(j0, lane);
  for (int64_t q = 0; q < Q; ++q) {
    Value x = kb.add(x0, kb.cidx(q));
    Value d = loadIf(both(below(x, n), below(j, m)),
                     [&] { return SmallVector<Value>{kb.load(T, {kb.add(x, kb.cidx(c0)), j})}; }, 1)[0];
    kb.store(d, digits, {x, lane});
  }
}

// Rows r0 .. r0 + R - 1 into each column's chunk sum.
SmallVector<Value> GpuIcrtTile::mac(Value r0, int64_t R, ValueRange s, int64_t Q, Value x0) {
  SmallVector<Value> t;
  for (int64_t i = 0; i < R; ++i) t.push_back(kb.load(temps, {kb.add(r0, kb.cidx(i)), lane}));
  SmallVector<Value> sNext(s);
  for (int64_t q = 0; q < Q; ++q) {
    // The column's R digits: one broadcast vector load (rows of 32 words, r0
    // a multiple of R).
    SmallVector<Value> d = kb.loadRun(digits, {kb.add(x0, kb.cidx(q)), r0}, R, 4 * R);
    for (int64_t i = 0; i < R; ++i) sNext[q] = kb.add(sNext[q], kb.mul(t[i], d[i]));
  }
  return sNext;
}

// Chunk ch of the prime rows: staged, then multiplied into the warp's
// columns. Column x0 + q's sum lo + hi 2^32 is its low word lo (row x0 + q
// of `lows`) and its 64-bit high sum hi (of `cols`), the thread's own words,
// in shared memory between chunks (in registers they would cost 3 Q of them).
void GpuIcrtTile::chunk(Value ch, int64_t c0, int64_t n, int64_t Q, Value x0, bool first) {
  Value j0 = kb.mul(ch, kb.cidx(J));
  kb.barrier();  // the previous chunk's readers are done
  stageRows(j0, first);
  stageDigits(j0, c0, n, Q, x0);
  kb.barrier();
  // temp_j < p < 2^30 and digits < 2^30: the chunk's J <= 16 products and
  // lo < 2^32 sum below 2^64 (16 (2^30 - 1)^2 + 2^32 - 1).
  // (Unrolled: at most four groups of four rows.)
  SmallVector<Value> sums;
  for (int64_t q = 0; q < Q; ++q) sums.push_back(kb.load(lows, colAt(x0, q)));
  for (int64_t r0 = 0; r0 < J; r0 += 4) sums = mac(kb.cidx(r0), std::min<int64_t>(4, J - r0), sums, Q, x0);
  // The sum's low word the new lo (a 32-bit store), its high word into hi.
  for (int64_t q = 0; q < Q; ++q) {
    kb.store(sums[q], lows, colAt(x0, q));
    kb.store(kb.add(kb.load(cols, colAt(x0, q)), kb.shr(sums[q], kb.c64(32))), cols, colAt(x0, q));
  }
}

// k of the lane's coefficient: the first pass sums the warps' shares of f
// and keeps k in `state`; later passes read it there.
Value GpuIcrtTile::multipleOfP(bool first) {
  if (!first) return kb.load(state, stateRow(kK));
  kb.barrier();
  Value f = asF64(kb.load(fpart, {kb.cidx(0), lane}));
  for (int64_t w = 1; w < kGpuTileWarps; ++w)
    f = arith::AddFOp::create(b, loc, f, asF64(kb.load(fpart, {kb.cidx(w), lane})));
  kFirst = ctx.roundToInt(f);
  kb.ifThen(below(tile.tid, kGpuTileCoeffs), [&] { kb.store(kFirst, state, stateRow(kK)); });
  return kFirst;
}

// k (-P), the rounding bit, and each column's value lo + the previous
// column's hi into `cols`; the warp's last hi goes after the pass's columns.
void GpuIcrtTile::columnValues(int64_t c0, int64_t n, int64_t Q, Value x0, Value k) {
  SmallVector<Value> lo, hi;
  int64_t roundBit = op.getRound() ? shift - 1 : -1;
  for (int64_t q = 0; q < Q; ++q) {
    Value x = kb.add(x0, kb.cidx(q)), c = kb.add(x, kb.cidx(c0));
    Value nd = select(below(x, n), kb.load(negP, {kb.cidx(0), clamp(c, Dq - 1)}), zero);
    Value prod = kb.mul(wide(narrow(k)), wide(narrow(nd)));
    // The column's sum lo + hi 2^32 split at D: lo's low D bits, and
    // (lo >> D) + hi 2^(32 - D).
    Value low = kb.load(lows, colAt(x0, q));
    Value accHi = kb.add(kb.shr(low, sD), kb.shl(kb.load(cols, colAt(x0, q)), kb.c64(32 - D)));
    lo.push_back(kb.add(kb.bitAnd(low, mask), kb.bitAnd(prod, mask)));
    hi.push_back(kb.add(accHi, kb.shr(prod, sD)));
    if (roundBit >= 0 && roundBit / D >= c0 && roundBit / D < c0 + n) {
      Value here = cmp(arith::CmpIPredicate::eq, c, kb.cidx(roundBit / D));
      lo.back() = kb.add(lo.back(), select(here, kb.c64(int64_t(1) << (roundBit % D)), zero));
    }
  }
  for (int64_t q = 0; q < Q; ++q) kb.store(q ? kb.add(lo[q], hi[q - 1]) : lo[q], cols, colAt(x0, q));
  kb.store(hi[Q - 1], cols, {kb.add(warp, kb.cidx(kIcrtPassCols)), lane});
}

// Warp 0's carry chain over the pass's columns, one coefficient per lane:
// each limb stored as its last digit arrives, the guard digit's flag set in
// the first pass, the chain's state saved for the next pass.
void GpuIcrtTile::carryChain(int64_t c0, int64_t n, int64_t Q, bool first, bool fresh) {
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
        kb.store(arith::ExtUIOp::create(b, loc, b.getI32Type(), hit), flag, {lane});
      }
      prev = {d, prev[0], prev[1]};
    }
    // Column n's value is the high half of the pass's last column.
    pending = n % Q ? kb.load(cols, {kb.cidx(n), lane}) : kb.load(cols, {kb.cidx(kIcrtPassCols + n / Q - 1), lane});
    SmallVector<Value> chain{carry, pending, prev[0], prev[1], prev[2]};
    for (auto [r, v] : llvm::enumerate(chain)) kb.store(v, state, stateRow(int64_t(r)));
  });
}

// Columns c0 .. c0 + n - 1; `first`: the first pass (it computes k);
// `fresh`: a chain's first pass (the carry chain starts from zeros).
void GpuIcrtTile::pass(int64_t c0, int64_t n, bool first, bool fresh) {
  int64_t Q = (n + kGpuTileWarps - 1) / kGpuTileWarps;
  assert(Q * kGpuTileWarps <= kIcrtPassCols && "a pass's columns fit the digit and column buffers");
  Value x0 = kb.mul(warp, kb.cidx(Q));  // the warp's first column in the pass
  // (The thread's share of f accumulates in its slot of fpart, not in a
  // register beside the column sums.)
  if (first) kb.store(zero, fpart, {warp, lane});
  // (After a previous pass's or tile's carry chain has read them.)
  kb.barrier();
  for (int64_t q = 0; q < Q; ++q) {
    kb.store(zero, cols, colAt(x0, q));
    kb.store(zero, lows, colAt(x0, q));
  }
  kb.loop(0, chunks, {}, [&](Value ch, ValueRange) {
    chunk(ch, c0, n, Q, x0, first);
    return SmallVector<Value>{};
  });
  columnValues(c0, n, Q, x0, multipleOfP(first));
  kb.barrier();
  carryChain(c0, n, Q, first, fresh);
}

// Columns from..Dq-1 in balanced passes of at most maxCols columns.
void GpuIcrtTile::columnsFrom(int64_t from, bool first, int64_t maxCols) {
  int64_t nc = Dq - from, passes = (nc + maxCols - 1) / maxCols, per = (nc + passes - 1) / passes;
  for (int64_t c = from; c < Dq; c += per) pass(c, std::min(per, Dq - c), first && c == from, c == from);
}

void GpuIcrtTile::run() {
  columnsFrom(cLo, /*first=*/true, kIcrtPassCols);
  if (cLo == 0) return;
  // Any coefficient's flag (each lane wrote its own): the block redoes them all.
  kb.barrier();
  Value any = kb.c64(0);
  for (int64_t l = 0; l < kGpuTileCoeffs; ++l) any = kb.bitOr(any, kb.load(flag, {kb.cidx(l)}));
  Value redo = cmp(arith::CmpIPredicate::ne, any, kb.c64(0));
  if (kb.options.icrtExactAlways) redo = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  kb.ifThen(redo, [&] { columnsFrom(0, /*first=*/false, kIcrtPassCols); });
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

void emitGpuIcrtTile(KernelBuilder &kb, fhe::IcrtOp op, Value in, Value out, const GpuTile &tile, ValueRange sh) {
  GpuIcrtTile(kb, op, in, out, tile, sh).run();
}

} // namespace fhec
