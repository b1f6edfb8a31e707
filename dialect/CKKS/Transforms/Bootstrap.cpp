#include "dialect/CKKS/Transforms/Bootstrap.h"
#include "dialect/CKKS/Transforms/HighPrecision.h"
#include "dialect/CKKS/Transforms/PolyEval.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;

namespace fhec {

using Complex = std::complex<double>;

ComplexMatrix specialFFTMatrix(unsigned n) {
  ComplexMatrix v(n, std::vector<Complex>(n));
  uint64_t four_n = 4 * uint64_t(n), five = 1;
  std::vector<Complex> roots(four_n);  // the 4n-th roots of unity: every entry is one
  for (uint64_t r = 0; r < four_n; ++r) roots[r] = rootOfUnity(r, four_n);
  for (unsigned j = 0; j < n; ++j, five = five * 5 % four_n)
    for (unsigned k = 0; k < n; ++k) v[j][k] = roots[uint64_t(k) * five % four_n];
  return v;
}

namespace {

constexpr unsigned kMaxDenseSlots = 32;
// Bits the raised ciphertext is scaled up by before decapsulation (see buildBootstrap).
constexpr unsigned kDecapsulationLiftBits = 8;

// ckks.linear_transform of x by the matrix of these generalized diagonals,
// rescaled to the working scale.
FailureOr<Value> applyDiagonals(ScaleManager &m, Location loc, Value x, const DiagonalMatrix &a, unsigned size,
                                bool rescaleAfter = true) {
  SmallVector<int64_t> offsets;
  std::vector<Complex> flat;
  for (const auto &[d, diag] : a) {
    offsets.push_back(d);
    flat.insert(flat.end(), diag.begin(), diag.end());
  }
  MLIRContext *ctx = x.getContext();
  ElementsAttr diagonals = ckks::slotValuesAttr(ctx, flat, {int64_t(offsets.size()), int64_t(size)});
  return m.linearTransform(loc, x, DenseI64ArrayAttr::get(ctx, offsets), diagonals, IntegerAttr(), rescaleAfter);
}

// The same for a dense matrix.
FailureOr<Value> applyMatrix(ScaleManager &m, Location loc, Value x, const ComplexMatrix &a) {
  return applyDiagonals(m, loc, x, diagonalsOf(a), unsigned(a.size()));
}

// EvalMod on y = x / (K + 1), x = I + eps: the Chebyshev series of
// cos(2 pi (x - 1/4) / 2^r), then r double angles c <- 2c^2 - 1, giving
// sin(2 pi x) = sin(2 pi eps) (Han-Ki 2020).
FailureOr<Value> evalMod(ScaleManager &m, Location loc, Value y, const BootstrapConfig &c) {
  FailureOr<Value> s = evaluatePolynomial(m, loc, y, "chebyshev", evalModCoefficients(c), -1.0, 1.0);
  if (failed(s)) return failure();
  for (unsigned i = 0; i < c.doubleAngles; ++i) {
    FailureOr<Value> sq = m.mul(loc, *s, *s);
    if (failed(sq)) return failure();
    FailureOr<Value> twice = m.add(loc, *sq, *sq);
    if (failed(twice)) return failure();
    if (failed(s = m.addConst(loc, *twice, -1.0))) return failure();
  }
  return s;
}

// Every diagonal divided by `divisor`.
void divideDiagonals(DiagonalMatrix &a, double divisor) {
  for (auto &[d, diag] : a)
    for (Complex &v : diag) v /= divisor;
}

// x's matrices in turn, one linear_transform (one level) each, their
// constants at scale 2^constLogp, each product rescaled to 2^outLogp.
FailureOr<Value> applyStages(ScaleManager &m, Location loc, Value x, llvm::ArrayRef<DiagonalMatrix> stages,
                             unsigned size, unsigned constLogp, unsigned outLogp) {
  unsigned workingLogp = m.getLogp();
  m.setLogp(constLogp);
  FailureOr<Value> r = x;
  for (const DiagonalMatrix &stage : stages) {
    if (failed(r = applyDiagonals(m, loc, *r, stage, size, /*rescaleAfter=*/false))) break;
    if (failed(r = m.rescale(loc, *r, cast<ckks::CiphertextType>(r->getType()).getLogp() - outLogp))) break;
  }
  m.setLogp(workingLogp);
  return r;
}

} // namespace

DiagonalMatrix diagonalsOf(const ComplexMatrix &a) {
  size_t size = a.size();
  DiagonalMatrix out;
  for (size_t d = 0; d < size; ++d) {
    std::vector<Complex> diag(size);
    for (size_t j = 0; j < size; ++j) diag[j] = a[j][(j + d) % size];
    if (llvm::any_of(diag, [](Complex c) { return c != Complex(0); })) out[int64_t(d)] = std::move(diag);
  }
  return out;
}

DiagonalMatrix multiply(const DiagonalMatrix &a, const DiagonalMatrix &b, unsigned size) {
  // (A B x)[j] = sum_d a_d[j] sum_e b_e[j + d] x[j + d + e].
  DiagonalMatrix out;
  for (const auto &[d, ad] : a)
    for (const auto &[e, be] : b) {
      std::vector<Complex> &o = out[(d + e) % size];
      o.resize(size);
      for (unsigned j = 0; j < size; ++j) o[j] += ad[j] * be[(j + size_t(d)) % size];
    }
  for (auto it = out.begin(); it != out.end();)
    it = llvm::all_of(it->second, [](Complex c) { return c == Complex(0); }) ? out.erase(it) : std::next(it);
  return out;
}

std::vector<DiagonalMatrix> specialFFTStages(unsigned n, bool inverse) {
  // Stage len = 2^s pairs slots p and p + len/2 (p mod len < len/2) with the
  // twiddle w = e^(2 pi i (5^j mod 4 len) / 4 len), j = p mod len:
  // (u, v) -> (u + w v, u - w v); its inverse (a, b) -> ((a + b)/2, (a - b)/2w).
  std::vector<DiagonalMatrix> stages;
  for (unsigned len = 2; len <= n; len *= 2) {
    unsigned h = len / 2;
    DiagonalMatrix s;
    for (int64_t d : {int64_t(0), int64_t(h), int64_t(n - h)}) s[d].resize(n);
    uint64_t five = 1;
    for (unsigned j = 0; j < h; ++j, five = five * 5 % (4 * uint64_t(len))) {
      Complex w = rootOfUnity(five, 4 * uint64_t(len));
      for (unsigned p = j; p < n; p += len) {
        if (!inverse) {
          s[0][p] += 1.0, s[h][p] += w;                // u + w v
          s[n - h][p + h] += 1.0, s[0][p + h] += -w;   // u - w v
        } else {
          s[0][p] += 0.5, s[h][p] += 0.5;                      // (a + b) / 2
          s[n - h][p + h] += 0.5 / w, s[0][p + h] += -0.5 / w; // (a - b) / 2w
        }
      }
    }
    stages.push_back(std::move(s));
  }
  return stages;
}

std::vector<DiagonalMatrix> groupStages(llvm::ArrayRef<DiagonalMatrix> stages, unsigned levels, unsigned size) {
  std::vector<DiagonalMatrix> out;
  size_t next = 0;
  for (unsigned g = 0; g < levels; ++g) {
    // The first groups take the remainder's extra stage.
    size_t count = stages.size() / levels + (g < stages.size() % levels ? 1 : 0);
    DiagonalMatrix product = stages[next++];
    for (size_t i = 1; i < count; ++i) product = multiply(stages[next++], product, size);
    out.push_back(std::move(product));
  }
  return out;
}

std::pair<ComplexMatrix, ComplexMatrix> coeffToSlotMatrices(unsigned n, double factor) {
  ComplexMatrix v = specialFFTMatrix(n);
  ComplexMatrix a(2 * n, std::vector<Complex>(2 * n)), b = a;
  const Complex i(0, 1);
  // u = V^-1 z = V^H z / n; y_j = Re u_j = (u_j + conj u_j) / 2 and
  // y_j+n = Im u_j = (u_j - conj u_j) / 2i, each z_l read half from w_l, half from w_l+n.
  for (unsigned j = 0; j < n; ++j)
    for (unsigned l = 0; l < 2 * n; ++l) {
      Complex inv = std::conj(v[l % n][j]) / double(n) / 2.0 * factor;
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
  return chebyshevCosineCoefficients(c.degree, c.bound, c.doubleAngles);
}

FailureOr<Value> buildBootstrap(ScaleManager &m, Location loc, Value x, const BootstrapConfig &c) {
  auto in = cast<ckks::CiphertextType>(x.getType());
  unsigned logN = in.getLogN(), n = in.getSlots(), logQ = m.getParams().getLogQ();
  if (c.modLogq <= in.getLogp() || c.modLogq > in.getLogq())
    return emitError(loc) << "bootstrapping's q0 = 2^" << c.modLogq << " must lie above the scale 2^" << in.getLogp()
                          << " and at most the input's q = 2^" << in.getLogq();
  if (c.logScale <= c.modLogq - in.getLogp())
    return emitError(loc) << "bootstrapping's working scale 2^" << c.logScale << " must exceed q0 / 2^logp = 2^"
                          << c.modLogq - in.getLogp();
  if (!c.levelBudget.empty() && (n < 2 || c.levelBudget[0] < 1 || c.levelBudget[1] < 1 ||
                                 std::max(c.levelBudget[0], c.levelBudget[1]) > llvm::Log2_64(n)))
    return emitError(loc) << "level_budget needs 1 <= levels <= log2 slots = " << llvm::Log2_64(n);
  // Dense CoeffToSlot (2n diagonals, one level, the 2n slots view) up to 32
  // sparse slots; factored beyond, where 2n diagonals would cost more than a
  // level, and for full slots, which have no 2n slots view.
  bool factored = !c.levelBudget.empty() || n > kMaxDenseSlots || 2 * n > (1u << (logN - 1));
  unsigned savedLogp = m.getLogp();
  llvm::scope_exit restore([&] { m.setLogp(savedLogp); });

  // t = m + q0 I at the top modulus. With a dense secret, under an ephemeral
  // sparse one (sparse-secret encapsulation, Bossuat, Troncoso-Pastoriza,
  // Hubaux 2022, Sec. 5), whose small weight keeps |I| <= 17.
  const bool encapsulated = m.getParams().getSecretKind() != rt::SecretKind::Sparse;
  Value t = m.modDown(loc, x, c.modLogq);
  if (encapsulated) t = m.encapsulate(loc, t);
  FailureOr<Value> r = m.modRaise(loc, t, logQ);
  if (failed(r)) return failure();
  // Decapsulation's key switch adds about sqrt(dnum N / 3) sigma digit / P
  // (~2^9.4 at N = 2^16) to every coefficient of t, which full-slot decoding
  // sums over N coefficients (2^-12.6 per slot at scale 2^30). t times 2^lift
  // first (exact mod Q: t is far below it) puts that noise 2^lift below the
  // message, for lift bits more of CoeffToSlot's first rescale.
  const unsigned lift = encapsulated ? kDecapsulationLiftBits : 0;
  if (encapsulated) {
    r = m.mulByPo2(loc, *r, lift);
    if (failed(r)) return failure();
    r = m.decapsulate(loc, *r, c.modLogq);
  }
  // SubSum: the trace onto Z[X^(N/2n)] is (N/2n) times the projection.
  unsigned logGap = (logN - 1) - unsigned(llvm::Log2_64(n));
  for (unsigned i = 0; i < logGap; ++i) {
    FailureOr<SmallVector<Value>> rot = m.rotate(loc, *r, {int64_t(n) << i});
    if (failed(rot)) return failure();
    r = m.add(loc, *r, (*rot)[0]);
    if (failed(r)) return failure();
  }
  if (logGap && failed(r = m.divByPo2(loc, *r, logGap))) return failure();
  // EvalMod reads x / (K + 1): CoeffToSlot's matrices carry the 1 / (K + 1).
  const double half = double(c.bound) + 1;
  FailureOr<Value> z;
  if (!factored) {
    // Slots read at scale q0, in the 2n slots view: V (T_k + i T_k+n) / q0.
    if (failed(r = m.relabel(loc, *r, c.modLogq + lift, 2 * n))) return failure();
    m.setLogp(c.logScale);
    // CoeffToSlot: slot j holds T_j / q0 = I_j + eps_j (over K + 1), real.
    auto [a, b] = coeffToSlotMatrices(n, 1 / half);
    FailureOr<Value> conj = m.conjugate(loc, *r);
    if (failed(conj)) return failure();
    FailureOr<Value> ya = applyMatrix(m, loc, *r, a), yb = applyMatrix(m, loc, *conj, b);
    if (failed(ya) || failed(yb)) return failure();
    FailureOr<Value> y = m.add(loc, *ya, *yb);
    if (failed(y)) return failure();
    FailureOr<Value> s = evalMod(m, loc, *y, c);
    if (failed(s)) return failure();
    // SlotToCoeff, with 1 / 2 pi: slots V (eps_k + i eps_k+n) at scale q0.
    z = applyMatrix(m, loc, *s, slotToCoeffMatrix(n, inverseTwoPi()));
  } else {
    // Factored (Chen-Chillotti-Song 2019): V = S_L ... S_1 P (P the bit
    // reversal), grouped into level_budget linear transforms each way. The
    // slots u = (T_k + i T_k+n) / q0 come out bit-reversed, which EvalMod,
    // slot-wise, does not mind and SlotToCoeff's S_1 expects.
    unsigned cts = c.levelBudget.empty() ? 3 : c.levelBudget[0], stc = c.levelBudget.empty() ? 3 : c.levelBudget[1];
    unsigned logn = unsigned(llvm::Log2_64(n));
    cts = std::min(cts, logn), stc = std::min(stc, logn);
    if (failed(r = m.relabel(loc, *r, c.modLogq + lift, n))) return failure();
    m.setLogp(c.logScale);
    std::vector<DiagonalMatrix> inverse = specialFFTStages(n, /*inverse=*/true);
    std::reverse(inverse.begin(), inverse.end());
    // u / 2(K + 1), so that u + conj(u) and i (conj(u) - u) are Re u / (K + 1), Im u / (K + 1).
    divideDiagonals(inverse.front(), 2 * half);
    // Its constants at the working scale; the result lands at it.
    FailureOr<Value> u = applyStages(m, loc, *r, groupStages(inverse, cts, n), n, c.logScale, c.logScale);
    if (failed(u)) return failure();
    FailureOr<Value> conj = m.conjugate(loc, *u);
    if (failed(conj)) return failure();
    FailureOr<Value> re = m.add(loc, *u, *conj), diff = m.sub(loc, *conj, *u);
    if (failed(re) || failed(diff)) return failure();
    // X^(N/2) multiplies every slot by i (imult).
    const int64_t imult = int64_t(1) << (logN - 1);
    FailureOr<Value> im = m.mulMonomial(loc, *diff, imult);
    if (failed(im)) return failure();
    FailureOr<Value> sRe = evalMod(m, loc, *re, c), sIm = evalMod(m, loc, *im, c);
    if (failed(sRe) || failed(sIm)) return failure();
    FailureOr<Value> iIm = m.mulMonomial(loc, *sIm, imult);
    if (failed(iIm)) return failure();
    FailureOr<Value> s = m.add(loc, *sRe, *iIm);
    if (failed(s)) return failure();
    std::vector<DiagonalMatrix> forward = specialFFTStages(n, /*inverse=*/false);
    const double inv2pi = inverseTwoPi();
    for (auto &[d, diag] : forward.front())
      for (Complex &v : diag) v *= inv2pi;
    // Its constants at the message's scale 2^logp: the values are the small
    // eps, which need logp bits relative to themselves, not the working scale's.
    z = applyStages(m, loc, *s, groupStages(forward, stc, n), n, in.getLogp(), c.logScale);
  }
  if (failed(z)) return failure();
  // Read at the input's scale (times q0 / 2^logp) and n slots.
  auto zt = cast<ckks::CiphertextType>(z->getType());
  FailureOr<Value> out = m.relabel(loc, *z, int64_t(zt.getLogp()) - int64_t(c.modLogq - in.getLogp()), n);
  if (failed(out)) return failure();
  // Back to the input's scale (the working scale's extra bits).
  return m.rescale(loc, *out, cast<ckks::CiphertextType>(out->getType()).getLogp() - in.getLogp());
}

} // namespace fhec
