// RUN: fhec-opt "--fhe-merge-ntt-levels=skip-levels=1" %s -verify-diagnostics

// An incomplete NTT would change the evaluation domain that a hoisted
// rotation (fhe-hoist-automorphisms) permutes: refused with a way out.
#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
func.func @hoisted(%x: !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>) -> !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major> {
  %0 = fhe.ntt %x : !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major> -> !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>
  // expected-error @+1 {{'fhe.automorphism' op fhe-merge-ntt-levels: skip-levels = 1 needs complete NTTs, but this automorphism permutes an NTT's slots (from fhe-hoist-automorphisms, which --disable-pass=fhe-hoist-automorphisms turns off, or from a linear transform with hybrid key switching, dnum > 1, which always has them)}}
  %1 = fhe.automorphism %0 {galois = 5 : i64} : !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>
  return %1 : !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>
}
