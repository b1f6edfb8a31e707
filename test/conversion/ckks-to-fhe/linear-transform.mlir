// RUN: fhec-opt --ckks-to-fhe %s | FileCheck %s
// ckks.linear_transform by baby-step giant-step (offsets 0..5, baby step 4:
// babies 1, 2, 3, giants 0 and 4): the babies are rotations of x sharing its
// centered CRT; per giant step the products with the rotated diagonals are
// summed in the evaluation domain; the ax sums leave it by one iNTT and one
// iCRT each, the bx sums by one iNTT each, giant 4's permuted on its residues
// (g = 5^4 mod 2048 = 625), and one iCRT of their sum; giant 4's ax is then
// key-switched. The sums' basis holds all six terms of N q |m|: 10 + 300 +
// 34 + 3 + 4 = 351 bits, and every baby is converted into it once.

!ct = !ckks.ct<logN = 10, logq = 300, logp = 30, slots = 8>
!ct60 = !ckks.ct<logN = 10, logq = 300, logp = 60, slots = 8>

module attributes {ckks.params = #ckks.params<logN = 10, logQ = 300, logp = 30>} {
  // CHECK-LABEL: func.func @lt(
  // CHECK-SAME: %[[A:[a-z0-9]+]]: !fhe.poly<logN = 10, logq = 300> {fhe.role = "ct0.ax"}
  // CHECK-SAME: %[[B:[a-z0-9]+]]: !fhe.poly<logN = 10, logq = 300> {fhe.role = "ct0.bx"}
  // CHECK-SAME: {fhe.role = "rk5.ax"}
  // CHECK-SAME: {fhe.role = "rk25.ax"}
  // CHECK-SAME: {fhe.role = "rk125.ax"}
  // CHECK-SAME: {fhe.role = "rk625.ax"}
  // CHECK: %[[C:.*]] = fhe.crt %[[A]] {centered}
  // CHECK: fhe.automorphism %[[C]] {galois = 5 : i64}
  // CHECK: fhe.automorphism %[[C]] {galois = 25 : i64}
  // CHECK: fhe.automorphism %[[C]] {galois = 125 : i64}
  // Giant 0: x and its three babies times four diagonals, summed. A
  // diagonal is a 64-bit constant (its centered coefficients' width), not
  // one mod q: its centered CRT reads one limb, not five.
  // CHECK: fhe.crt %{{.*}} {centered} : <logN = 10, logq = 64> -> <logN = 10, basis = <min_bits = 351>, domain = coeff
  // CHECK: fhe.crt %[[A]] : {{.*}} -> <logN = 10, basis = <min_bits = 351>, domain = coeff
  // CHECK-COUNT-3: fhe.add {{.*}} basis = <min_bits = 351>
  // CHECK: %[[B0:.*]] = fhe.intt
  // CHECK: %[[S0:.*]] = fhe.intt
  // CHECK-NEXT: %[[Y0:.*]] = fhe.icrt %[[S0]] {{.*}} -> <logN = 10, logq = 300>
  // Giant 4: x and baby 1, already in the sums' basis.
  // CHECK-NOT: fhe.crt %[[A]] :
  // CHECK: fhe.add {{.*}} basis = <min_bits = 351>
  // CHECK: %[[B4:.*]] = fhe.intt
  // CHECK-NEXT: %[[R4:.*]] = fhe.automorphism %[[B4]] {galois = 625 : i64} : <logN = 10, basis = <min_bits = 351>, domain = coeff
  // CHECK-NEXT: %[[SB:.*]] = fhe.add %[[B0]], %[[R4]]
  // CHECK: %[[S1:.*]] = fhe.intt
  // CHECK-NEXT: %[[Y1:.*]] = fhe.icrt %[[S1]]
  // CHECK: %[[C1:.*]] = fhe.crt %[[Y1]] {centered}
  // CHECK: fhe.automorphism %[[C1]] {galois = 625 : i64}
  // CHECK: %[[YB:.*]] = fhe.icrt %[[SB]] {{.*}} -> <logN = 10, logq = 300>
  // CHECK-NOT: fhe.poly_automorphism
  // CHECK: %[[AX:.*]] = fhe.poly_add %[[Y0]], %{{.*}}
  // CHECK: %[[BX:.*]] = fhe.poly_add %[[YB]], %{{.*}}
  // CHECK: return %[[AX]], %[[BX]]
  func.func @lt(%a: !ct) -> !ct60 {
    %y = ckks.linear_transform %a {offsets = array<i64: 0, 1, 2, 3, 4, 5>, baby_step = 4 : i64,
        diagonals = dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
                           [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0],
                           [0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<6x8xf64>}
        : !ct -> !ct60
    return %y : !ct60
  }

  // Two giant rotations (offsets 0, 2, 5, baby step 2: giants 0, 2 and 4):
  // their key-switch products are summed in the evaluation domain and leave
  // it by one iNTT, iCRT and shift per polynomial; the keys' basis holds the
  // two terms, 10 + 300 + 600 + 4 + 1 = 915 bits, and the baby rotation reads
  // a prefix of it. The bx halves of the three giant steps share one iCRT.
  // CHECK-LABEL: func.func @two_giants(
  // CHECK-SAME: {fhe.role = "rk5.ax"}
  // CHECK: fhe.basis_prefix %{{.*}} : <logN = 10, basis = <min_bits = 915>, {{.*}}> -> <logN = 10, basis = <min_bits = 914>
  // CHECK: %[[P25:.*]] = fhe.automorphism %{{.*}} {galois = 25 : i64} : <logN = 10, basis = <min_bits = 915>
  // CHECK: %[[A25:.*]] = fhe.hadamard
  // CHECK: %[[B25:.*]] = fhe.hadamard
  // CHECK-NOT: fhe.poly_shr
  // CHECK: fhe.automorphism %{{.*}} {galois = 625 : i64} : <logN = 10, basis = <min_bits = 915>
  // CHECK: %[[A625:.*]] = fhe.hadamard
  // CHECK: %[[B625:.*]] = fhe.hadamard
  // CHECK: %[[SA:.*]] = fhe.add %[[A25]], %[[A625]]
  // CHECK: %[[SB:.*]] = fhe.add %[[B25]], %[[B625]]
  // CHECK: %[[YB:.*]] = fhe.icrt {{.*}} -> <logN = 10, logq = 300>
  // CHECK-NOT: fhe.icrt {{.*}} -> <logN = 10, logq = 300>
  // CHECK: fhe.intt %[[SA]]
  // CHECK: fhe.icrt {{.*}} -> <logN = 10, logq = 600>
  // CHECK: %[[XA:.*]] = fhe.poly_shr {{.*}} {round, shift = 300 : i64}
  // CHECK: fhe.intt %[[SB]]
  // CHECK: fhe.icrt {{.*}} -> <logN = 10, logq = 600>
  // CHECK: %[[XB:.*]] = fhe.poly_shr
  // CHECK-NOT: fhe.poly_shr
  // CHECK-NOT: fhe.poly_automorphism
  // CHECK: %[[AX:.*]] = fhe.poly_add %{{.*}}, %[[XA]]
  // CHECK: %[[BX:.*]] = fhe.poly_add %[[YB]], %[[XB]]
  // CHECK: return %[[AX]], %[[BX]]
  func.func @two_giants(%a: !ct) -> !ct60 {
    %y = ckks.linear_transform %a {offsets = array<i64: 0, 2, 5>, baby_step = 2 : i64,
        diagonals = dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
                           [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]]> : tensor<3x8xf64>}
        : !ct -> !ct60
    return %y : !ct60
  }
}
