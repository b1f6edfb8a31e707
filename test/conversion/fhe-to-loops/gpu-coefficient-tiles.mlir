// RUN: fhec-opt --fhec-attach-target=name=cuda --fhe-select-basis --fhe-to-loops --canonicalize --cse %s | FileCheck %s
// A key switch's closing chain on a GPU target: one launch of N / 32 blocks
// whose BigInts live in shared (coefficients, limbs) tiles. At 1000 bits
// (17 words a row) a tile per BigInt would exceed the block's 48 KB beside
// the iCRT's buffers, so tiles are reused once their value is dead and the
// chain's eight BigInts take three: the iCRTs' results A and B, their sum in
// C; the rescaled sum back in A; the input u copied into B when the op that
// reads it comes; the sums in C, then v in A and the result in B, which is
// copied out after its op.

#b = #fhe.basis<min_bits = 1030>
!p = !fhe.poly<logN = 5, logq = 1000>
!q = !fhe.poly<logN = 5, logq = 990>
!s = !fhe.rns<logN = 5, basis = #b, domain = coeff_scaled, layout = prime_major>

// CHECK-LABEL: func.func @keyswitch_close(
// CHECK-SAME: [[U:%[a-z0-9]+]]: memref<32x16xi64> {fhe.type = !fhe.poly<logN = 5, logq = 990>}, [[V:%[a-z0-9]+]]: memref<32x16xi64>
// CHECK: %[[OUT:.*]] = memref.alloc() {{.*}} : memref<32x16xi64>
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c256,
// CHECK-SAME: %[[A:arg[0-9]+]] : memref<32x17xi64, #gpu.address_space<workgroup>>, %[[B:arg[0-9]+]] : memref<32x17xi64, #gpu.address_space<workgroup>>, %[[C:arg[0-9]+]] : memref<32x17xi64, #gpu.address_space<workgroup>>) {
// The iCRTs' carry chains store their limbs.
// CHECK: memref.store %{{.*}}, %[[A]][
// CHECK: memref.store %{{.*}}, %[[B]][
// CHECK: gpu.barrier
// icrt + icrt, then the rounded shift.
// CHECK: memref.load %[[A]][
// CHECK-NEXT: memref.load %[[B]][
// CHECK: memref.store %{{.*}}, %[[C]][
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[A]][
// CHECK: gpu.barrier
// u is copied in before the op that reads it.
// CHECK: memref.load [[U]][
// CHECK-NEXT: memref.store %{{.*}}, %[[B]][
// CHECK: gpu.barrier
// CHECK: memref.load %[[A]][
// CHECK-NEXT: memref.load %[[B]][
// CHECK: memref.store %{{.*}}, %[[C]][
// CHECK: gpu.barrier
// CHECK: memref.load [[V]][
// CHECK-NEXT: memref.store %{{.*}}, %[[A]][
// CHECK: gpu.barrier
// CHECK: memref.load %[[C]][
// CHECK-NEXT: memref.load %[[A]][
// CHECK: memref.store %{{.*}}, %[[B]][
// CHECK: gpu.barrier
// CHECK: memref.load %[[B]][
// CHECK-NEXT: memref.store %{{.*}}, %[[OUT]][
// CHECK: gpu.terminator
func.func @keyswitch_close(%x: !s, %y: !s, %u: !q, %v: !q) -> !q {
  %0 = fhe.fused coefficient(%x, %y, %u, %v) : (!s, !s, !q, !q) -> !q {
  ^bb0(%a: !s, %b: !s, %c: !q, %d: !q):
    %1 = fhe.icrt %a {block = 1 : i64, order = #fhe<order matrix>} : !s -> !p
    %2 = fhe.icrt %b {block = 1 : i64, order = #fhe<order matrix>, round, shift = 10 : i64} : !s -> !p
    %3 = fhe.poly_add %1, %2 : !p
    %4 = fhe.poly_shr %3 {round, shift = 10 : i64} : !p -> !q
    %5 = fhe.poly_add %4, %c : !q
    %6 = fhe.poly_sub %5, %d : !q
    fhe.yield %6 : !q
  }
  return %0 : !q
}

// A chain whose tiles fit keeps one per BigInt (reuse cost ptxas registers
// in HE Mul's closing chain): four here.
!ps = !fhe.poly<logN = 5, logq = 30>
!qs = !fhe.poly<logN = 5, logq = 20>
// CHECK-LABEL: func.func @small_close(
// CHECK: gpu.launch
// CHECK-SAME: memref<32x1xi64, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x1xi64, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x1xi64, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x1xi64, #gpu.address_space<workgroup>>) {
func.func @small_close(%x: !s, %y: !s) -> !qs {
  %0 = fhe.fused coefficient(%x, %y) : (!s, !s) -> !qs {
  ^bb0(%a: !s, %b: !s):
    %1 = fhe.icrt %a {block = 1 : i64, order = #fhe<order matrix>} : !s -> !ps
    %2 = fhe.icrt %b {block = 1 : i64, order = #fhe<order matrix>, round, shift = 10 : i64} : !s -> !ps
    %3 = fhe.poly_add %1, %2 : !ps
    %4 = fhe.poly_shr %3 {round, shift = 10 : i64} : !ps -> !qs
    fhe.yield %4 : !qs
  }
  return %0 : !qs
}

// BigInt kernels without an iCRT take the tiles too: a rescale (the rounding
// constant, then the shift) in three tiles of 17 words a row (1000 bits):
// the input copied in by the whole block, the ops in the first warp, the
// result copied out; and a lone product by a constant (negative, two words)
// in two.
// CHECK-LABEL: func.func @rescale(
// CHECK-SAME: [[X:%[a-z0-9]+]]: memref<32x16xi64>
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c256,
// CHECK-SAME: workgroup(%[[T0:arg[0-9]+]] : memref<32x17xi64, #gpu.address_space<workgroup>>, %[[T1:arg[0-9]+]] : memref<32x17xi64, #gpu.address_space<workgroup>>, %[[T2:arg[0-9]+]] : memref<32x17xi64, #gpu.address_space<workgroup>>) {
// CHECK: memref.load [[X]][
// CHECK-NEXT: memref.store %{{.*}}, %[[T0]][
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[T1]][
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[T2]][
// CHECK: gpu.barrier
// CHECK: memref.load %[[T2]][
// CHECK-NEXT: memref.store
// CHECK: gpu.terminator
func.func @rescale(%x: !p) -> !q {
  %0 = fhe.fused coefficient(%x) : (!p) -> !q {
  ^bb0(%a: !p):
    %1 = fhe.poly_add_scalar %a {value = 512 : i64} : !p
    %2 = fhe.poly_shr %1 {shift = 10 : i64} : !p -> !q
    fhe.yield %2 : !q
  }
  return %0 : !q
}

// CHECK-LABEL: func.func @times_constant(
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c256,
// CHECK-SAME: workgroup(%{{.*}} : memref<32x17xi64, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x17xi64, #gpu.address_space<workgroup>>) {
// CHECK: gpu.barrier
// CHECK: arith.mului_extended %{{.*}}, %c{{-?[0-9]+}}_i64
// CHECK: arith.mului_extended %{{.*}}, %c{{-?[0-9]+}}_i64
// CHECK: arith.subi
// CHECK: gpu.barrier
// CHECK: gpu.terminator
func.func @times_constant(%x: !p) -> !p {
  %0 = fhe.poly_mul_scalar %x {value = -123456789012345678901234567 : i128} : !p
  return %0 : !p
}
