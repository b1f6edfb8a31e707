// RUN: fhec-opt --ckks-to-fhe %s | FileCheck %s
// Add/Sub/Negate/Rescale/ModDown/ModRaise/DivByPo2/constants become BigInt
// pointwise ops on (ax, bx), a product by X^k the signed gather
// fhe.poly_mul_monomial on both, and relabel nothing.

!ct = !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16>
!ct60 = !ckks.ct<logN = 8, logq = 100, logp = 60, slots = 16>
!low = !ckks.ct<logN = 8, logq = 70, logp = 30, slots = 16>

module attributes {ckks.params = #ckks.params<logN = 8, logQ = 100, logp = 30>} {
  // CHECK-LABEL: func.func @ops
  // CHECK-NOT: fhe.rns
  func.func @ops(%a: !ct, %b: !ct) -> !low {
    // CHECK: %[[S0:.*]] = fhe.poly_add %arg0, %arg2
    // CHECK: %[[S1:.*]] = fhe.poly_add %arg1, %arg3
    %0 = ckks.add %a, %b : !ct
    // CHECK: fhe.poly_sub %[[S0]], %arg2
    %1 = ckks.sub %0, %b : !ct
    // CHECK: fhe.poly_negate
    %n = ckks.negate %1 : !ct
    // imult: X^(N/2) on both polynomials.
    // CHECK: fhe.poly_mul_monomial %{{.*}} {k = 128 : i64} : <logN = 8, logq = 100>
    // CHECK: fhe.poly_mul_monomial %{{.*}} {k = 128 : i64} : <logN = 8, logq = 100>
    %2 = ckks.mul_monomial %n {k = 128} : !ct
    // round(-0.75 * 2^30) = -805306368 on both polynomials
    // CHECK: fhe.poly_mul_scalar %{{.*}} {value = -805306368 : i128}
    // CHECK: fhe.poly_mul_scalar %{{.*}} {value = -805306368 : i128}
    %3 = ckks.mul_const %2 {value = -0.75 : f64} : !ct -> !ct60
    // CHECK: fhe.poly_shr %{{.*}} {shift = 30 : i64} : <logN = 8, logq = 100> -> <logN = 8, logq = 70>
    // CHECK: fhe.poly_shr %{{.*}} {shift = 30 : i64} : <logN = 8, logq = 100> -> <logN = 8, logq = 70>
    %4 = ckks.rescale %3 : !ct60 -> !low
    // A rounding rescale: rounded shifts of both polynomials.
    // CHECK: fhe.poly_shr %{{.*}} {round, shift = 30 : i64} : <logN = 8, logq = 100> -> <logN = 8, logq = 70>
    // CHECK: fhe.poly_shr %{{.*}} {round, shift = 30 : i64} : <logN = 8, logq = 100> -> <logN = 8, logq = 70>
    %r = ckks.rescale %3 {round} : !ct60 -> !low
    // A constant's scale is the result's logp minus the input's: round(0.75 * 2^50).
    // CHECK: fhe.poly_mul_scalar %{{.*}} {value = 844424930131968 : i128}
    %k = ckks.mul_const %n {value = 0.75 : f64} : !ct -> !ckks.ct<logN = 8, logq = 100, logp = 80, slots = 16>
    // Only bx gets the constant: round(0.5 * 2^30).
    // CHECK: %[[C:.*]] = fhe.poly_add_constant_term %{{.*}} {value = 536870912 : i128}
    %5 = ckks.add_const %4 {value = 0.5 : f64} : !low
    // CHECK: fhe.poly_reduce %arg0 : <logN = 8, logq = 100> -> <logN = 8, logq = 70>
    %6 = ckks.mod_down %a : !ct -> !low
    %7 = ckks.add %5, %6 : !low
    return %7 : !low
  }
  // Bootstrapping's modulus raise is the centred lift of both polynomials,
  // div_by_po2 a right shift, and a relabelling changes no polynomial.
  // CHECK-LABEL: func.func @boot
  // CHECK-NEXT: %[[A:.*]] = fhe.poly_mod_raise %arg0 : <logN = 8, logq = 70> -> <logN = 8, logq = 100>
  // CHECK-NEXT: %[[B:.*]] = fhe.poly_mod_raise %arg1 : <logN = 8, logq = 70> -> <logN = 8, logq = 100>
  // CHECK-NEXT: %[[C:.*]] = fhe.poly_shr %[[A]] {shift = 4 : i64} : <logN = 8, logq = 100> -> <logN = 8, logq = 96>
  // CHECK-NEXT: %[[D:.*]] = fhe.poly_shr %[[B]] {shift = 4 : i64} : <logN = 8, logq = 100> -> <logN = 8, logq = 96>
  // CHECK-NEXT: return %[[C]], %[[D]]
  func.func @boot(%a: !low) -> !ckks.ct<logN = 8, logq = 96, logp = 50, slots = 128> {
    %0 = ckks.mod_raise %a : !low -> !ct
    %1 = ckks.div_by_po2 %0 : !ct -> !ckks.ct<logN = 8, logq = 96, logp = 30, slots = 16>
    %2 = ckks.relabel %1 : !ckks.ct<logN = 8, logq = 96, logp = 30, slots = 16> -> !ckks.ct<logN = 8, logq = 96, logp = 50, slots = 128>
    return %2 : !ckks.ct<logN = 8, logq = 96, logp = 50, slots = 128>
  }
  // No HE Mul: no evaluation key argument and no preparation function.
  // CHECK-NOT: __fhec_evk_prepare
}
