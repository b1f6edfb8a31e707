// RUN: fhec-opt --ckks-to-fhe %s | FileCheck %s
// Rotation and conjugation (HEAAN leftRotateFast, conjugate): the CRT of ax
// into region 2's basis, the automorphism on its residues, NTT, key switching
// with the rotation key of g (Hadamard, iNTT, iCRT mod qQ, shift by logQ) as
// for relinearization, and b' = phi_g(bx) added mod q. One key pair per
// Galois element, after the evaluation key, in increasing order.

!ct = !ckks.ct<logN = 10, logq = 300, logp = 30, slots = 512>
!ct60 = !ckks.ct<logN = 10, logq = 300, logp = 60, slots = 512>

module attributes {ckks.params = #ckks.params<logN = 10, logQ = 300, logp = 30>} {
  // CHECK-LABEL: func.func @rot(
  // CHECK-SAME: %[[A:.*]]: !fhe.poly<logN = 10, logq = 300> {fhe.role = "ct0.ax"}
  // CHECK-SAME: %[[B:.*]]: !fhe.poly<logN = 10, logq = 300> {fhe.role = "ct0.bx"}
  // CHECK-SAME: {fhe.role = "evk.ax"}
  // CHECK-SAME: {fhe.role = "evk.bx"}
  // g = 5^1 mod 2048 = 5, 5^3 mod 2048 = 125, 2N - 1 = 2047:
  // CHECK-SAME: %[[K5A:.*]]: !fhe.rns<logN = 10, basis = <min_bits = 914>, domain = eval, layout = prime_major> {fhe.role = "rk5.ax"}
  // CHECK-SAME: %[[K5B:.*]]: !fhe.rns<{{.*}}> {fhe.role = "rk5.bx"}
  // CHECK-SAME: {fhe.role = "rk125.ax"}
  // CHECK-SAME: {fhe.role = "rk125.bx"}
  // CHECK-SAME: {fhe.role = "rk2047.ax"}
  // CHECK-SAME: {fhe.role = "rk2047.bx"}
  // CHECK: %[[C:.*]] = fhe.crt %[[A]] {centered} : {{.*}} -> <logN = 10, basis = <min_bits = 914>, domain = coeff
  // CHECK: %[[R:.*]] = fhe.automorphism %[[C]] {galois = 5 : i64}
  // CHECK: %[[E:.*]] = fhe.ntt %[[R]]
  // CHECK: %[[HA:.*]] = fhe.hadamard %[[E]], %[[K5A]]
  // CHECK: %[[HB:.*]] = fhe.hadamard %[[E]], %[[K5B]]
  // CHECK: %[[BR:.*]] = fhe.poly_automorphism %[[B]] {galois = 5 : i64} : <logN = 10, logq = 300>
  // CHECK: fhe.intt %[[HA]]
  // CHECK: fhe.icrt {{.*}} -> <logN = 10, logq = 600>
  // CHECK: %[[AX:.*]] = fhe.poly_shr %{{.*}} {round, shift = 300 : i64}
  // CHECK: fhe.intt %[[HB]]
  // CHECK: %[[BX:.*]] = fhe.poly_shr
  // CHECK: %[[BS:.*]] = fhe.poly_add %[[BX]], %[[BR]]
  // The second rotation of the same ciphertext (here the op's second
  // result) shares its CRT.
  // CHECK-NOT: fhe.crt %[[A]]
  // CHECK: fhe.automorphism %[[C]] {galois = 125 : i64}
  // CHECK: fhe.automorphism %{{.*}} {galois = 2047 : i64}
  // CHECK: fhe.poly_automorphism %{{.*}} {galois = 2047 : i64}
  func.func @rot(%a: !ct) -> (!ct, !ct, !ct60) {
    %r:2 = ckks.rotate %a [1, 3] : !ct
    %2 = ckks.conjugate %r#0 : !ct
    %3 = ckks.mul %r#1, %r#1 : (!ct, !ct) -> !ct60
    return %r#0, %2, %3 : !ct, !ct, !ct60
  }
}
