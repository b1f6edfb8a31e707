// RUN: fhec-opt --fhe-reorder-icrt="block=64" %s -split-input-file -verify-diagnostics

func.func @f(%x: !fhe.rns<logN = 4, basis = <min_bits = 20>, domain = coeff, layout = prime_major>) -> !fhe.poly<logN = 4, logq = 10> {
  // expected-error @+1 {{fhe-reorder-icrt: block = 64 exceeds N = 16}}
  %0 = fhe.icrt %x : !fhe.rns<logN = 4, basis = <min_bits = 20>, domain = coeff, layout = prime_major> -> !fhe.poly<logN = 4, logq = 10>
  return %0 : !fhe.poly<logN = 4, logq = 10>
}

// -----

func.func @sum(%x: !fhe.rns<logN = 4, basis = <min_bits = 20>, domain = coeff, layout = prime_major>) -> !fhe.poly<logN = 4, logq = 10> {
  // expected-error @+1 {{fhe-reorder-icrt: block = 64 exceeds N = 16}}
  %0 = fhe.icrt_sum %x {offsets = array<i64: 0>} : !fhe.rns<logN = 4, basis = <min_bits = 20>, domain = coeff, layout = prime_major> -> !fhe.poly<logN = 4, logq = 10>
  return %0 : !fhe.poly<logN = 4, logq = 10>
}
