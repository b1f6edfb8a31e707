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

// Rotation offsets are in [1, N/2); a right rotation is a left one by N/2 - r.
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @rotate_range(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{offset = 2048 must be in [1, N/2 = 2048): a right rotation by r is the left rotation by N/2 - r}}
    %0 = ckks.rotate %a [2048] : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----

// The largest offset is accepted.
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @rotate_max(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    %0 = ckks.rotate %a [2047] : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    // expected-error @+1 {{offset = 0 must be in [1, N/2 = 2048)}}
    %1:2 = ckks.rotate %a [1, 0] : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----

// One result per offset, each of the input's type; no offset twice.
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @rotate_twice(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{lists offset 3 twice}}
    %0:3 = ckks.rotate %a [3, 1, 3] : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @rotate_none(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{needs at least one offset}}
    ckks.rotate %a [] : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @rotate_results(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{has 1 results for 2 offsets: one result per offset}}
    %0 = "ckks.rotate"(%a) {offsets = array<i64: 1, 2>} : (!ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) -> !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @rotate_type(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{result type '!ckks.ct<logN = 12, logq = 170, logp = 30, slots = 8>' differs from the input type}}
    %0 = "ckks.rotate"(%a) {offsets = array<i64: 1>} : (!ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) -> !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @conjugate_type(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // expected-error @+1 {{failed to verify that all of {input, result} have same type}}
    %0 = "ckks.conjugate"(%a) : (!ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) -> !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mul_monomial_range(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 2048>) {
    // expected-error @+1 {{k must be in [0, 2N) = [0, 8192), got 8192}}
    %0 = ckks.mul_monomial %a {k = 8192} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 2048>
    return
  }
}

// -----

// A sparse ciphertext (8 slots at N = 4096) lives in Z[X^256]: X^k must too.
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mul_monomial_subring(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>) {
    // The largest such k is accepted.
    %0 = ckks.mul_monomial %a {k = 7936} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    // expected-error @+1 {{k must be a multiple of N / (2 slots) = 256 (a sparse ciphertext's subring), got 100}}
    %1 = ckks.mul_monomial %a {k = 100} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mod_raise_down(%a: !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>) {
    // expected-error @+1 {{result logq = 90 must be larger than the input's logq = 100}}
    %0 = ckks.mod_raise %a : !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mod_raise_scale(%a: !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>) {
    // expected-error @+1 {{mod_raise must keep logN, logp and slots}}
    %0 = ckks.mod_raise %a : !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 200, logp = 40, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mod_raise_above_top(%a: !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>) {
    // expected-error @+1 {{ciphertext logq = 210 exceeds the module's logQ = 200}}
    %0 = ckks.mod_raise %a : !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 210, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @div_by_po2_scale(%a: !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>) {
    // expected-error @+1 {{div_by_po2 must keep logN, logp and slots}}
    %0 = ckks.div_by_po2 %a : !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 90, logp = 20, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @div_by_po2_up(%a: !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>) {
    // expected-error @+1 {{result logq = 100 must be smaller than the input's logq = 100}}
    %0 = ckks.div_by_po2 %a : !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @relabel_level(%a: !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>) {
    // expected-error @+1 {{relabel must keep logN and logq}}
    %0 = ckks.relabel %a : !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 16>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @bootstrap_level_budget(%a: !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>) {
    // expected-error @+1 {{level_budget must be [CoeffToSlot levels, SlotToCoeff levels], each in [1, log2 slots = 3]}}
    %0 = ckks.bootstrap %a {mod_logq = 40, level_budget = array<i64: 4, 2>} : !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @bootstrap_q0(%a: !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>) {
    // expected-error @+1 {{mod_logq = 30 must lie in (logp, logq] = (30, 100]}}
    %0 = ckks.bootstrap %a {mod_logq = 30} : !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @bootstrap_scale(%a: !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>) {
    // expected-error @+1 {{log_scale = 10 must lie in (mod_logq - logp, 120] = (10, 120]}}
    %0 = ckks.bootstrap %a {mod_logq = 40, log_scale = 10} : !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @bootstrap_keeps(%a: !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>) {
    // expected-error @+1 {{bootstrap must keep logN, logp and slots}}
    %0 = ckks.bootstrap %a {mod_logq = 40} : !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 100, logp = 40, slots = 8>
    return
  }
}

// -----

// Sparse-secret encapsulation's key switches keep the type; decapsulate's q0 lies below its level.
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @decapsulate_q0(%a: !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>) {
    // expected-error @+1 {{mod_logq = 120 (the encapsulation's q0) must lie in [1, logq = 100]}}
    %0 = ckks.decapsulate %a {mod_logq = 120} : !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>
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

// A plaintext has one value per slot.
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mul_plain_length(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>) {
    // expected-error @+1 {{has 3 values, but the ciphertext has 4 slots}}
    %0 = ckks.mul_plain %a {values = dense<[1.0, 2.0, 3.0]> : tensor<3xf64>} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4> -> !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 4>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mul_plain_type(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>) {
    // expected-error @+1 {{values must be a dense tensor of f64 or complex<f64>, got 'tensor<4xi32>'}}
    %0 = ckks.mul_plain %a {values = dense<[1, 2, 3, 4]> : tensor<4xi32>} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4> -> !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 4>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mul_plain_scale(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>) {
    // expected-error @+1 {{result logp = 30 must exceed the input's logp = 30: the difference is the constant's scale}}
    %0 = ckks.mul_plain %a {values = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4> -> !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @mul_plain_level(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>) {
    // expected-error @+1 {{mul_plain must keep logN, logq and slots}}
    %0 = ckks.mul_plain %a {values = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4> -> !ckks.ct<logN = 12, logq = 170, logp = 60, slots = 4>
    return
  }
}

// -----

// A NaN in a plaintext (0x7FF8...).
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @add_plain_nan(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 2>) {
    // expected-error @+1 {{values must be finite}}
    %0 = ckks.add_plain %a {values = dense<[1.0, 0x7FF8000000000000]> : tensor<2xf64>} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 2>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @add_plain_complex_inf(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 2>) {
    // expected-error @+1 {{values must be finite}}
    %0 = ckks.add_plain %a {values = dense<[(1.0, 0.0), (0.0, 0x7FF0000000000000)]> : tensor<2xcomplex<f64>>} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 2>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @plain_both(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>, %w: !ckks.pt<logN = 12, slots = 4>) {
    // expected-error @+1 {{takes exactly one plaintext: constant 'values' or a !ckks.pt operand}}
    %0 = ckks.add_plain %a plus %w : !ckks.pt<logN = 12, slots = 4> {values = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @plain_none(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>) {
    // expected-error @+1 {{takes exactly one plaintext}}
    %0 = ckks.mul_plain %a : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4> -> !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 4>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @plain_slots(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>, %w: !ckks.pt<logN = 12, slots = 8>) {
    // expected-error @+1 {{plaintext of logN 12 and 8 slots, but the ciphertext has logN 12 and 4 slots}}
    %0 = ckks.mul_plain %a by %w : !ckks.pt<logN = 12, slots = 8> : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4> -> !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 4>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @negate_constant(%a: !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>) {
    // expected-error @+1 {{'negate' applies to a !ckks.pt operand only}}
    %0 = ckks.add_plain %a {values = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>, negate} : !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 4>
    return
  }
}

// -----

// expected-error @+1 {{slots = 3 must be a power of two <= N/2 = 2048}}
func.func private @pt_slots(!ckks.pt<logN = 12, slots = 3>)

// -----

module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
  func.func @poly_eval_basis(%x: !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16>) {
    // expected-error @+1 {{basis must be "power" or "chebyshev", got "legendre"}}
    %y = ckks.poly_eval %x {basis = "legendre", coefficients = array<f64: 0.0, 1.0>}
        : !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16> -> !ckks.ct<logN = 13, logq = 170, logp = 30, slots = 16>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
  func.func @poly_eval_constant(%x: !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16>) {
    // expected-error @+1 {{the polynomial must have degree >= 1}}
    %y = ckks.poly_eval %x {basis = "power", coefficients = array<f64: 2.0, 0.0>}
        : !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16> -> !ckks.ct<logN = 13, logq = 170, logp = 30, slots = 16>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
  func.func @poly_eval_domain(%x: !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16>) {
    // expected-error @+1 {{the domain [4, -4] must be finite with a < b}}
    %y = ckks.poly_eval %x {basis = "power", coefficients = array<f64: 0.0, 1.0>, domain = array<f64: 4.0, -4.0>}
        : !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16> -> !ckks.ct<logN = 13, logq = 170, logp = 30, slots = 16>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
  func.func @poly_eval_level(%x: !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16>) {
    // expected-error @+1 {{result logq must be below the input's 200}}
    %y = ckks.poly_eval %x {basis = "power", coefficients = array<f64: 0.0, 1.0>}
        : !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16> -> !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
  func.func @linear_transform_offset(%x: !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 2>) {
    // expected-error @+1 {{offset 2 must be in [0, slots = 2): diagonal d holds M[j][(j + d) mod slots]}}
    %y = ckks.linear_transform %x {offsets = array<i64: 0, 2>, diagonals = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>}
        : !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 2> -> !ckks.ct<logN = 13, logq = 200, logp = 60, slots = 2>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
  func.func @linear_transform_shape(%x: !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 2>) {
    // expected-error @+1 {{diagonals must be a dense tensor<1x2x(f64 or complex<f64>)>: one row of slot values per offset}}
    %y = ckks.linear_transform %x {offsets = array<i64: 1>, diagonals = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>}
        : !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 2> -> !ckks.ct<logN = 13, logq = 200, logp = 60, slots = 2>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
  func.func @linear_transform_twice(%x: !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 2>) {
    // expected-error @+1 {{offset 1 appears twice}}
    %y = ckks.linear_transform %x {offsets = array<i64: 1, 1>, diagonals = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>}
        : !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 2> -> !ckks.ct<logN = 13, logq = 200, logp = 60, slots = 2>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
  func.func @linear_transform_scale(%x: !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 2>) {
    // expected-error @+1 {{result logp = 30 must exceed the input's logp = 30: the difference is the constant's scale}}
    %y = ckks.linear_transform %x {offsets = array<i64: 1>, diagonals = dense<[[1.0, 2.0]]> : tensor<1x2xf64>}
        : !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 2> -> !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 2>
    return
  }
}
