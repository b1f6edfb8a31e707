// The attack cost models of LatticeEstimator.h. Each function names the part
// of the lattice estimator (commit 6019056) it follows; docs/security.md says
// where this code computes the same quantity differently (closed forms and
// searches instead of the estimator's sums over every basis vector).
//
// All costs are kept as log2 of a number of word operations.
#include "fhec/runtime/LatticeEstimator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

namespace fhec::rt::lattice {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.14159265358979323846;
constexpr double kE = 2.71828182845904523536;
constexpr double kLn2 = 0.69314718055994530942;

double log2add(double a, double b) {  // log2(2^a + 2^b)
  if (a < b) std::swap(a, b);
  if (b == -kInf) return a;
  return a + std::log2(1.0 + std::exp2(b - a));
}

double lnChoose(double n, double k) {
  if (k < 0 || k > n) return -kInf;
  return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1);
}

// ---------------------------------------------------------------------------
// Lattice reduction (estimator/reduction.py).

/// Root-Hermite factor of BKZ-beta: experimental values below 40, then
/// Chen's formula (ReductionCost._delta).
double rootHermite(int beta) {
  static constexpr struct { int beta; double delta; } kSmall[] = {
      {2, 1.02190}, {5, 1.01862}, {10, 1.01616}, {15, 1.01485},
      {20, 1.01420}, {25, 1.01342}, {28, 1.01331}, {40, 1.01295}};
  if (beta <= 2) return 1.0219;
  if (beta < 40) {
    for (size_t i = 1; i < std::size(kSmall); ++i)
      if (kSmall[i].beta > beta) return kSmall[i - 1].delta;
  }
  if (beta == 40) return 1.01295;
  double b = beta;
  return std::pow(b / (2 * kPi * kE) * std::pow(kPi * b, 1.0 / b), 1.0 / (2 * (b - 1)));
}

// RC.MATZOV: the AGPS20 list-decoding sieve data refitted by MATZOV (2022),
// classical gates, with progressive BKZ (Kyber20 round 3's model).
constexpr double kSieveA = 0.29613500308205365, kSieveB = 20.387885985467914;
const double kProgressive = 1.0 / (1.0 - std::exp2(-kSieveA));  // C: progressive-sieving overhead

/// Dimensions for free (Ducas 2018): sieving in beta - d4f(beta) suffices.
double dimsForFree(double beta) {
  return std::max(beta * std::log(4.0 / 3.0) / std::log(beta / (2 * kPi * kE)), 0.0);
}

/// log2 of the cost of BKZ-beta on a d-dimensional basis (RC.MATZOV(beta, d):
/// LLL d^3 plus C (d - beta) SVP calls of C 2^(a (beta - d4f) + b) each; below
/// beta = 20 the estimator switches to CheNgu12's enumeration fit).
double log2Bkz(int beta, double d) {
  double lll = 3 * std::log2(d);
  if (beta < 20) {
    double b = beta;
    double calls = beta < d ? std::log2(8 * d) : 0.0;
    return log2add(lll, calls + 0.270188776350190 * b * std::log(b) - 1.0192050451318417 * b +
                            16.10253135200765 + std::log2(100.0));
  }
  double calls = std::log2(kProgressive * std::max(d - beta, 1.0));
  double sieve = std::log2(kProgressive) + kSieveA * (beta - dimsForFree(beta)) + kSieveB;
  return log2add(lll, calls + sieve);
}

/// log2 of the repetitions that lift success probability e^lnP to 0.99
/// (prob.amplify); +inf for probability 0.
double log2Amplify(double lnP) {
  if (lnP == -kInf || std::isnan(lnP)) return kInf;
  double p = std::exp(lnP);
  if (p > 0.99) return 0;
  double reps = lnP < -30 ? std::log(100.0) / p : std::ceil(std::log(0.01) / std::log1p(-p));
  return lnP < -30 ? std::log2(std::log(100.0)) - lnP / kLn2 : std::log2(reps);
}

