// RUN: fhec-opt --fhe-reorder-icrt %s | FileCheck %s
// RUN: fhec-opt --fhe-reorder-icrt="block=4 crt=false" %s | FileCheck %s --check-prefix=OPTS
// RUN: fhec-opt --fhe-reorder-icrt %s | fhec-opt | FileCheck %s
// iCRT and CRT in matrix form with the target's coefficient block (16 on cpu);
// the decision is recorded on the ops and the IR parses back.

#b = #fhe.basis<min_bits = 50>
!p = !fhe.poly<logN = 8, logq = 30>
!c = !fhe.rns<logN = 8, basis = #b, domain = coeff, layout = prime_major>

// CHECK-LABEL: func.func @roundtrip
// CHECK: fhe.crt %{{.*}} {block = 16 : i64, order = #fhe<order matrix>}
// CHECK: fhe.icrt %{{.*}} {block = 16 : i64, order = #fhe<order matrix>}
// OPTS-LABEL: func.func @roundtrip
// OPTS: fhe.crt %{{.*}} : 
// OPTS: fhe.icrt %{{.*}} {block = 4 : i64, order = #fhe<order matrix>}
func.func @roundtrip(%x: !p) -> !p {
  %0 = fhe.crt %x : !p -> !c
  %1 = fhe.icrt %0 : !c -> !p
  return %1 : !p
}

// A decision already made is kept.
// CHECK-LABEL: func.func @kept
// CHECK: fhe.icrt %{{.*}} {order = #fhe<order operand_scan>}
func.func @kept(%x: !c) -> !p {
  %0 = fhe.icrt %x {order = #fhe<order operand_scan>} : !c -> !p
  return %0 : !p
}

// The block never exceeds N (here 4 coefficients).
// CHECK-LABEL: func.func @small_ring
// CHECK: fhe.icrt %{{.*}} {block = 4 : i64
func.func @small_ring(%x: !fhe.rns<logN = 2, basis = <min_bits = 20>, domain = coeff, layout = prime_major>) -> !fhe.poly<logN = 2, logq = 10> {
  %0 = fhe.icrt %x : !fhe.rns<logN = 2, basis = <min_bits = 20>, domain = coeff, layout = prime_major> -> !fhe.poly<logN = 2, logq = 10>
  return %0 : !fhe.poly<logN = 2, logq = 10>
}

// An icrt_sum (always in matrix form) gets its block; one it has is kept.
// CHECK-LABEL: func.func @icrt_sum
// CHECK: fhe.icrt_sum %{{.*}} {block = 16 : i64, offsets = array<i64: 0, 20>}
// CHECK: fhe.icrt_sum %{{.*}} {block = 32 : i64, offsets = array<i64: 0>}
// OPTS-LABEL: func.func @icrt_sum
// OPTS: fhe.icrt_sum %{{.*}} {block = 4 : i64, offsets = array<i64: 0, 20>}
func.func @icrt_sum(%x: !c, %b: !p) -> (!p, !p) {
  %0 = fhe.icrt_sum %x, %x plus %b {offsets = array<i64: 0, 20>} : !c, !c plus !p -> !p
  %1 = fhe.icrt_sum %x {offsets = array<i64: 0>, block = 32} : !c -> !p
  return %0, %1 : !p, !p
}
