// RUN: fhec-opt %s --ckks-expand-poly-eval --split-input-file --verify-diagnostics

// The declared result type must be the one the evaluation gives.
module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
  func.func @wrong_type(%x: !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16>) -> !ckks.ct<logN = 13, logq = 170, logp = 30, slots = 16> {
    // expected-error @+1 {{result type must be '!ckks.ct<logN = 13, logq = 140, logp = 30, slots = 16>', the type its evaluation gives}}
    %y = ckks.poly_eval %x {basis = "power", coefficients = array<f64: 0.0, 0.0, 0.0, 1.0>}
        : !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16> -> !ckks.ct<logN = 13, logq = 170, logp = 30, slots = 16>
    return %y : !ckks.ct<logN = 13, logq = 170, logp = 30, slots = 16>
  }
}

// -----

// Running out of modulus is reported at the op.
module attributes {ckks.params = #ckks.params<logN = 13, logQ = 100, logp = 30, security = "none">} {
  func.func @too_deep(%x: !ckks.ct<logN = 13, logq = 100, logp = 30, slots = 16>) -> !ckks.ct<logN = 13, logq = 40, logp = 30, slots = 16> {
    // expected-error @+1 {{too little depth left}}
    %y = ckks.poly_eval %x {basis = "chebyshev", coefficients = array<f64: 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9>}
        : !ckks.ct<logN = 13, logq = 100, logp = 30, slots = 16> -> !ckks.ct<logN = 13, logq = 40, logp = 30, slots = 16>
    return %y : !ckks.ct<logN = 13, logq = 40, logp = 30, slots = 16>
  }
}

// -----

// Coefficients below 2^-(logp + 1) are dropped: what is left may be a constant.
module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
  func.func @negligible(%x: !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16>) -> !ckks.ct<logN = 13, logq = 170, logp = 30, slots = 16> {
    // expected-error @+1 {{the polynomial is the constant 0.5 on [-1, 1] (its higher coefficients cancel or are below 2^-(logp + 1))}}
    %y = ckks.poly_eval %x {basis = "chebyshev", coefficients = array<f64: 0.5, 1.0e-12>}
        : !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16> -> !ckks.ct<logN = 13, logq = 170, logp = 30, slots = 16>
    return %y : !ckks.ct<logN = 13, logq = 170, logp = 30, slots = 16>
  }
}
