#include "dialect/CKKS/Transforms/PolyEval.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"

#include <cmath>

using namespace mlir;

namespace fhec {

std::vector<double> powerToChebyshev(llvm::ArrayRef<double> power, double a, double b) {
  // Horner in the Chebyshev basis of t, with x = alpha t + beta:
  // S <- S (alpha t + beta) + c_i, where t T_0 = T_1, t T_j = (T_j+1 + T_j-1) / 2.
  double alpha = (b - a) / 2, beta = (a + b) / 2;
  std::vector<double> s(power.size(), 0.0);
  for (size_t i = power.size(); i-- > 0;) {
    std::vector<double> next(power.size(), 0.0);
    for (size_t j = 0; j < s.size(); ++j) {
      if (s[j] == 0) continue;
      next[j] += beta * s[j];
      if (j == 0) {
        if (1 < next.size()) next[1] += alpha * s[0];
      } else {
        if (j + 1 < next.size()) next[j + 1] += alpha * s[j] / 2;
        next[j - 1] += alpha * s[j] / 2;
      }
    }
    next[0] += power[i];
    s = std::move(next);
  }
  return s;
}

namespace {

unsigned ceilLog2(uint64_t v) { return v <= 1 ? 0 : unsigned(64 - __builtin_clzll(v - 1)); }
uint64_t floorPow2(uint64_t v) { return uint64_t(1) << (63 - __builtin_clzll(v)); }

/// A part of the evaluation: a ciphertext, or a plain constant (no v).
struct Term {
  Value v;
  double c = 0;
};

size_t degreeOf(llvm::ArrayRef<double> c) {
  size_t d = c.size();
  while (d > 0 && c[d - 1] == 0) --d;
  return d == 0 ? 0 : d - 1;
}

class ChebyshevEvaluator {
public:
  ChebyshevEvaluator(ScaleManager &m, Location loc, Value t, unsigned babySteps, PolyEvalCounts &counts)
      : m(m), loc(loc), k(babySteps), counts(counts) {
    T[1] = t;
  }

  FailureOr<Term> eval(llvm::ArrayRef<double> c, unsigned budget) {
    size_t d = degreeOf(c);
    if (d == 0) return Term{Value(), c.empty() ? 0.0 : c[0]};
    if (d < k && leafDepth(c.take_front(d + 1)) <= budget) return leaf(c.take_front(d + 1));
    // p = q T_M + r, with T_j = 2 T_M T_j-M - T_2M-j for M < j < 2M.
    uint64_t M = floorPow2(d);
    std::vector<double> q(d - M + 1), r(c.begin(), c.begin() + M);
    q[0] = c[M];
    for (size_t j = M + 1; j <= d; ++j) {
      q[j - M] = 2 * c[j];
      r[2 * M - j] -= c[j];
    }
    assert(budget >= 1 && ceilLog2(M) <= budget - 1 && "the root's budget is ceil(log2(d + 1))");
    FailureOr<Term> Q = eval(q, budget - 1), R = eval(r, budget);
    FailureOr<Value> TM = power(M);
    if (failed(Q) || failed(R) || failed(TM)) return failure();
    FailureOr<Value> P = Q->v ? product(Q->v, *TM) : scalar(*TM, Q->c);
    if (failed(P)) return failure();
    return plus(*P, *R);
  }

  /// T_i: T_2n = 2 T_n^2 - 1, T_2n+1 = 2 T_n+1 T_n - T_1 (depth ceil(log2 i)).
  FailureOr<Value> power(uint64_t i) {
    if (Value v = T.lookup(i)) return v;
    uint64_t hi = (i + 1) / 2, lo = i / 2;
    FailureOr<Value> a = power(hi), b = power(lo);
    if (failed(a) || failed(b)) return failure();
    FailureOr<Value> p = product(*a, *b);
    if (failed(p)) return failure();
    FailureOr<Value> twice = m.add(loc, *p, *p);
    if (failed(twice)) return failure();
    FailureOr<Value> r = hi == lo ? m.addConst(loc, *twice, -1.0) : m.sub(loc, *twice, T[1]);
    if (failed(r)) return failure();
    return T[i] = *r;
  }

private:
  ScaleManager &m;
  Location loc;
  uint64_t k;
  PolyEvalCounts &counts;
  llvm::DenseMap<uint64_t, Value> T;

  // Multiples by +-1 and +-2 (x + x) use no level.
  static bool free(double c) { return c == 1 || c == -1 || c == 2 || c == -2; }