// ---------------------------------------------------------------------------
// Sums over a GSA basis profile (estimator/prob.py babai and
// mitm_babai_probability). Under the GSA, log r_i is an arithmetic sequence,
// so a product over i of g(r_i) is exp(sum phi(u_0 - s i)) for a fixed smooth
// phi; we sum it with Euler-Maclaurin from a tabulated antiderivative of phi
// instead of visiting every one of the up to 2^17 basis vectors.

struct PhiTable {
  static constexpr double kLo = -30, kHi = 30, kStep = 1.0 / 64;
  double (*phi)(double);
  double slopeLo, constLo;  // phi(u) ~ slopeLo u + constLo below kLo
  bool expTailHi;           // phi(u) ~ -e^{-u/2}/sqrt(pi) above kHi (else ~ 0)
  std::vector<double> F, f; // antiderivative from kLo, and phi, on the grid

  PhiTable(double (*p)(double), double sl, double cl, bool tail) : phi(p), slopeLo(sl), constLo(cl), expTailHi(tail) {
    size_t n = size_t((kHi - kLo) / kStep) + 1;
    F.resize(n);
    f.resize(n);
    for (size_t k = 0; k < n; ++k) f[k] = phi(kLo + k * kStep);
    F[0] = 0;
    for (size_t k = 1; k < n; ++k)  // Simpson on each cell
      F[k] = F[k - 1] + kStep / 6 * (f[k - 1] + 4 * phi(kLo + (k - 0.5) * kStep) + f[k]);
  }
  /// Antiderivative of phi (zero at kLo), with the asymptotic forms outside the grid.
  double antideriv(double u) const {
    if (u <= kLo) return -(slopeLo * (kLo * kLo - u * u) / 2 + constLo * (kLo - u));
    if (u >= kHi) {
      double top = F.back();
      return expTailHi ? top + 2 / std::sqrt(kPi) * (std::exp(-u / 2) - std::exp(-kHi / 2)) : top;
    }
    double t = (u - kLo) / kStep;
    size_t k = std::min(size_t(t), F.size() - 2);
    double x = t - double(k);  // cubic Hermite on (F, F' = phi)
    double h00 = (1 + 2 * x) * (1 - x) * (1 - x), h10 = x * (1 - x) * (1 - x), h01 = x * x * (3 - 2 * x),
           h11 = x * x * (x - 1);
    return h00 * F[k] + h10 * kStep * f[k] + h01 * F[k + 1] + h11 * kStep * f[k + 1];
  }
  /// sum_{i=0}^{count-1} phi(top - step i).
  double sum(double top, double step, double count) const {
    if (count < 1) return 0;
    double bottom = top - step * (count - 1);
    if (count < 2) return phi(top);
    return (antideriv(top) - antideriv(bottom)) / step + 0.5 * (phi(top) + phi(bottom));
  }
};

/// Babai's nearest plane finds e if every |<e, b*_i>| < |b*_i|^2 / 2
/// (Wunderer 2019): with x_i = r_i / (4 D sigma^2), the i-th factor is the
/// probability that a Beta((D-1)/2, 1/2) variable exceeds 1 - x_i, which for
/// large D is P(Gamma(1/2) < (D-1)/2 x_i) = erf(sqrt(y)), y = (D-1)/2 x_i.
/// phi(u) = ln erf(sqrt(e^u)), u = ln y.
double phiBabai(double u) {
  double x = std::exp(u / 2);
  if (x > 27) return 0;
  return x < 0.5 ? std::log(std::erf(x)) : std::log1p(-std::erfc(x));
}

/// Son-Cheon 2019 Lemma 4.2: the MITM step finds the secret halves if the
/// error is "admissible", probability prod_i erf(x_i) - (1 - e^{-x_i^2})/(x_i sqrt pi)
/// with x_i = sqrt(r_i / 2) / sigma. phi(u) = ln of that, u = ln x_i^2.
double phiMitm(double u) {
  double x = std::exp(u / 2);
  const double rpi = std::sqrt(kPi);
  if (x < 0.1) return std::log((x - x * x * x / 6 + std::pow(x, 5) / 30) / rpi);
  if (x < 1) return std::log(std::erf(x) - (1 - std::exp(-x * x)) / (x * rpi));
  return std::log1p(-(std::erfc(x) + -std::expm1(-x * x) / (x * rpi)));
}

