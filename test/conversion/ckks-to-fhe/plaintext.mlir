// RUN: fhec-opt --ckks-to-fhe %s | FileCheck %s
// Plaintext operands are encoded at compile time (rt::encode, the encoding
// the GMP reference uses) into constant polynomials; mul_plain multiplies
// both polynomials by the plaintext through region 1, add_plain adds it to
// bx. Operands at different levels and scales are aligned first.

!ct = !ckks.ct<logN = 3, logq = 100, logp = 20, slots = 2>
!ct40 = !ckks.ct<logN = 3, logq = 100, logp = 40, slots = 2>
!low = !ckks.ct<logN = 3, logq = 80, logp = 20, slots = 2>
!low40 = !ckks.ct<logN = 3, logq = 80, logp = 40, slots = 2>

module attributes {ckks.params = #ckks.params<logN = 3, logQ = 100, logp = 20, security = "none">} {
  // CHECK-LABEL: func.func @plain
  // CHECK-NOT: fhe.role = "evk
  func.func @plain(%a: !ct) -> (!ct40, !ct) {
    // [1, -1] at scale 2^20 in the N = 8 ring (2 slots: every second
    // coefficient): +-2^20 / sqrt(2) = +-741455 at X^2 and X^6.
    // CHECK: %[[M:.*]] = fhe.poly_constant {value = dense<[0, 0, 741455, 0, 0, 0, -741455, 0]> : tensor<8xi64>} : <logN = 3, logq = 100>
    // CHECK: %[[ME:.*]] = fhe.ntt
    // CHECK: fhe.hadamard %{{.*}}, %[[ME]]
    // CHECK: fhe.icrt {{.*}} -> <logN = 3, logq = 100>
    // CHECK: fhe.hadamard %{{.*}}, %[[ME]]
    %0 = ckks.mul_plain %a {values = dense<[1.0, -1.0]> : tensor<2xf64>} : !ct -> !ct40
    // The plaintext of add_plain is at the ciphertext's scale: 2^20 * 0.5 = 524288 at coefficient 0.
    // CHECK: %[[P:.*]] = fhe.poly_constant {value = dense<[524288, 0, 0, 0, 0, 0, 0, 0]> : tensor<8xi64>}
    // CHECK: fhe.poly_add %arg1, %[[P]]
    %1 = ckks.add_plain %a {values = dense<[0.5, 0.5]> : tensor<2xf64>} : !ct
    return %0, %1 : !ct40, !ct
  }

  // CHECK-LABEL: func.func @align
  func.func @align(%hi: !ct40, %lo: !low) -> !low40 {
    // %hi: reduced to the smaller modulus; %lo: multiplied up to scale 2^40.
    // CHECK: fhe.poly_reduce %arg0 : <logN = 3, logq = 100> -> <logN = 3, logq = 80>
    // CHECK: fhe.poly_reduce %arg1
    // CHECK: fhe.poly_mul_scalar %arg2 {value = 1048576 : i22}
    // CHECK: fhe.poly_mul_scalar %arg3 {value = 1048576 : i22}
    // CHECK: fhe.poly_add
    // CHECK: fhe.poly_add
    %0 = ckks.add %hi, %lo : (!ct40, !low) -> !low40
    return %0 : !low40
  }
}
