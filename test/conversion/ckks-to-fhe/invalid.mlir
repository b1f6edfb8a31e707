// RUN: fhec-opt --ckks-to-fhe %s -split-input-file -verify-diagnostics

// expected-error @+1 {{ckks-to-fhe requires the module attribute 'ckks.params'}}
module {
  func.func @f(%a: !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16>) -> !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16> {
    return %a : !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16>
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 8, logQ = 100, logp = 30>} {
  // expected-error @+1 {{has a non-ciphertext argument or result of type 'i64', which ckks-to-fhe does not support}}
  func.func @f(%a: !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16>, %n: i64) -> !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16> {
    return %a : !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16>
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 8, logQ = 100, logp = 30>} {
  func.func @f(%a: !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16>) -> !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16> {
    // expected-error @+1 {{'arith.constant' op is not supported by ckks-to-fhe}}
    %c = arith.constant 0 : index
    return %a : !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16>
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 8, logQ = 100, logp = 30>} {
  // expected-error @+1 {{ckks-to-fhe supports straight-line functions only (one block)}}
  func.func @f(%a: !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16>) -> !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16> {
    cf.br ^bb1
  ^bb1:
    return %a : !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16>
  }
}

// -----

// ckks.add_const's verifier does not look at the value: an infinite constant
// (IEEE +inf) is refused when it is scaled.
module attributes {ckks.params = #ckks.params<logN = 8, logQ = 100, logp = 30>} {
  func.func @f(%a: !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16>) -> !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16> {
    // expected-error @+1 {{'ckks.add_const' op constant is not finite}}
    %0 = ckks.add_const %a {value = 0x7FF0000000000000 : f64} : !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16>
    return %0 : !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16>
  }
}