const PhiTable &babaiTable() {
  static const PhiTable t(phiBabai, 0.5, std::log(2 / std::sqrt(kPi)), false);
  return t;
}
const PhiTable &mitmTable() {
  static const PhiTable t(phiMitm, 0.5, -0.5 * std::log(kPi), true);
  return t;
}

// ---------------------------------------------------------------------------
// The instance as the attacks see it (estimator/nd.py, lwe_parameters.py).

struct Lwe {
  double n, lnq, log2q, sigmaE, sigmaS, h;
  double lnXi;  // the primal embedding's scaling xi = sigma_e / sigma_s (PrimalUSVP._xi_factor)
  double base;  // values of a nonzero secret coefficient: 2 ({-1, 1})
};

Lwe makeLwe(const Instance &in) {
  Lwe w;
  w.n = double(in.n);
  w.log2q = in.log2q;
  w.lnq = in.log2q * kLn2;
  w.sigmaE = in.sigma;
  if (in.uniformTernary) {  // ND.Uniform(-1, 1): density 2/3, stddev sqrt(2/3)
    w.sigmaS = std::sqrt(2.0 / 3.0);
    w.h = std::round(w.n * 2.0 / 3.0);
  } else {  // ND.SparseTernary(p, m, n) with p = ceil(h/2), m = floor(h/2)
    double p = std::ceil(in.h / 2.0), m = std::floor(in.h / 2.0), mean = (p - m) / w.n;
    w.sigmaS = std::sqrt(double(in.h) / w.n - mean * mean);
    w.h = double(in.h);
  }
  w.lnXi = w.sigmaS < w.sigmaE ? std::log(w.sigmaE / w.sigmaS) : 0.0;
  w.base = 2;
  return w;
}

// ---------------------------------------------------------------------------
// uSVP (lwe_primal.py PrimalUSVP.cost_gsa, Bai-Galbraith embedding with
// Kannan's tau = sigma_e): succeeds when the projected error is shorter than
// the GSA's b*_{d-beta}.

/// The smallest lattice dimension at which BKZ-beta reveals the error, or -1
/// (PrimalUSVP._solve_for_d; the number of samples is unbounded).
double usvpDimension(const Lwe &w, int beta) {
  double lnDelta = std::log(rootHermite(beta)), tau = w.sigmaE;
  double a = -lnDelta;
  double C = std::log(w.sigmaE * w.sigmaE * (beta - 1) + tau * tau) / 2;
  double c = std::log(tau) + w.n * w.lnXi - (w.n + 1) * w.lnq;
  double b = lnDelta * (2 * beta - 1) + w.lnq - C;
  if (a * w.n * w.n + b * w.n + c >= 0) return w.n;
  double disc = b * b - 4 * a * c;
  if (disc < 0) return -1;
  double d1 = (-b + std::sqrt(disc)) / (2 * a);
  return w.n <= d1 ? std::ceil(d1) : -1;
}

AttackCost usvp(const Lwe &w) {
  AttackCost best{"usvp", "usvp", kInf};
  auto cost = [&](int beta, double &dOut) {
    double d = usvpDimension(w, beta);
    if (d < 0) return kInf;
    d = std::max(d, double(beta));
    if (d == beta) d += 1;  // one SVP call would make the cost curve jump
    dOut = d;
    return log2Bkz(beta, d);
  };
  // Feasibility is monotone in beta: find the smallest feasible block size,
  // then walk up while the cost still drops (the estimator's local_minimum).
  double d = 0;
  if (cost(kMaxBeta, d) == kInf) return best;
  int lo = 40, hi = kMaxBeta;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (cost(mid, d) < kInf) hi = mid; else lo = mid + 1;
  }
  for (int beta = lo; beta <= std::min(kMaxBeta, lo + 40); ++beta) {
    double c = cost(beta, d);
    if (c < best.bits) best.bits = c, best.beta = beta, best.d = long(d);
  }
  return best;
}

