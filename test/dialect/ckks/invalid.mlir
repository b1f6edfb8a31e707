// RUN: fhec-opt %s -split-input-file -verify-diagnostics
// Every ckks verifier, with the location of the offending op.

// expected-error @+1 {{slots = 3 must be a power of two <= N/2 = 2048}}
func.func private @bad_slots(!ckks.ct<logN = 12, logq = 200, logp = 30, slots = 3>)

// -----

// expected-error @+1 {{ciphertext scale 2^200 does not fit its modulus 2^200}}
func.func private @bad_scale(!ckks.ct<logN = 12, logq = 200, logp = 200, slots = 8>)

// -----

// expected-error @+1 {{logN = 20 is out of range}}
module attributes {ckks.params = #ckks.params<logN = 20, logQ = 200, logp = 30>} {}

// -----

// expected-error @+1 {{logp = 300 must be in [1, logQ = 200)}}
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 300>} {}

// -----

// expected-error @+1 {{'ckks.params' must be attached to a builtin.module}}
func.func @params_on_func() attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  return
}

// -----

func.func @no_params(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
  // expected-error @+1 {{requires a 'ckks.params' attribute on the enclosing module}}
  %0 = ckks.add %a, %a : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
  return
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @logq_above_logQ(%a: !ckks.ct<logN = 12, logq = 300, logp = 30, slots = 8>) {
    // expected-error @+1 {{ciphertext logq = 300 exceeds the module's logQ = 200}}
    %0 = ckks.negate %a : !ckks.ct<logN = 12, logq = 300, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30>} {
  func.func @wrong_ring(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{ciphertext logN = 12 differs from the module's logN = 13}}
    %0 = ckks.negate %a : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mul_levels(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>,
                        %b: !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 8>) {
    // expected-error @+1 {{operands must share logN, logq and slots}}
    %0 = ckks.mul %a, %b : (!ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>, !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 8>) -> !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mul_scale(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{result logp must be 60 (sum of the operands' logp), got 30}}
    %0 = ckks.mul %a, %a : (!ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>, !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) -> !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @rescale_mismatch(%a: !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8>) {
    // expected-error @+1 {{rescale by 2^30 must lower logp by the same 30 bits}}
    %0 = ckks.rescale %a : !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8> -> !ckks.ct<logN = 12, logq = 170, logp = 40, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @rescale_up(%a: !ckks.ct<logN = 12, logq = 170, logp = 60, slots = 8>) {
    // expected-error @+1 {{result logq = 200 must be smaller than the input's logq = 170}}
    %0 = ckks.rescale %a : !ckks.ct<logN = 12, logq = 170, logp = 60, slots = 8> -> !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @rescale_too_far(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{rescale by 2^100 must lower logp by the same 100 bits}}
    %0 = ckks.rescale %a : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 100, logp = 0, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mul_const_scale(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{result logp must be 60 (input logp plus the module's logp), got 30}}
    %0 = ckks.mul_const %a {value = 2.0 : f64} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mod_down_up(%a: !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 8>) {
    // expected-error @+1 {{result logq = 200 must be smaller than the input's logq = 170}}
    %0 = ckks.mod_down %a : !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mod_down_scale(%a: !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 8>) {
    // expected-error @+1 {{mod_down must keep logN, logp and slots}}
    %0 = ckks.mod_down %a : !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 140, logp = 20, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @malformed(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{expected ':'}}
    %0 = ckks.add %a, %a
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @add_const_scale(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{requires attribute 'value'}}
    %0 = ckks.add_const %a : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @sub_generic(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>, %b: !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8>) {
    // expected-error @+1 {{failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "ckks.sub"(%a, %b) : (!ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>, !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8>) -> !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}
