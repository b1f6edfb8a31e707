#include "dialect/CKKS/Transforms/HighPrecision.h"

#include <mpfr.h>

namespace fhec {

namespace {
// One MPFR number at kConstantBits bits.
struct Real {
  mpfr_t v;
  Real() { mpfr_init2(v, kConstantBits); }
  Real(const Real &) = delete;
  Real &operator=(const Real &) = delete;
  ~Real() { mpfr_clear(v); }
  double toDouble() const { return mpfr_get_d(v, MPFR_RNDN); }
};

// x = pi * num / den.
void piTimes(Real &x, uint64_t num, uint64_t den) {
  mpfr_const_pi(x.v, MPFR_RNDN);
  mpfr_mul_ui(x.v, x.v, num, MPFR_RNDN);
  mpfr_div_ui(x.v, x.v, den, MPFR_RNDN);
}
} // namespace

std::complex<double> rootOfUnity(uint64_t k, uint64_t m) {
  k %= m;
  if ((4 * k) % m == 0) {  // a multiple of pi / 2
    static const std::complex<double> quarter[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    return quarter[4 * k / m];
  }
  Real angle, s, c;
  piTimes(angle, 2 * k, m);
  mpfr_sin_cos(s.v, c.v, angle.v, MPFR_RNDN);
  return {c.toDouble(), s.toDouble()};
}

double inverseTwoPi() {
  Real x;
  mpfr_const_pi(x.v, MPFR_RNDN);
  mpfr_mul_ui(x.v, x.v, 2, MPFR_RNDN);
  mpfr_ui_div(x.v, 1, x.v, MPFR_RNDN);
  return x.toDouble();
}

std::vector<double> chebyshevCosineCoefficients(unsigned degree, unsigned bound, unsigned doubleAngles) {
  const unsigned points = degree + 1;
  // f at the Chebyshev points t_j = cos(pi (j + 1/2) / (d + 1)).
  std::vector<Real> f(points);
  Real t, arg, quarter;
  mpfr_set_d(quarter.v, 0.25, MPFR_RNDN);
  for (unsigned j = 0; j < points; ++j) {
    piTimes(t, 2 * j + 1, 2 * uint64_t(points));
    mpfr_cos(t.v, t.v, MPFR_RNDN);
    // 2 pi (t (K + 1) - 1/4) / 2^r
    mpfr_mul_ui(arg.v, t.v, bound + 1, MPFR_RNDN);
    mpfr_sub(arg.v, arg.v, quarter.v, MPFR_RNDN);
    mpfr_const_pi(t.v, MPFR_RNDN);
    mpfr_mul(arg.v, arg.v, t.v, MPFR_RNDN);
    mpfr_mul_2si(arg.v, arg.v, 1 - long(doubleAngles), MPFR_RNDN);
    mpfr_cos(f[j].v, arg.v, MPFR_RNDN);
  }
  // c_k = (2 - [k = 0]) / (d + 1) sum_j f_j cos(pi k (j + 1/2) / (d + 1)).
  std::vector<double> coeffs(points);
  Real sum, term;
  for (unsigned k = 0; k < points; ++k) {
    mpfr_set_zero(sum.v, 1);
    for (unsigned j = 0; j < points; ++j) {
      piTimes(term, uint64_t(k) * (2 * j + 1), 2 * uint64_t(points));
      mpfr_cos(term.v, term.v, MPFR_RNDN);
      mpfr_mul(term.v, term.v, f[j].v, MPFR_RNDN);
      mpfr_add(sum.v, sum.v, term.v, MPFR_RNDN);
    }
    mpfr_mul_ui(sum.v, sum.v, k == 0 ? 1 : 2, MPFR_RNDN);
    mpfr_div_ui(sum.v, sum.v, points, MPFR_RNDN);
    coeffs[k] = sum.toDouble();
  }
  return coeffs;
}

} // namespace fhec