// ---------------------------------------------------------------------------
// Primal BDD and its hybrids (lwe_primal.py PrimalHybrid): guess zeta
// coordinates of the secret (all patterns of weight <= hw), reduce the
// remaining (n - zeta)-dimensional embedding with BKZ-beta and decode each
// guess, with Babai (eta = 2) or with an SVP call in dimension eta.
// babai && mitm is bdd_mitm_hybrid (Howgrave-Graham 2007; its MITM halves the
// guesses' cost and multiplies by Son-Cheon's admissibility probability);
// !babai && !mitm is bdd (zeta = 0, Liu-Nguyen 2013) and bdd_hybrid
// (Albrecht-Curtis-Wunderer 2019).

struct HybridRow {  // the hw-independent part of one (zeta, beta)
  bool done = false, ok = false;
  double log2Red = 0, log2Svp = 0, lnProb = 0, d = 0, eta = 0;
};

/// svp_dimension_gsa: the smallest projection in which (pi(e), tau) is the
/// shortest vector by the Gaussian heuristic; returns the SVP dimension eta + 1.
double svpDimensionGsa(double d, double lnVol, double lnDelta, double sigma) {
  auto ballLogVol = [](double k) { return k / 2 * std::log(kPi) - std::lgamma(k / 2 + 1); };
  double tau = sigma;
  auto fails = [&](double i) {  // Gaussian heuristic below the error: not unique from i on
    double k = d - i + 1;
    double lpv = (d - i) / d * lnVol - i * (d - i) * lnDelta;
    double gh = (2 * lpv + 2 * std::log(tau) - 2 * ballLogVol(k)) / k;
    return gh < std::log(sigma * sigma * (d - i) + tau * tau);
  };
  double lo = d > 4096 ? d - 1754 : 0, hi = d - 1;
  if (fails(lo)) return d - lo + 2;
  if (!fails(hi)) return 2;
  while (hi - lo > 1) {  // first failing i; the GSA makes the test monotone in i
    double mid = std::floor((lo + hi) / 2);
    if (fails(mid)) hi = mid; else lo = mid;
  }
  return d - hi + 2;
}

HybridRow hybridRow(const Lwe &w, long zeta, int beta, bool babai, bool mitm, double dFixed) {
  HybridRow row;
  row.done = true;
  double nr = w.n - double(zeta);  // secret coordinates left in the lattice
  double lnDelta = std::log(rootHermite(beta));
  double d = dFixed;
  if (d <= 0) {
    double arg = nr * (w.lnq - w.lnXi) / lnDelta;
    d = std::max(double(beta), arg > 0 ? std::ceil(std::sqrt(arg)) : 0.0);
  } else if (d < beta) {
    return row;
  }
  // GSA profile of [q I | A; 0 | xi I]: ln r_i = 2((d - 1 - 2i) ln delta + ln vol / d).
  double lnVol = (d - nr) * w.lnq + nr * w.lnXi;
  double lnR0 = 2 * ((d - 1) * lnDelta + lnVol / d), step = 4 * lnDelta;
  double s2 = w.sigmaE * w.sigmaE;
  row.d = d;
  row.log2Red = log2Bkz(beta, d);
  double lnP = 0;
  if (babai) {
    row.eta = 2;
    row.log2Svp = 2 * std::log2(d);
    lnP += babaiTable().sum(lnR0 + std::log((d - 1) / 2 / (4 * d * s2)), step, d);
  } else {
    double svpDim = svpDimensionGsa(d, lnVol, lnDelta, w.sigmaE);
    row.eta = svpDim - 1;
    if (row.eta > d) return row;
    row.log2Svp = log2add(log2Bkz(int(svpDim), svpDim), 2 * std::log2(std::max(d - row.eta, 1.0)));
    double D = d - row.eta;
    if (D >= 2) lnP += babaiTable().sum(lnR0 + std::log((D - 1) / 2 / (4 * D * s2)), step, D);
  }
  if (mitm && zeta > 0 && babai) lnP += mitmTable().sum(lnR0 - std::log(2 * s2), step, d);
  row.lnProb = lnP;
  row.ok = true;
  return row;
}

