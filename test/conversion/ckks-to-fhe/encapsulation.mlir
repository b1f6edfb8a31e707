// RUN: fhec-opt --ckks-to-fhe %s | FileCheck %s
// Sparse-secret encapsulation (bootstrapping with a dense secret): at q0 =
// 2^42, key switching to the ephemeral secret with the small key mod q0 P'
// (P' = 2^58: Hadamard in its own basis, iCRT mod 2^100, shift by 58); back at
// logq 300 with the key mod PQ, as a rotation without the automorphism. The
// dense parts follow the evaluation-key roles, the small pair comes last; the
// small key has a preparation function of its own.

!q0 = !ckks.ct<logN = 10, logq = 42, logp = 30, slots = 512>
!top = !ckks.ct<logN = 10, logq = 300, logp = 30, slots = 512>

module attributes {ckks.params = #ckks.params<logN = 10, logQ = 300, logp = 30>} {
  // CHECK-LABEL: func.func @raise(
  // CHECK-SAME: %[[A:.*]]: !fhe.poly<logN = 10, logq = 42> {fhe.role = "ct0.ax"}
  // CHECK-SAME: %[[B:.*]]: !fhe.poly<logN = 10, logq = 42> {fhe.role = "ct0.bx"}
  // CHECK-SAME: %[[DA:.*]]: !fhe.rns<logN = 10, basis = <min_bits = 914>, domain = eval, layout = prime_major> {fhe.role = "ek42.dense.ax"}
  // CHECK-SAME: %[[DB:.*]]: !fhe.rns<{{.*}}> {fhe.role = "ek42.dense.bx"}
  // CHECK-SAME: %[[SA:.*]]: !fhe.rns<logN = 10, basis = <min_bits = 156>, domain = eval, layout = prime_major> {fhe.role = "ek42.sparse.ax"}
  // CHECK-SAME: %[[SB:.*]]: !fhe.rns<{{.*}}> {fhe.role = "ek42.sparse.bx"}
  // CHECK: %[[C:.*]] = fhe.crt %[[A]] {centered} : {{.*}} -> <logN = 10, basis = <min_bits = 156>, domain = coeff
  // CHECK: %[[E:.*]] = fhe.ntt %[[C]]
  // CHECK: fhe.hadamard %[[E]], %[[SA]]
  // CHECK: fhe.icrt {{.*}} -> <logN = 10, logq = 100>
  // CHECK: fhe.poly_shr %{{.*}} {round, shift = 58 : i64} : <logN = 10, logq = 100> -> <logN = 10, logq = 42>
  // CHECK: fhe.hadamard %[[E]], %[[SB]]
  // CHECK: %[[BX:.*]] = fhe.poly_add %{{.*}}, %[[B]]
  // CHECK: fhe.poly_mod_raise
  // CHECK: %[[RB:.*]] = fhe.poly_mod_raise %[[BX]]
  // CHECK-NOT: fhe.automorphism
  // CHECK: fhe.crt %{{.*}} {centered} : {{.*}} -> <logN = 10, basis = <min_bits = 914>, domain = coeff
  // CHECK: fhe.hadamard %{{.*}}, %[[DA]]
  // CHECK: fhe.hadamard %{{.*}}, %[[DB]]
  // CHECK: fhe.poly_shr %{{.*}} {round, shift = 300 : i64}
  // CHECK: fhe.poly_add %{{.*}}, %[[RB]]
  // CHECK-LABEL: func.func @__fhec_ek_prepare_42(
  // CHECK-SAME: !fhe.poly<logN = 10, logq = 100> {fhe.role = "key"}) -> (!fhe.rns<logN = 10, basis = <min_bits = 156>, domain = eval, layout = prime_major> {fhe.role = "keyrns"})
  func.func @raise(%x: !q0) -> !top {
    %e = ckks.encapsulate %x : !q0
    %r = ckks.mod_raise %e : !q0 -> !top
    %d = ckks.decapsulate %r {mod_logq = 42} : !top
    return %d : !top
  }
}