  // The depth of sum c_i T_i: T_i's depth, plus one for a scalar other than +-1.
  static unsigned leafDepth(llvm::ArrayRef<double> c) {
    unsigned depth = 0;
    for (size_t i = 1; i < c.size(); ++i)
      if (c[i] != 0) depth = std::max(depth, ceilLog2(i) + (free(c[i]) ? 0 : 1));
    return depth;
  }

  FailureOr<Term> leaf(llvm::ArrayRef<double> c) {
    Term sum{Value(), c[0]};
    for (size_t i = 1; i < c.size(); ++i) {
      if (c[i] == 0) continue;
      FailureOr<Value> Ti = power(i);
      if (failed(Ti)) return failure();
      FailureOr<Value> s = scalar(*Ti, c[i]);
      if (failed(s)) return failure();
      FailureOr<Term> next = plus(*s, Term{sum.v, 0.0});
      if (failed(next)) return failure();
      sum.v = next->v;
    }
    if (sum.c == 0) return sum;
    FailureOr<Value> v = m.addConst(loc, sum.v, sum.c);
    if (failed(v)) return failure();
    return Term{*v, 0.0};
  }

  FailureOr<Value> product(Value a, Value b) {
    ++counts.products;
    return m.mul(loc, a, b);
  }

  FailureOr<Value> scalar(Value v, double c) {
    if (c == 1) return v;
    if (c == -1) return m.negate(loc, v);
    if (c == 2 || c == -2) {
      FailureOr<Value> twice = m.add(loc, v, v);
      if (failed(twice) || c == 2) return twice;
      return m.negate(loc, *twice);
    }
    ++counts.scalars;
    return m.mulConst(loc, v, c);
  }

  // v + r (r a ciphertext or a constant).
  FailureOr<Term> plus(Value v, const Term &r) {
    FailureOr<Value> s = r.v ? m.add(loc, v, r.v) : (r.c != 0 ? m.addConst(loc, v, r.c) : FailureOr<Value>(v));
    if (failed(s)) return failure();
    return Term{*s, 0.0};
  }
};

} // namespace

FailureOr<Value> evaluatePolynomial(ScaleManager &m, Location loc, Value x, llvm::StringRef basis,
                                    llvm::ArrayRef<double> coefficients, double a, double b,
                                    PolyEvalCounts *counts) {
  if (std::string error = ckks::checkPolynomial(basis, coefficients, a, b); !error.empty())
    return emitError(loc) << error;
  std::vector<double> cheb =
      basis == "power" ? powerToChebyshev(coefficients, a, b) : std::vector<double>(coefficients.begin(), coefficients.end());
  unsigned logp = m.getLogp();
  // A coefficient below 2^-(logp + 1) is dropped: its scaled constant
  // round(c 2^logp) is zero, and its product would only add rescale noise.
  double negligible = std::ldexp(1.0, -int(logp) - 1);
  for (double &c : cheb)
    if (std::abs(c) < negligible) c = 0;
  size_t d = degreeOf(cheb);
  cheb.resize(d + 1);
  if (d == 0)
    return emitError(loc) << "the polynomial is the constant " << ckks::formatNumber(cheb[0]) << " on ["
                          << ckks::formatNumber(a) << ", " << ckks::formatNumber(b)
                          << "] (its higher coefficients cancel or are below 2^-(logp + 1))";
  // An input above the working scale (an unrescaled product) is rescaled
  // to it first; t = (2x - a - b) / (b - a) maps [a, b] to [-1, 1].
  Value t = x;
  unsigned xLogp = cast<ckks::CiphertextType>(x.getType()).getLogp();
  if (xLogp > logp) {
    FailureOr<Value> s = m.rescale(loc, t, xLogp - logp);
    if (failed(s)) return failure();
    t = *s;
  }
  double scale = 2 / (b - a), shift = -(a + b) / (b - a);
  if (scale != 1) {
    FailureOr<Value> s = m.mulConst(loc, t, scale);
    if (failed(s)) return failure();
    t = *s;
  }
  if (shift != 0) {
    FailureOr<Value> s = m.addConst(loc, t, shift);
    if (failed(s)) return failure();
    t = *s;
  }
  unsigned l = ceilLog2(d + 1);
  PolyEvalCounts local;
  ChebyshevEvaluator evaluator(m, loc, t, uint64_t(1) << ((l + 1) / 2), counts ? *counts : local);
  FailureOr<Term> r = evaluator.eval(cheb, l);
  if (failed(r)) return failure();
  assert(r->v && "a polynomial of degree >= 1 has a ciphertext term");
  return r->v;
}

} // namespace fhec