/// The guessing sets of prob.guessing_set_and_hit_probability: all patterns
/// of weight <= hw on zeta coordinates (log2Size), and the probability that
/// the secret's restriction is among them (lnHit; hypergeometric in the fixed
/// weight h). Only weights from 40 standard deviations below the expected
/// weight zeta h / n (further down, the repetitions alone would cost more than
/// 2^600) to 12 above it (there the hit probability is 1 and the guesses only
/// grow) are tabulated, the terms by their ratios, so a table costs
/// O(sqrt(zeta)). Guessing far below the expected weight often wins against a
/// sparse secret: cheap guesses, repeated for other sets of coordinates.
struct GuessTable {
  long first = 0;  // the weight of entry 0
  std::vector<double> log2Size, lnHit;
  GuessTable(const Lwe &w, long zeta) {
    double z = double(zeta), n = w.n, h = w.h;
    long minHw = std::max(0L, zeta - long(n) + long(h)), maxHw = std::min(zeta, long(h));
    double mean = z * h / n, sd = std::sqrt(z * (h / n) * (1 - h / n) * (n - z) / std::max(n - 1, 1.0));
    long lo = std::max(minHw, long(std::floor(mean - 40 * sd - 2)));
    long hi = std::min(maxHw, long(std::ceil(mean + 12 * sd + 2)));
    first = lo;
    double lnBase = std::log(w.base);
    auto lnAdd = [](double a, double b) { return log2add(a / kLn2, b / kLn2) * kLn2; };
    double lnTerm = lnChoose(z, double(lo)) + double(lo) * lnBase;  // C(zeta, hw) base^hw
    double lnSize = -kInf;                                          // sum over weights < lo
    double t = lnTerm;
    for (long v = lo; v > minHw && lo - v < 4000; --v) {
      t += std::log(double(v) / (w.base * (z - double(v) + 1)));
      lnSize = lnAdd(lnSize, t);
      if (t < lnSize - 45) break;
    }
    double lnPmf = lnChoose(n - h, z - double(lo)) + lnChoose(h, double(lo)) - lnChoose(n, z);
    double hit = 0;
    for (long v = lo; v <= hi; ++v) {
      double dv = double(v);
      lnSize = lnAdd(lnSize, lnTerm);
      hit += std::exp(lnPmf);
      log2Size.push_back(lnSize / kLn2);
      lnHit.push_back(std::log(std::min(hit, 1.0)));
      lnTerm += std::log(w.base * (z - dv) / (dv + 1));
      lnPmf += std::log((h - dv) * (z - dv) / ((dv + 1) * (n - h - z + dv + 1)));
    }
  }
};

struct ZetaResult {
  double bits = kInf;
  int beta = 0;
  long hw = 0, d = 0, eta = 0;
};

