// The driver expands ckks.poly_eval when it loads a program: --emit=ckks shows
// the baby-step giant-step sequence, and `fhec run` checks the expanded program
// (with ckks.linear_transform) against the GMP reference and the plaintext
// computation.
// RUN: fhec %s --emit=ckks | FileCheck %s
// RUN: fhec run %s --threads=1 | FileCheck %s --check-prefix=EXEC
// RUN: fhec run %s --threads=2 -O0 | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @layer
// CHECK: ckks.linear_transform
// CHECK: ckks.rescale
// CHECK-NOT: ckks.poly_eval
// CHECK: ckks.mul
// CHECK: return
// EXEC: GMP reference [0]: bit-identical
// EXEC: PASS

!ct = !ckks.ct<logN = 9, logq = 210, logp = 30, slots = 4>
!ct60 = !ckks.ct<logN = 9, logq = 210, logp = 60, slots = 4>
!ct180 = !ckks.ct<logN = 9, logq = 180, logp = 30, slots = 4>
!out = !ckks.ct<logN = 9, logq = 60, logp = 30, slots = 4>

module attributes {ckks.params = #ckks.params<logN = 9, logQ = 210, logp = 30, security = "none">} {
  func.func @layer(%x: !ct) -> (!out, !ct60) {
    %y = ckks.linear_transform %x {offsets = array<i64: 0, 1, 3>,
        diagonals = dense<[[0.5, -0.25, 1.0, 0.75], [0.1, 0.2, 0.3, 0.4], [-0.5, 0.5, -0.5, 0.5]]> : tensor<3x4xf64>}
        : !ct -> !ct60
    %r = ckks.rescale %y : !ct60 -> !ct180
    %a = ckks.poly_eval %r {basis = "chebyshev", coefficients = array<f64: 0.1, 0.6, 0.0, -0.2, 0.05>,
                            domain = array<f64: -2.0, 2.0>} : !ct180 -> !out
    return %a, %y : !out, !ct60
  }
}
