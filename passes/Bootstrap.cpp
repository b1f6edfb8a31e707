#include "passes/Bootstrap.h"
#include "passes/PolyEval.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;

namespace fhec {

namespace {

using Complex = std::complex<double>;

// The special FFT of n slots: V_jk = psi^(k 5^j), psi = e^(i pi / 2n) (the
// slot j of a subring polynomial sum_k (T_k + i T_k+n) Y^k, Y = X^(N/2n)).
ComplexMatrix specialFFTMatrix(unsigned n) {
  ComplexMatrix v(n, std::vector<Complex>(n));
  uint64_t four_n = 4 * uint64_t(n), five = 1;
  for (unsigned j = 0; j < n; ++j, five = five * 5 % four_n)
    for (unsigned k = 0; k < n; ++k) {
      double angle = 2 * M_PI * double(uint64_t(k) * five % four_n) / double(four_n);
      v[j][k] = Complex(std::cos(angle), std::sin(angle));
    }
  return v;
}

// ckks.linear_transform of x by the dense matrix `a` (its nonzero generalized
// diagonals, offsets 0 .. size - 1), rescaled to the working scale.
FailureOr<Value> applyMatrix(ScaleManager &m, Location loc, Value x, const ComplexMatrix &a) {
  int64_t size = int64_t(a.size());
  SmallVector<int64_t> offsets;
  std::vector<Complex> flat;
  for (int64_t d = 0; d < size; ++d) {
    std::vector<Complex> diag(static_cast<size_t>(size));
    for (int64_t j = 0; j < size; ++j) diag[size_t(j)] = a[size_t(j)][size_t((j + d) % size)];
    if (llvm::all_of(diag, [](Complex c) { return c == Complex(0); })) continue;
    offsets.push_back(d);
    flat.insert(flat.end(), diag.begin(), diag.end());
  }
  Builder b(x.getContext());
  auto type = RankedTensorType::get({int64_t(offsets.size()), size}, ComplexType::get(b.getF64Type()));
  ElementsAttr diagonals = DenseElementsAttr::get(type, ArrayRef<Complex>(flat));
  return m.linearTransform(loc, x, b.getDenseI64ArrayAttr(offsets), diagonals, IntegerAttr());
}

} // namespace

std::pair<ComplexMatrix, ComplexMatrix> coeffToSlotMatrices(unsigned n) {
  ComplexMatrix v = specialFFTMatrix(n);
  ComplexMatrix a(2 * n, std::vector<Complex>(2 * n)), b = a;
  const Complex i(0, 1);
  // u = V^-1 z = V^H z / n; y_j = Re u_j = (u_j + conj u_j) / 2 and
  // y_j+n = Im u_j = (u_j - conj u_j) / 2i, each z_l read half from w_l, half from w_l+n.
  for (unsigned j = 0; j < n; ++j)
    for (unsigned l = 0; l < 2 * n; ++l) {
      Complex inv = std::conj(v[l % n][j]) / double(n) / 2.0;
      a[j][l] = inv / 2.0;
      b[j][l] = std::conj(inv) / 2.0;
      a[j + n][l] = inv / (2.0 * i);
      b[j + n][l] = -std::conj(inv) / (2.0 * i);
    }
  return {a, b};
}

ComplexMatrix slotToCoeffMatrix(unsigned n, double factor) {
  ComplexMatrix v = specialFFTMatrix(n);
  ComplexMatrix s(2 * n, std::vector<Complex>(2 * n));
  for (unsigned j = 0; j < 2 * n; ++j)
    for (unsigned k = 0; k < n; ++k) {
      s[j][k] = v[j % n][k] * factor;
      s[j][k + n] = v[j % n][k] * Complex(0, factor);
    }
  return s;
}

std::vector<double> evalModCoefficients(const BootstrapConfig &c) {
  // Interpolation at the degree + 1 Chebyshev points (exact for polynomials
  // up to the degree; Trefethen, Approximation Theory, Ch. 3).
  const unsigned d = c.degree;
  const double half = double(c.bound) + 1, twoR = std::ldexp(1.0, int(c.doubleAngles));
  std::vector<double> f(d + 1), coeffs(d + 1, 0.0);
  for (unsigned j = 0; j <= d; ++j) {
    double t = std::cos(M_PI * (j + 0.5) / (d + 1));
    f[j] = std::cos(2 * M_PI * (t * half - 0.25) / twoR);
  }
  for (unsigned k = 0; k <= d; ++k) {
    double sum = 0;
    for (unsigned j = 0; j <= d; ++j) sum += f[j] * std::cos(M_PI * k * (j + 0.5) / (d + 1));
    coeffs[k] = sum * (k == 0 ? 1.0 : 2.0) / (d + 1);
  }
  return coeffs;
}

FailureOr<Value> buildBootstrap(ScaleManager &m, Location loc, Value x, const BootstrapConfig &c) {
  auto in = cast<ckks::CiphertextType>(x.getType());
  unsigned logN = in.getLogN(), n = in.getSlots(), logQ = m.getParams().getLogQ();
  if (2 * n > (1u << (logN - 1)))
    return emitError(loc) << "bootstraps sparse ciphertexts only (2 slots <= N/2), got " << n << " slots";
  if (c.modLogq <= in.getLogp() || c.modLogq > in.getLogq())
    return emitError(loc) << "bootstrapping's q0 = 2^" << c.modLogq << " must lie above the scale 2^" << in.getLogp()
                          << " and at most the input's q = 2^" << in.getLogq();
  if (c.logScale <= c.modLogq - in.getLogp())
    return emitError(loc) << "bootstrapping's working scale 2^" << c.logScale << " must exceed q0 / 2^logp = 2^"
                          << c.modLogq - in.getLogp();
  unsigned savedLogp = m.getLogp();
  llvm::scope_exit restore([&] { m.setLogp(savedLogp); });

  // t = m + q0 I at the top modulus.
  Value t = m.modDown(loc, x, c.modLogq);
  FailureOr<Value> r = m.modRaise(loc, t, logQ);
  if (failed(r)) return failure();
  // SubSum: the trace onto Z[X^(N/2n)] is (N/2n) times the projection.
  unsigned logGap = (logN - 1) - unsigned(llvm::Log2_64(n));
  for (unsigned i = 0; i < logGap; ++i) {
    FailureOr<SmallVector<Value>> rot = m.rotate(loc, *r, {int64_t(n) << i});
    if (failed(rot)) return failure();
    r = m.add(loc, *r, (*rot)[0]);
    if (failed(r)) return failure();
  }
  if (failed(r = m.divByPo2(loc, *r, logGap))) return failure();
  // Slots read at scale q0, in the 2n slots view: V (T_k + i T_k+n) / q0.
  if (failed(r = m.relabel(loc, *r, c.modLogq, 2 * n))) return failure();
  m.setLogp(c.logScale);

  // CoeffToSlot: slot j holds T_j / q0 = I_j + eps_j, eps_j = m_j / q0.
  auto [a, b] = coeffToSlotMatrices(n);
  FailureOr<Value> conj = m.conjugate(loc, *r);
  if (failed(conj)) return failure();
  FailureOr<Value> ya = applyMatrix(m, loc, *r, a), yb = applyMatrix(m, loc, *conj, b);
  if (failed(ya) || failed(yb)) return failure();
  FailureOr<Value> y = m.add(loc, *ya, *yb);
  if (failed(y)) return failure();

  // EvalMod: cos(2 pi (y - 1/4) / 2^r), then r double angles: sin(2 pi y) = 2 pi eps.
  double half = double(c.bound) + 1;
  FailureOr<Value> s = evaluatePolynomial(m, loc, *y, "chebyshev", evalModCoefficients(c), -half, half);
  if (failed(s)) return failure();
  for (unsigned i = 0; i < c.doubleAngles; ++i) {
    FailureOr<Value> sq = m.mul(loc, *s, *s);
    if (failed(sq)) return failure();
    FailureOr<Value> twice = m.add(loc, *sq, *sq);
    if (failed(twice)) return failure();
    if (failed(s = m.addConst(loc, *twice, -1.0))) return failure();
  }

  // SlotToCoeff, with 1 / 2 pi: slots V (eps_k + i eps_k+n) at scale q0, then
  // read at the input's scale (times q0 / 2^logp) and n slots.
  FailureOr<Value> z = applyMatrix(m, loc, *s, slotToCoeffMatrix(n, 1 / (2 * M_PI)));
  if (failed(z)) return failure();
  auto zt = cast<ckks::CiphertextType>(z->getType());
  FailureOr<Value> out = m.relabel(loc, *z, int64_t(zt.getLogp()) - int64_t(c.modLogq - in.getLogp()), n);
  if (failed(out)) return failure();
  // Back to the input's scale (the working scale's extra bits).
  return m.rescale(loc, *out, cast<ckks::CiphertextType>(out->getType()).getLogp() - in.getLogp());
}

} // namespace fhec