/// Cheapest cost for a fixed zeta (PrimalHybrid.cost_zeta without its d
/// optimisation): for hw = minHw, minHw + 1, ... the best block size in
/// [40, maxBeta], stopping once a larger hw costs more.
ZetaResult hybridAtZeta(const Lwe &w, long zeta, int maxBeta, bool babai, bool mitm) {
  std::vector<HybridRow> rows(size_t(maxBeta + 1));
  auto row = [&](int beta) -> const HybridRow & {
    HybridRow &r = rows[size_t(beta)];
    if (!r.done) r = hybridRow(w, zeta, beta, babai, mitm, 0);
    return r;
  };
  GuessTable g(w, zeta);
  auto cost = [&](int beta, size_t k) {
    const HybridRow &r = row(beta);
    if (!r.ok) return kInf;
    double guesses = mitm ? g.log2Size[k] / 2 : g.log2Size[k];
    return log2add(r.log2Red, r.log2Svp + guesses) + log2Amplify(g.lnHit[k] + r.lnProb);
  };
  // The best block size for weight index k: a coarse scan the first time, then
  // a descent from the last optimum (the optimum moves little with hw).
  int beta = -1;
  auto bestAt = [&](size_t k, int &betaOut) {
    double c;
    if (beta < 0) {
      double bc = kInf;
      int bb = 40;
      for (int b = 40; b <= maxBeta; b += 8)
        if ((c = cost(b, k)) < bc) bc = c, bb = b;
      for (int b = std::max(40, bb - 8); b <= std::min(maxBeta, bb + 8); ++b)
        if ((c = cost(b, k)) < bc) bc = c, bb = b;
      beta = bb;
      c = bc;
    } else {
      c = cost(beta, k);
      for (int dir : {-1, 1})
        for (int b = beta + dir; b >= 40 && b <= maxBeta; b += dir) {
          double cb = cost(b, k);
          if (!(cb < c)) break;
          c = cb, beta = b;
        }
    }
    betaOut = beta;
    return c;
  };
  ZetaResult best;
  auto take = [&](size_t k, double c, int b) {
    const HybridRow &r = row(b);
    best = {c, b, g.first + long(k), long(r.d), long(r.eta)};
  };
  size_t K = g.log2Size.size();
  if (K <= 128) {
    // The estimator's rule: hw = minHw, minHw + 1, ... until the cost rises.
    for (size_t k = 0; k < K; ++k) {
      int b;
      double c = bestAt(k, b);
      if (c > best.bits) break;
      take(k, c, b);
    }
    return best;
  }
  // Many weights (a dense secret): the cost in hw falls, then rises; find
  // that minimum by ternary search instead of walking every weight.
  size_t lo = 0, hi = K - 1;
  while (hi - lo > 4) {
    size_t a = lo + (hi - lo) / 3, c = hi - (hi - lo) / 3;
    int ba, bc;
    double ca = bestAt(a, ba), cc = bestAt(c, bc);
    if (ca <= cc) hi = c; else lo = a;
  }
  for (size_t k = lo; k <= hi; ++k) {
    int b;
    double c = bestAt(k, b);
    if (c < best.bits) take(k, c, b);
  }
  return best;
}

AttackCost primalHybrid(const Lwe &w, const char *key, const char *name, bool babai, bool mitm, bool guess,
                        int usvpBeta) {
  AttackCost out{key, name, kInf};
  int maxBeta = std::min(kMaxBeta, usvpBeta > 0 ? usvpBeta + 1 : kMaxBeta);
  long n = long(w.n);
  auto f = [&](long zeta) { return hybridAtZeta(w, zeta, maxBeta, babai, mitm); };
  ZetaResult best = f(0);
  long bestZeta = 0;
  if (guess) {
    // zeta: a coarse grid over [0, n - 1], then golden-section search around
    // the best point and its neighbourhood (the estimator uses Brent's method).
    constexpr int kGrid = 32;
    long step = std::max(1L, (n - 1) / kGrid);
    for (long z = step; z <= n - 1; z += step) {
      ZetaResult r = f(z);
      if (r.bits < best.bits) best = r, bestZeta = z;
    }
    long lo = std::max(0L, bestZeta - step), hi = std::min(n - 1, bestZeta + step);
    const double invPhi = 0.6180339887498949;
    while (hi - lo > 6) {
      long a = hi - long(std::llround(invPhi * double(hi - lo))), b = lo + long(std::llround(invPhi * double(hi - lo)));
      if (a >= b) break;
      ZetaResult ra = f(a), rb = f(b);
      if (ra.bits < best.bits) best = ra, bestZeta = a;
      if (rb.bits < best.bits) best = rb, bestZeta = b;
      if (ra.bits <= rb.bits) hi = b; else lo = a;
    }
    long first = std::max(0L, std::min(lo, bestZeta - 3)), last = std::min(n - 1, std::max(hi, bestZeta + 3));
    for (long z = first; z <= last; ++z) {
      ZetaResult r = f(z);
      if (r.bits < best.bits) best = r, bestZeta = z;
    }
  } else {
    // primal_bdd also optimises the lattice dimension at the best block size.
    if (best.bits < kInf) {
      double lo = w.n, hi = double(best.d);
      auto at = [&](double d) {
        HybridRow r = hybridRow(w, 0, best.beta, babai, mitm, d);
        return r.ok ? log2add(r.log2Red, r.log2Svp) + log2Amplify(r.lnProb) : kInf;
      };
      while (hi - lo > 2) {
        double a = std::floor(lo + (hi - lo) / 3), b = std::ceil(hi - (hi - lo) / 3);
        if (at(a) <= at(b)) hi = b; else lo = a;
      }
      for (double d = lo; d <= hi; ++d) {
        double c = at(d);
        if (c < best.bits) best.bits = c, best.d = long(d);
      }
    }
  }
  out.bits = best.bits > 10000 ? kInf : best.bits;  // Cost.sanity_check
  out.beta = best.beta;
  out.d = best.d;
  out.zeta = bestZeta;
  out.hw = best.hw;
  out.eta = best.eta;
  return out;
}

