// RUN: fhec-opt --fhe-to-loops %s -split-input-file -verify-diagnostics

func.func @unresolved(%x: !fhe.poly<logN = 4, logq = 10>) -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major> {
  // expected-error @+1 {{has an RNS basis without primes; run fhe-select-basis first}}
  %0 = fhe.crt %x : !fhe.poly<logN = 4, logq = 10> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
  return %0 : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
}

// -----

#b = #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048193]>
func.func @coeff_major_ntt(%x: !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = coeff_major>) -> !fhe.rns<logN = 4, basis = #b, domain = eval, layout = coeff_major> {
  // expected-error @+1 {{is lowered for the prime_major layout only; insert an fhe.transpose}}
  %0 = fhe.ntt %x : !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = coeff_major> -> !fhe.rns<logN = 4, basis = #b, domain = eval, layout = coeff_major>
  return %0 : !fhe.rns<logN = 4, basis = #b, domain = eval, layout = coeff_major>
}
