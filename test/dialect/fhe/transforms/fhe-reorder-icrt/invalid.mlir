// RUN: fhec-opt --fhe-reorder-icrt="block=12" %s -split-input-file -verify-diagnostics

// expected-error @+1 {{fhe-reorder-icrt: block = 12 is not a power of two}}
module {
  func.func @f(%x: !fhe.rns<logN = 4, basis = <min_bits = 20>, domain = coeff, layout = prime_major>) -> !fhe.poly<logN = 4, logq = 10> {
    %0 = fhe.icrt %x : !fhe.rns<logN = 4, basis = <min_bits = 20>, domain = coeff, layout = prime_major> -> !fhe.poly<logN = 4, logq = 10>
    return %0 : !fhe.poly<logN = 4, logq = 10>
  }
}
