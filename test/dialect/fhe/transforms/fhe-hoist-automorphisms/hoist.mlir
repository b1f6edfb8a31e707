// RUN: fhec-opt --fhe-hoist-automorphisms %s | FileCheck %s
// Rotations of one polynomial share one NTT: ntt(automorphism(x, g)) becomes
// automorphism(ntt(x), g) on the evaluation domain (a permutation of the NTT
// slots), and the NTTs of x merge into one placed after x's definition.

#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
!c = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>
!ei = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major, incomplete = 1>

// CHECK-LABEL: func.func @three_rotations(
// CHECK-SAME: %[[P:.*]]: !fhe.poly<logN = 4, logq = 40>
// CHECK: %[[C:.*]] = fhe.crt %[[P]]
// CHECK-NEXT: %[[E:.*]] = fhe.ntt %[[C]] : {{.*}} -> <{{.*}}domain = eval
// CHECK-NOT: fhe.ntt
// CHECK: %[[R5:.*]] = fhe.automorphism %[[E]] {galois = 5 : i64} : {{.*}}domain = eval
// CHECK-NOT: fhe.ntt
// CHECK: %[[R25:.*]] = fhe.automorphism %[[E]] {galois = 25 : i64}
// CHECK-NOT: fhe.ntt
// CHECK: %[[R31:.*]] = fhe.automorphism %[[E]] {galois = 31 : i64}
// CHECK: return %[[R5]], %[[R25]], %[[R31]]
func.func @three_rotations(%p: !fhe.poly<logN = 4, logq = 40>) -> (!e, !e, !e) {
  %c = fhe.crt %p : !fhe.poly<logN = 4, logq = 40> -> !c
  %a = fhe.automorphism %c {galois = 5 : i64} : !c
  %e1 = fhe.ntt %a : !c -> !e
  %b = fhe.automorphism %c {galois = 25 : i64} : !c
  %e2 = fhe.ntt %b : !c -> !e
  %d = fhe.automorphism %c {galois = 31 : i64} : !c
  %e3 = fhe.ntt %d : !c -> !e
  return %e1, %e2, %e3 : !e, !e, !e
}

// An NTT of x that exists already is the one the rotations share, moved up
// when it came after them.
// CHECK-LABEL: func.func @with_plain_ntt(
// CHECK-SAME: %[[X:.*]]: !fhe.rns
// CHECK: %[[E:.*]] = fhe.ntt %[[X]]
// CHECK-NOT: fhe.ntt
// CHECK: fhe.automorphism %[[E]] {galois = 5 : i64}
// CHECK: return %[[E]]
func.func @with_plain_ntt(%x: !c) -> (!e, !e) {
  %a = fhe.automorphism %x {galois = 5 : i64} : !c
  %e1 = fhe.ntt %a : !c -> !e
  %e0 = fhe.ntt %x : !c -> !e
  return %e0, %e1 : !e, !e
}

// Negative cases: an incomplete NTT (its evaluation domain is not a
// permutation of slots) and an automorphism with a non-NTT use stay; the
// NTT user of the latter is still hoisted.
// CHECK-LABEL: func.func @not_hoisted(
// CHECK-SAME: %[[X:.*]]: !fhe.rns
// CHECK: %[[E:.*]] = fhe.ntt %[[X]]
// CHECK: %[[A:.*]] = fhe.automorphism %[[X]] {galois = 5 : i64} : {{.*}}domain = coeff
// CHECK: fhe.ntt %[[A]] : {{.*}}incomplete = 1
// CHECK: %[[B:.*]] = fhe.automorphism %[[X]] {galois = 7 : i64} : {{.*}}domain = coeff
// CHECK: fhe.automorphism %[[E]] {galois = 7 : i64} : {{.*}}domain = eval
// CHECK: return {{.*}}, %[[B]]
func.func @not_hoisted(%x: !c) -> (!ei, !e, !c) {
  %a = fhe.automorphism %x {galois = 5 : i64} : !c
  %e1 = fhe.ntt %a : !c -> !ei
  %b = fhe.automorphism %x {galois = 7 : i64} : !c
  %e2 = fhe.ntt %b : !c -> !e
  return %e1, %e2, %b : !ei, !e, !c
}
