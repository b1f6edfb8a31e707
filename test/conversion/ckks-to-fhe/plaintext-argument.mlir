// RUN: fhec-opt --ckks-to-fhe %s | FileCheck %s
// A plaintext argument (!ckks.pt) is not encoded at compile time: each of
// its uses becomes a polynomial argument that the runtime encodes at that
// use's scale and modulus (role "pt<j>@<logScale>,<logq>[,neg]"), after the
// ciphertexts and before the keys; the function records its slots.

!ct = !ckks.ct<logN = 3, logq = 100, logp = 20, slots = 2>
!ct40 = !ckks.ct<logN = 3, logq = 100, logp = 40, slots = 2>
!pt = !ckks.pt<logN = 3, slots = 2>

module attributes {ckks.params = #ckks.params<logN = 3, logQ = 100, logp = 20, security = "none">} {
  // CHECK-LABEL: func.func @f(
  // CHECK-SAME: %arg0: !fhe.poly<logN = 3, logq = 100> {fhe.role = "ct0.ax"}
  // CHECK-SAME: %arg1: !fhe.poly<logN = 3, logq = 100> {fhe.role = "ct0.bx"}
  // CHECK-SAME: %arg2: !fhe.poly<logN = 3, logq = 100> {fhe.role = "ct1.ax"}
  // CHECK-SAME: %arg3: !fhe.poly<logN = 3, logq = 100> {fhe.role = "ct1.bx"}
  // CHECK-SAME: %arg4: !fhe.poly<logN = 3, logq = 100> {fhe.role = "pt0@20,100"}
  // CHECK-SAME: %arg5: !fhe.poly<logN = 3, logq = 100> {fhe.role = "pt0@20,100,neg"}
  // CHECK-SAME: %arg6: !fhe.poly<logN = 3, logq = 100> {fhe.role = "pt1@20,100"}
  // CHECK-SAME: fhe.pt_inputs = array<i64: 2, 2>
  // CHECK-NOT: fhe.poly_constant
  // CHECK: fhe.crt %arg4
  // CHECK: fhe.poly_add %arg1, %arg5
  // CHECK: fhe.poly_add %arg3, %arg6
  func.func @f(%a: !ct, %w: !pt, %b: !ct, %u: !pt) -> (!ct40, !ct, !ct) {
    %0 = ckks.mul_plain %a by %w : !pt : !ct -> !ct40
    %1 = ckks.add_plain %a plus %w : !pt {negate} : !ct
    %2 = ckks.add_plain %b plus %u : !pt : !ct
    return %0, %1, %2 : !ct40, !ct, !ct
  }
}