// ---------------------------------------------------------------------------
// Dual hybrid with the FFT distinguisher of Guo-Johansson 2021 and MATZOV 2022
// (lwe_dual.py MATZOV, the estimator's dual_hybrid): short dual vectors from a
// sieve on a BKZ-beta reduced basis of k_lat + m dimensions, k_enum
// coordinates enumerated and k_fft coordinates resolved mod p by an FFT.

struct DualParams {
  double bits = kInf;
  int beta = 0;
  long kEnum = 0, kFft = 0, p = 0, d = 0;
};

double matzovCost(const Lwe &w, int beta, double p, double kEnum, double kFft) {
  const double m = w.n;  // MATZOV.cost's default: m = n samples
  double kLat = w.n - kFft - kEnum;
  double lnDelta = std::log(rootHermite(beta));
  // Nf (MATZOV p. 39 and p. 29): the number of dual vectors needed.
  double lnSigmaS = m / (m + kLat) * std::log(w.sigmaE) + kLat / (m + kLat) * (std::log(w.sigmaS) + w.lnq) +
                    0.5 * std::log(4.0 / 3.0) + 0.5 * std::log(beta / (2 * kPi * kE)) +
                    (m + kLat - beta) * lnDelta;
  double e = 2 * (lnSigmaS - w.lnq);
  if (e > 600) return kInf;
  const double H = (0.5 + std::log(std::sqrt(2 * kPi) * w.sigmaS) + std::log(1 / std::tanh(kPi * kPi * w.sigmaS * w.sigmaS))) / kLn2;
  double lnN = 4 * kPi * kPi * std::exp(e) + kFft / 3 * std::pow(w.sigmaS * kPi / p, 2) +
               std::log(kEnum * H + kFft * std::log(p) + std::log(2.0));
  // GJ21.short_vectors: after BKZ-beta, sieve the first sieveDim basis vectors,
  // sieveDim chosen so that one sieve costs about as much as the BKZ tours;
  // each sieve yields 2^(0.2075 sieveDim) short vectors.
  double d = kLat + m;
  double sieveDim = beta - std::floor(dimsForFree(beta));
  if (beta < d) sieveDim = std::min(d, std::floor(sieveDim + std::log2((d - beta) * kProgressive) / kSieveA));
  double batch = std::floor(std::exp2(0.2075 * sieveDim));
  double log2Batches = lnN / kLn2 - std::log2(batch);
  if (log2Batches > 1000) return kInf;
  log2Batches = log2Batches > 0 ? std::log2(std::ceil(std::exp2(log2Batches))) : 0.0;
  double tSample = log2Batches + log2add(log2Bkz(beta, d), std::log2(kProgressive) + kSieveA * sieveDim + kSieveB);
  // Theorem 7.6: enumerate the k_enum guesses, run the FFT and the table updates for each.
  double alpha = kPi * kPi * w.sigmaS * w.sigmaS;
  double tmpA = std::exp(8 * alpha * std::exp(-2 * alpha) * std::tanh(alpha));
  double coeff = -std::log2(-std::expm1(-1 / (2 * w.sigmaS * w.sigmaS)));
  double fft = kFft > 0 ? std::log2(1024.0 * kFft) + (kFft + 1) * std::log2(p) : -kInf;
  double table = std::log2(4 * 160.0) + lnN / kLn2;
  double tGuess = coeff + kEnum * std::log2(2 * tmpA / std::sqrt(kE)) + kEnum * H + log2add(fft, table);
  return log2add(tSample, tGuess);
}

