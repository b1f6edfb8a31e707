// RUN: fhec-opt --fhe-merge-ntt-levels %s -verify-diagnostics

// Incompleteness is the pass's own decision (found by fhec-fuzz-mlir: the
// levels covered all logN stages of an NTT whose type skipped one).
#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
func.func @already_incomplete(%x: !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>) -> !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major, incomplete = 1> {
  // expected-error @+1 {{'fhe.ntt' op is already incomplete (incomplete = 1); fhe-merge-ntt-levels decides that itself: give it skip-levels instead}}
  %0 = fhe.ntt %x : !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major> -> !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major, incomplete = 1>
  return %0 : !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major, incomplete = 1>
}
