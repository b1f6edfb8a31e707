// RUN: fhec-opt --fhe-select-basis %s -verify-diagnostics

// One module has one ring: the primes are chosen for it (p = 1 mod 2N).
// expected-error @+1 {{fhe-select-basis: RNS polynomials of different ring dimensions in one module}}
module {
  func.func private @ring4(!fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>)
  func.func private @ring5(!fhe.rns<logN = 5, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>)
}
