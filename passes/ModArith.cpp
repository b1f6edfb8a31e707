#include "passes/ModArith.h"

using namespace mlir;

namespace fhec {

Value ModArith::c64(int64_t v) { return arith::ConstantIntOp::create(*bp, loc, bp->getI64Type(), v); }
Value ModArith::cidx(int64_t v) { return arith::ConstantIndexOp::create(*bp, loc, v); }

std::pair<Value, Value> ModArith::mulWide(Value x, Value y) {
  auto m = arith::MulUIExtendedOp::create(*bp, loc, x, y);
  return {m.getLow(), m.getHigh()};
}

std::pair<Value, Value> ModArith::addCarry(Value x, Value y) {
  auto s = arith::AddUIExtendedOp::create(*bp, loc, x, y);
  return {s.getSum(), arith::ExtUIOp::create(*bp, loc, bp->getI64Type(), s.getOverflow())};
}

std::pair<Value, Value> ModArith::subBorrow(Value x, Value y, Value borrowIn) {
  Value d1 = arith::SubIOp::create(*bp, loc, x, y);
  Value b1 = arith::CmpIOp::create(*bp, loc, arith::CmpIPredicate::ult, x, y);
  Value d = arith::SubIOp::create(*bp, loc, d1, borrowIn);
  Value b2 = arith::CmpIOp::create(*bp, loc, arith::CmpIPredicate::ult, d1, borrowIn);
  Value borrow = arith::OrIOp::create(*bp, loc, b1, b2);
  return {d, arith::ExtUIOp::create(*bp, loc, bp->getI64Type(), borrow)};
}

Value ModArith::condSub(Value x, Value p) {
  Value ge = arith::CmpIOp::create(*bp, loc, arith::CmpIPredicate::uge, x, p);
  Value d = arith::SubIOp::create(*bp, loc, x, p);
  return arith::SelectOp::create(*bp, loc, ge, d, x);
}

Value ModArith::mulShoup(Value x, Value y, Value yShoup, Value p) {
  Value q = mulWide(x, yShoup).second;
  Value r = arith::SubIOp::create(*bp, loc, arith::MulIOp::create(*bp, loc, x, y), arith::MulIOp::create(*bp, loc, q, p));
  return condSub(r, p);  // r in [0, 2p)
}

Value ModArith::mulBarrett(Value x, Value y, Value p, Value mu, Value bits) {
  // z = x y < 2^(2b); q1 = z >> (b - 1); q3 = (q1 mu) >> (b + 1); r = z - q3 p in [0, 3p).
  auto [zlo, zhi] = mulWide(x, y);
  Value one = c64(1), sixtyFour = c64(64);
  auto shr128 = [&](Value lo, Value hi, Value s) {
    Value l = arith::ShRUIOp::create(*bp, loc, lo, s);
    Value h = arith::ShLIOp::create(*bp, loc, hi, arith::SubIOp::create(*bp, loc, sixtyFour, s));
    return arith::OrIOp::create(*bp, loc, l, h);
  };
  Value q1 = shr128(zlo, zhi, arith::SubIOp::create(*bp, loc, bits, one));
  auto [q2lo, q2hi] = mulWide(q1, mu);
  Value q3 = shr128(q2lo, q2hi, arith::AddIOp::create(*bp, loc, bits, one));
  Value r = arith::SubIOp::create(*bp, loc, zlo, arith::MulIOp::create(*bp, loc, q3, p));
  return condSub(condSub(r, p), p);
}

Value ModArith::addMod(Value x, Value y, Value p) { return condSub(arith::AddIOp::create(*bp, loc, x, y), p); }

Value ModArith::subMod(Value x, Value y, Value p) {
  Value d = arith::SubIOp::create(*bp, loc, x, y);
  Value lt = arith::CmpIOp::create(*bp, loc, arith::CmpIPredicate::ult, x, y);
  return arith::SelectOp::create(*bp, loc, lt, arith::AddIOp::create(*bp, loc, d, p), d);
}

} // namespace fhec
