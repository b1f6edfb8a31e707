// RUN: fhec-opt %s -split-input-file -verify-diagnostics
// Every ckks verifier of parameters, types and the arithmetic ops, with the
// location of the offending op (invalid-composites.mlir: rotations, plaintexts,
// bootstrapping, poly_eval, linear_transform).

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
  // expected-error @+1 {{signature type '!ckks.ct<logN = 12, logq = 300, logp = 30, slots = 8>' has logq = 300 above the module's logQ = 200}}
  func.func @logq_above_logQ(%a: !ckks.ct<logN = 12, logq = 300, logp = 30, slots = 8>) {
    %0 = ckks.negate %a : !ckks.ct<logN = 12, logq = 300, logp = 30, slots = 8>
    return
  }
}

// -----
module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30>} {
  // expected-error @+1 {{has logN = 12, but the module's ckks.params has logN = 13}}
  func.func @wrong_ring(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    %0 = ckks.negate %a : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mul_slots(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>,
                       %b: !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 16>) {
    // expected-error @+1 {{operands must share logN and slots}}
    %0 = ckks.mul %a, %b : (!ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>, !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 16>) -> !ckks.ct<logN = 12, logq = 170, logp = 60, slots = 8>
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
    // expected-error @+1 {{result logp = 30 must exceed the input's logp = 30: the difference is the constant's scale}}
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
    // expected-error @+1 {{result type must be '!ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8>' (the operands' smaller logq and larger logp), got '!ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>'}}
    %0 = "ckks.sub"(%a, %b) : (!ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>, !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8>) -> !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----
// A huge modulus would overflow the limb count of the generated code.
// expected-error @+1 {{ciphertext logq = 100000 is out of range [1, 4096]}}
func.func private @huge_logq(!ckks.ct<logN = 12, logq = 100000, logp = 30, slots = 8>)

// -----
// expected-error @+1 {{logN = 18 is out of range: N = 2^logN must be a power of two with 2 <= logN <= 17}}
module attributes {ckks.params = #ckks.params<logN = 18, logQ = 200, logp = 30>} {
}

// -----
// expected-error @+1 {{security = "high" is not a level: expected "128", "192", "256" or "none" (no check)}}
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30, security = "high">} {
}

// -----
// expected-error @+1 {{keyswitch = "unsigned" is not a key-switching form: expected "centered" (the default) or "heaan" (HEAAN 2.1's)}}
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30, keyswitch = "unsigned">} {
}

// -----
// Signatures are checked against the module's parameters, even without ops.
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  // expected-error @+1 {{'func.func' op signature type '!ckks.ct<logN = 13, logq = 200, logp = 30, slots = 8>' has logN = 13, but the module's ckks.params has logN = 12}}
  func.func private @other_ring(!ckks.ct<logN = 13, logq = 200, logp = 30, slots = 8>)
}

// -----
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  // expected-error @+1 {{has logq = 300 above the module's logQ = 200}}
  func.func private @above_top(%a: !ckks.ct<logN = 12, logq = 300, logp = 30, slots = 8>) -> !ckks.ct<logN = 12, logq = 300, logp = 30, slots = 8>
}

// -----
// expected-error @+1 {{logQ = 5000 is out of range [1, 4096]}}
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 5000, logp = 30>} {
}

// -----
// A ring below N = 4 (logN = 1).
// expected-error @+1 {{ciphertext logN = 1 is out of range [2, 17]}}
func.func private @tiny_ring(!ckks.ct<logN = 1, logq = 200, logp = 30, slots = 1>)

// -----
// Only ckks.params is a ckks module attribute.
// expected-error @+1 {{unknown ckks attribute 'ckks.level'}}
module attributes {ckks.level = 3 : i64} {
}

// -----
// ckks.params given as a plain integer instead of #ckks.params<...>.
// expected-error @+1 {{'ckks.params' must be a #ckks.params<logN, logQ, logp> attribute}}
module attributes {ckks.params = 3 : i64} {
}

// -----
// A ciphertext of another ring that does not come from the signature (here a
// cast), so that only the op verifier sees it.
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @op_other_ring(%x: i64) {
    %a = builtin.unrealized_conversion_cast %x : i64 to !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 8>
    // expected-error @+1 {{ciphertext logN = 13 differs from the module's logN = 12}}
    %0 = ckks.negate %a : !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----
// Same, with a modulus above the module's top modulus.
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @op_above_top(%x: i64) {
    %a = builtin.unrealized_conversion_cast %x : i64 to !ckks.ct<logN = 12, logq = 300, logp = 30, slots = 8>
    // expected-error @+1 {{ciphertext logq = 300 exceeds the module's logQ = 200}}
    %0 = ckks.negate %a : !ckks.ct<logN = 12, logq = 300, logp = 30, slots = 8>
    return
  }
}

// -----
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mul_result_level(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{result must keep logN and slots of the operands and the smaller logq = 200}}
    %0 = ckks.mul %a, %a : (!ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>, !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) -> !ckks.ct<logN = 12, logq = 170, logp = 60, slots = 8>
    return
  }
}

// -----
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @rescale_slots(%a: !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8>) {
    // expected-error @+1 {{rescale must keep logN and slots}}
    %0 = ckks.rescale %a : !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8> -> !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 16>
    return
  }
}

// -----
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mul_const_level(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{mul_const must keep logN, logq and slots}}
    %0 = ckks.mul_const %a {value = 2.0 : f64} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 170, logp = 60, slots = 8>
    return
  }
}

// -----
// An infinite constant (IEEE +inf).
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mul_const_inf(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{constant must be finite}}
    %0 = ckks.mul_const %a {value = 0x7FF0000000000000 : f64} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8>
    return
  }
}

// -----
// Add of operands at different levels and scales: the result keeps the
// smaller logq and the larger logp (ckks.add's alignment).
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @add_result(%a: !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8>, %b: !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 8>) {
    // expected-error @+1 {{result type must be '!ckks.ct<logN = 12, logq = 170, logp = 60, slots = 8>'}}
    %0 = ckks.add %a, %b : (!ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8>, !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 8>) -> !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8>
    return
  }
}

// -----
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @add_slots(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>, %b: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>) {
    // expected-error @+1 {{operands must share logN and slots}}
    %0 = ckks.add %a, %b : (!ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>, !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>) -> !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----
// The secret's distribution and its weight.
// expected-error @+1 {{secret = "dense" is not a secret distribution}}
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30, secret = "dense">} {}

// -----
// expected-error @+1 {{a sparse secret needs its Hamming weight h in [1, N = 4096], not 0}}
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30, secret = "sparse">} {}

// -----
// expected-error @+1 {{h = 64 is the weight of a sparse secret}}
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30, h = 64>} {}

// -----
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @negate_constant(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>) {
    // expected-error @+1 {{'negate' applies to a !ckks.pt operand only}}
    %0 = ckks.add_plain %a {values = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>, negate} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>
    return
  }
}
