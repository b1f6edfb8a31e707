// RUN: fhec-opt --ckks-to-fhe -split-input-file %s | FileCheck %s
// ckks.linear_transform with hybrid key switching (dnum = 2, logP = 150):
// double hoisting (offsets 0..5, baby step 4: babies 1, 2, 3, giants 0 and
// 4). P x (mod_raise and the product by 2^150) enters the key basis; each
// baby rotation is its key switch's products, P phi_b(bx) (an
// evaluation-domain automorphism) added to the second, never divided by P.
// The giant steps' plaintext products are summed in the key basis; only
// giant 4's ax sum leaves it (one iNTT, iCRT mod qP and shift) to be
// key-switched, its bx sum rotated in the evaluation domain; the transform
// ends in one iNTT, iCRT and shift per polynomial: three iCRTs in all. The
// key basis holds the hoisted sums: 666 bits, not the 615 of its key switches alone.

!ct = !ckks.ct<logN = 10, logq = 300, logp = 30, slots = 8>
!ct60 = !ckks.ct<logN = 10, logq = 300, logp = 60, slots = 8>

module attributes {ckks.params = #ckks.params<logN = 10, logQ = 300, logp = 30, dnum = 2>} {
  // CHECK-LABEL: func.func @lt(
  // CHECK-SAME: %[[A:[a-z0-9]+]]: !fhe.poly<logN = 10, logq = 300> {fhe.role = "ct0.ax"}
  // CHECK-SAME: %[[B:[a-z0-9]+]]: !fhe.poly<logN = 10, logq = 300> {fhe.role = "ct0.bx"}
  // CHECK-SAME: basis = <min_bits = 666>
  // CHECK: %[[RB:.*]] = fhe.poly_mod_raise %[[B]] : <logN = 10, logq = 300> -> <logN = 10, logq = 450>
  // CHECK-NEXT: %[[SB:.*]] = fhe.poly_mul_scalar %[[RB]] {value = 1427247692705959881058285969449495136382746624 : i152}
  // CHECK-NEXT: %[[CB:.*]] = fhe.crt %[[SB]] {centered}
  // CHECK-NEXT: %[[PB:.*]] = fhe.ntt %[[CB]]
  // CHECK: fhe.poly_mod_raise %[[A]]
  // CHECK-NOT: fhe.icrt
  // CHECK: %[[RB1:.*]] = fhe.automorphism %[[PB]] {galois = 5 : i64} : <{{.*}}domain = eval
  // CHECK-NEXT: fhe.add %{{.*}}, %[[RB1]]
  // CHECK-NOT: fhe.icrt
  // CHECK: fhe.automorphism %[[PB]] {galois = 25 : i64} : <{{.*}}domain = eval
  // CHECK-NOT: fhe.icrt
  // CHECK: fhe.automorphism %[[PB]] {galois = 125 : i64} : <{{.*}}domain = eval
  // Giant 4's ax sum: divided by P, then key-switched.
  // CHECK: fhe.icrt %{{.*}} -> <logN = 10, logq = 450>
  // CHECK-NEXT: %[[G4:.*]] = fhe.poly_shr %{{.*}} {round, shift = 150 : i64} : <logN = 10, logq = 450> -> <logN = 10, logq = 300>
  // CHECK: fhe.poly_reduce %[[G4]]
  // CHECK-NOT: fhe.icrt
  // CHECK: fhe.automorphism %{{.*}} {galois = 625 : i64} : <{{.*}}domain = eval
  // CHECK-NOT: fhe.icrt
  // CHECK: fhe.intt
  // CHECK-NEXT: fhe.icrt %{{.*}} -> <logN = 10, logq = 450>
  // CHECK-NEXT: %[[AX:.*]] = fhe.poly_shr %{{.*}} {round, shift = 150 : i64}
  // CHECK-NEXT: fhe.intt
  // CHECK-NEXT: fhe.icrt %{{.*}} -> <logN = 10, logq = 450>
  // CHECK-NEXT: %[[BX:.*]] = fhe.poly_shr %{{.*}} {round, shift = 150 : i64}
  // CHECK-NEXT: return %[[AX]], %[[BX]]
  func.func @lt(%a: !ct) -> !ct60 {
    %y = ckks.linear_transform %a {offsets = array<i64: 0, 1, 2, 3, 4, 5>, baby_step = 4 : i64,
        diagonals = dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
                           [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0],
                           [0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<6x8xf64>}
        : !ct -> !ct60
    return %y : !ct60
  }
}

// -----

// No rotation (one diagonal, offset 0): no key basis, and the sum of P x m
// divided by P is x m, which the transform computes without P.
!ct = !ckks.ct<logN = 10, logq = 300, logp = 30, slots = 8>
!ct60 = !ckks.ct<logN = 10, logq = 300, logp = 60, slots = 8>
module attributes {ckks.params = #ckks.params<logN = 10, logQ = 300, logp = 30, dnum = 2>} {
  // CHECK-LABEL: func.func @diagonal(
  // CHECK-NOT: fhe.poly_mod_raise
  // CHECK: fhe.hadamard
  // CHECK: fhe.icrt
  // CHECK-NOT: func.func @__fhec_evk_prepare
  func.func @diagonal(%a: !ct) -> !ct60 {
    %y = ckks.linear_transform %a {offsets = array<i64: 0>,
        diagonals = dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<1x8xf64>} : !ct -> !ct60
    return %y : !ct60
  }
}

// -----

// The plan under double hoisting: a giant rotation counts as four baby ones
// (BsgsPlan::kDoubleHoistedGiantWeight). A band of 16 diagonals takes n1 = 8:
// babies 1 .. 7 (the last one galois 5^7 mod 2048 = 301) and one giant
// rotation (8: galois 1505), so three iCRTs (the giant's ax sum, and two at
// the end). Counting rotations alone (dnum 1) it would be n1 = 4: 3 babies
// and 3 giants.
!ct = !ckks.ct<logN = 10, logq = 300, logp = 30, slots = 16>
!ct60 = !ckks.ct<logN = 10, logq = 300, logp = 60, slots = 16>
module attributes {ckks.params = #ckks.params<logN = 10, logQ = 300, logp = 30, dnum = 2>} {
  // CHECK-LABEL: func.func @band(
  // CHECK: fhe.automorphism %{{.*}} {galois = 301 : i64} : <{{.*}}domain = eval
  // CHECK-COUNT-3: fhe.icrt
  // CHECK-NOT: fhe.icrt
  // CHECK: return
  func.func @band(%a: !ct) -> !ct60 {
    %y = ckks.linear_transform %a {offsets = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15>,
        diagonals = dense<0.5> : tensor<16x16xf64>} : !ct -> !ct60
    return %y : !ct60
  }
}
