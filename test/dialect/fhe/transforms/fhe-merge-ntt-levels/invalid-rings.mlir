// RUN: fhec-opt --fhe-merge-ntt-levels="skip-levels=1" %s -verify-diagnostics

// An incomplete NTT changes every eval-domain type of the module: all of them
// must be of the NTTs' ring (here 2^4 and an eval value of 2^5).
// expected-error @+1 {{fhe-merge-ntt-levels: NTTs of different ring dimensions in one module}}
module {
  func.func @ring4(%x: !fhe.rns<logN = 4, basis = <min_bits = 20>, domain = coeff, layout = prime_major>) -> !fhe.rns<logN = 4, basis = <min_bits = 20>, domain = eval, layout = prime_major> {
    %0 = fhe.ntt %x : !fhe.rns<logN = 4, basis = <min_bits = 20>, domain = coeff, layout = prime_major> -> !fhe.rns<logN = 4, basis = <min_bits = 20>, domain = eval, layout = prime_major>
    return %0 : !fhe.rns<logN = 4, basis = <min_bits = 20>, domain = eval, layout = prime_major>
  }
  func.func @ring5(%x: !fhe.rns<logN = 5, basis = <min_bits = 20>, domain = eval, layout = prime_major>) -> !fhe.rns<logN = 5, basis = <min_bits = 20>, domain = eval, layout = prime_major> {
    %0 = fhe.hadamard %x, %x : !fhe.rns<logN = 5, basis = <min_bits = 20>, domain = eval, layout = prime_major>
    return %0 : !fhe.rns<logN = 5, basis = <min_bits = 20>, domain = eval, layout = prime_major>
  }
}