AttackCost dualHybrid(const Lwe &w) {
  // The estimator's nested early-abort loops: p = 2, 3, ...; k_enum and k_fft
  // in steps of 10 while the cost drops; the best beta for each.
  auto bestBeta = [&](double p, double kEnum, double kFft, int &betaOut) {
    int lo = 40, hi = kMaxBeta;
    while (hi - lo > 2) {  // ternary search on a unimodal cost
      int a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3;
      if (matzovCost(w, a, p, kEnum, kFft) <= matzovCost(w, b, p, kEnum, kFft)) hi = b; else lo = a;
    }
    double best = kInf;
    for (int b = lo; b <= hi; ++b) {
      double c = matzovCost(w, b, p, kEnum, kFft);
      if (c < best) best = c, betaOut = b;
    }
    return best;
  };
  DualParams best;
  long n = long(w.n);
  for (long p = 2;; ++p) {
    DualParams bp;
    for (long kEnum = 0; kEnum < n; kEnum += 10) {
      DualParams be;
      for (long kFft = 0; kFft < n - kEnum; kFft += 10) {
        int beta = 40;
        double c = bestBeta(double(p), double(kEnum), double(kFft), beta);
        if (be.p != 0 && (c == kInf || !(c <= be.bits))) break;
        be = {c, beta, kEnum, kFft, p, long(w.n - kFft - kEnum + w.n)};
      }
      if (bp.p != 0 && (be.bits == kInf || !(be.bits <= bp.bits))) break;
      bp = be;
    }
    bool improved = best.p == 0 || (bp.bits < kInf && bp.bits <= best.bits);
    if (improved) best = bp;
    if (!improved || (best.kFft == 0 && p > 2)) break;
  }
  AttackCost out{"dual_hybrid", "dual hybrid (MATZOV)", best.bits > 10000 ? kInf : best.bits};
  out.beta = best.beta;
  out.d = best.d;
  out.zeta = best.kEnum;
  out.eta = best.kFft;
  return out;
}

} // namespace

const AttackCost &Estimate::cheapest() const {
  size_t best = 0;
  for (size_t i = 1; i < attacks.size(); ++i)
    if (attacks[i].bits < attacks[best].bits) best = i;
  return attacks[best];
}

const AttackCost *Estimate::find(const std::string &key) const {
  for (const AttackCost &a : attacks)
    if (a.key == key) return &a;
  return nullptr;
}

Estimate estimate(const Instance &in) {
  Lwe w = makeLwe(in);
  Estimate e;
  AttackCost u = usvp(w);
  int usvpBeta = u.bits < kInf ? u.beta : 0;
  e.attacks.push_back(u);
  e.attacks.push_back(primalHybrid(w, "bdd", "bdd", false, false, false, usvpBeta));
  e.attacks.push_back(primalHybrid(w, "bdd_hybrid", "primal hybrid", false, false, true, usvpBeta));
  e.attacks.push_back(primalHybrid(w, "bdd_mitm_hybrid", "primal hybrid (MITM)", true, true, true, usvpBeta));
  e.attacks.push_back(dualHybrid(w));
  return e;
}

} // namespace fhec::rt::lattice
