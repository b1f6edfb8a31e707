// RUN: fhec-opt %s -split-input-file -verify-diagnostics
// Every ckks verifier of rotations, monomials, level changes, plaintexts,
// bootstrapping, poly_eval and linear_transform, with the location of the
// offending op (invalid.mlir: parameters, types, arithmetic).

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
