// A model of the lattice attacks on LWE with a small secret: a C++
// re-implementation of the attacks that the lattice estimator (M. Albrecht et
// al., github.com/malb/lattice-estimator, commit 6019056) runs by default on
// a sparse ternary secret, with its default cost and shape models (MATZOV
// reduction cost, geometric series assumption). docs/security.md describes
// what it models, what it simplifies and how it compares with published
// estimates.
//
// fhec uses it for the sparse secret (exactly h coefficients in {-1, 1});
// for the uniform ternary secret it is a cross-check of the HE Standard's
// tables (Security.h), which remain the authority there.
#pragma once
#include <string>
#include <vector>

namespace fhec::rt::lattice {

/// LWE in dimension n with modulus 2^log2q, a discrete Gaussian error of
/// standard deviation sigma and as many samples as the attack wants (RLWE
/// keys give n per ring element; the estimator's m = infinity setting, as
/// the HE Standard v2 and SparseLWEkit use).
struct Instance {
  long n = 0;
  double log2q = 0;
  double sigma = 3.19;
  /// The secret: `h` nonzero coefficients in {-1, 1} (a sparse ternary
  /// secret of fixed weight); `uniformTernary` instead models the uniform
  /// distribution on {-1, 0, 1} (standard deviation sqrt(2/3), weight ~2n/3).
  long h = 0;
  bool uniformTernary = false;
};

/// One attack's cheapest cost found and its parameters.
struct AttackCost {
  std::string key;   ///< the estimator's name: "usvp", "bdd", "bdd_hybrid", "bdd_mitm_hybrid", "dual_hybrid"
  std::string name;  ///< a readable name: "usvp", "primal hybrid (MITM)", ...
  double bits = 0;   ///< log2 of the attack's cost in word operations; +inf if no block size <= 1754 works
  int beta = 0;      ///< BKZ block size
  long d = 0;        ///< lattice dimension
  long zeta = 0;     ///< guessed coordinates (hybrids), k_enum (dual)
  long hw = 0;       ///< largest Hamming weight guessed (primal hybrids)
  long eta = 0;      ///< final SVP / BDD dimension (primal), FFT dimension t (dual)
};

struct Estimate {
  std::vector<AttackCost> attacks;  ///< usvp, bdd, bdd_hybrid, bdd_mitm_hybrid, dual_hybrid
  /// The cheapest attack (the security level is its bits); the first of
  /// `attacks` if all are infinite.
  const AttackCost &cheapest() const;
  /// The attack of this estimator key, or null.
  const AttackCost *find(const std::string &key) const;
};

/// Runs every attack of the model. Deterministic; a few milliseconds.
/// Requires n >= 4, h in [1, n] unless uniformTernary, log2q >= 1, sigma > 0
/// (below n = 1024 the numbers are outside the checked range).
Estimate estimate(const Instance &in);

/// Largest block size the model considers (the estimator's max_beta: the
/// cost of BKZ-1754 is about 2^512); attacks that need more are infinite.
constexpr int kMaxBeta = 1754;

} // namespace fhec::rt::lattice
