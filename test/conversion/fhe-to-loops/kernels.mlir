// RUN: fhec-opt --fhe-to-loops --canonicalize --cse %s | FileCheck %s
// RUN: fhec-opt --fhe-to-loops="phase-timers=false" %s | FileCheck %s --check-prefix=NOTIMERS
// Each kernel family's loop nest, and how it follows the decisions recorded
// on the ops (CRT/iCRT order and block, NTT levels, fused kernels, scaled iCRT input).

#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
!p = !fhe.poly<logN = 4, logq = 30>
!c = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
!s = !fhe.rns<logN = 4, basis = #b, domain = coeff_scaled, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>
!t = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = coeff_major>

// fhe types become memrefs (prime-major rows padded by three cache lines: a
// (3, 16) view of a (3, 40) buffer); the result is a fresh buffer, tables are
// fhe.table ops.
// CRT, Algo. 1 order: coefficients in parallel, then primes, then limbs (3-word MAC).
// CHECK-LABEL: func.func @crt_operand_scan(
// CHECK-SAME: %[[X:.*]]: memref<16x1xi64> {fhe.type = !fhe.poly<logN = 4, logq = 30>}) -> (memref<3x16xi64, strided<[40, 1]>> {fhe.type = !fhe.rns
// CHECK-DAG: fhe.table "prime_consts" #{{.*}} param 0 : memref<3x16xi64>
// CHECK-DAG: fhe.table "crt_powers" #{{.*}} param 1 : memref<3x1xi64>
// CHECK: %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x40xi64>
// CHECK: %[[OUT:.*]] = memref.subview %[[BUF]][0, 0] [3, 16] [1, 1] : memref<3x40xi64> to memref<3x16xi64, strided<[40, 1]>>
// CHECK: call @fhec_rt_phase_begin
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%{{.*}}) step (%c1)
// CHECK-NEXT: scf.for %[[J:.*]] =
// CHECK: modarith.mac
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[J]], %[[I]]]
// CHECK: call @fhec_rt_phase_end
// CHECK: return %[[OUT]]
func.func @crt_operand_scan(%x: !p) -> !c {
  %0 = fhe.crt %x : !p -> !c
  return %0 : !c
}

// Matrix order: blocks of 4 coefficients, one prime row at a time within a block.
// CHECK-LABEL: func.func @crt_matrix(
// CHECK: %[[OUT:.*]] = memref.subview
// CHECK: scf.parallel (%[[I0:.*]]) = (%{{.*}}) to (%{{.*}}) step (%[[C4:.*]]) {
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %c3
// CHECK-NEXT: scf.for %[[I:.*]] = %{{.*}} to %[[C4]]
// CHECK: %[[IDX:.*]] = arith.addi %[[I0]], %[[I]]
// CHECK: modarith.mac
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[J]], %[[IDX]]]
func.func @crt_matrix(%x: !p) -> !c {
  %0 = fhe.crt %x {order = #fhe<order matrix>, block = 4} : !p -> !c
  return %0 : !c
}

// NTT with one level of 4 stages on N = 16: one radix-16 sub-transform per prime
// if the target's register radix allowed it; the cpu target's is 2^2, so the
// level runs depth-first in two radix-4 sub-levels over the same block, each
// 4 unrolled Harvey butterflies (one lazy Shoup product each) in a loop.
// CHECK-LABEL: func.func @ntt_one_level(
// CHECK-DAG: fhe.table "ntt_twiddles"
// CHECK-DAG: fhe.table "ntt_twiddles_shoup"
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK-COUNT-4: modarith.mul_shoup {{.*}} {out = 2 : i64}
// CHECK: scf.for
// CHECK-COUNT-4: modarith.mul_shoup {{.*}} {out = 2 : i64}
// CHECK-NOT: modarith.mul_shoup
// The last level leaves [0, 4p) for [0, p).
// CHECK: modarith.reduce {{.*}} {in = 4 : i64} : i64
// CHECK: return
func.func @ntt_one_level(%x: !c) -> !e {
  %0 = fhe.ntt %x {levels = array<i64: 4>} : !c -> !e
  return %0 : !e
}

// Radix-2 levels (no attribute): 4 passes, one butterfly each.
// CHECK-LABEL: func.func @ntt_radix2(
// CHECK-COUNT-4: modarith.mul_shoup {{.*}} {out = 2 : i64}
// CHECK-NOT: modarith.mul_shoup
// CHECK: return
func.func @ntt_radix2(%x: !c) -> !e {
  %0 = fhe.ntt %x : !c -> !e
  return %0 : !e
}

// The iNTT's last stage applies n^-1 (in the intt_consts table) as fully
// reduced Shoup products; a coeff_scaled result reads the iCRT-folded columns (4-7).
// CHECK-LABEL: func.func @intt_scaled(
// CHECK: %[[K:.*]] = fhe.table "intt_consts" #{{.*}} param 0 : memref<3x8xi64>
// CHECK: memref.load %[[K]][%{{.*}}, %c4]
// CHECK: memref.load %[[K]][%{{.*}}, %c7]
// CHECK: modarith.mul_shoup {{.*}} : i64
// CHECK-NOT: memref.load %[[K]][%{{.*}}, %c0]
func.func @intt_scaled(%x: !e) -> !s {
  %0 = fhe.intt %x : !e -> !s
  return %0 : !s
}

// Hadamard: Barrett products, primes in parallel.
// CHECK-LABEL: func.func @hadamard(
// CHECK: scf.parallel
// CHECK: modarith.mul_barrett
func.func @hadamard(%x: !e, %y: !e) -> !e {
  %0 = fhe.hadamard %x, %y : !e
  return %0 : !e
}

// A fused residue kernel: one loop nest, each input loaded once, the
// intermediate sum never stored; two results, two stores per element.
// CHECK-LABEL: func.func @fused_residue(
// CHECK: %[[R0:.*]] = memref.subview
// CHECK: %[[R1:.*]] = memref.subview
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: %[[X:.*]] = memref.load %arg0
// CHECK: %[[Y:.*]] = memref.load %arg1
// CHECK: modarith.mul_barrett %[[X]], %[[Y]]
// CHECK: %[[Z:.*]] = memref.load %arg2
// CHECK: %[[S:.*]] = modarith.add %[[Y]], %[[Z]]
// CHECK: modarith.mul_barrett %[[S]], %[[X]]
// CHECK-NEXT: memref.store %{{.*}}, %[[R0]]
// CHECK-NEXT: memref.store %{{.*}}, %[[R1]]
// CHECK-NOT: scf.parallel
// CHECK: return %[[R0]], %[[R1]]
func.func @fused_residue(%a: !e, %b: !e, %c: !e) -> (!e, !e) {
  %0:2 = fhe.fused residue (%a, %b, %c) : (!e, !e, !e) -> (!e, !e) {
  ^bb0(%x: !e, %y: !e, %z: !e):
    %h = fhe.hadamard %x, %y : !e
    %s = fhe.add %y, %z : !e
    %t = fhe.hadamard %s, %x : !e
    fhe.yield %h, %t : !e, !e
  }
  return %0#0, %0#1 : !e, !e
}

// iCRT, Algo. 5: (P/p_j)^-1 pre-multiplication, a PLimbs + 1 word accumulator
// on the stack, the double-precision estimate of the multiple of P.
// CHECK-LABEL: func.func @icrt_algo5(
// CHECK: fhe.table "icrt_pdivp" #{{.*}} param 0 : memref<3x1xi64>
// CHECK: scf.parallel
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<2xi64>
// CHECK: modarith.mul_shoup
// CHECK: arith.uitofp
// CHECK: arith.fptoui
func.func @icrt_algo5(%x: !c) -> !p {
  %0 = fhe.icrt %x : !c -> !p
  return %0 : !p
}

// iCRT, Algo. 6: blocks of 8 coefficients, only the L = 1 column of
// (P/p_j) mod 2^64 kept, columns outermost; a scaled input skips the
// pre-multiplication (no Shoup product at all).
// CHECK-LABEL: func.func @icrt_matrix_scaled(
// CHECK-DAG: fhe.table "icrt_p" #{{.*}} param 1 : memref<1x1xi64>
// CHECK-DAG: fhe.table "icrt_columns" #{{.*}} param 1 : memref<1x3xi64>
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%c8)
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<8x3xi64>
// CHECK-NOT: modarith.mul_shoup
// CHECK: modarith.mac
// CHECK: return
func.func @icrt_matrix_scaled(%x: !s) -> !p {
  %0 = fhe.icrt %x {order = #fhe<order matrix>, block = 8} : !s -> !p
  return %0 : !p
}

// A fused coefficient kernel: iCRT into a block-local BigInt, then CRT from
// it, in one parallel loop; the BigInt never has a global buffer.
// CHECK-LABEL: func.func @fused_icrt_crt(
// CHECK: memref.alloc() {{.*}} : memref<3x40xi64>
// CHECK: %[[OUT:.*]] = memref.subview
// CHECK-NOT: memref.alloc()
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%c4)
// CHECK: %[[BIG:.*]] = memref.alloca() {{.*}} : memref<4x1xi64>
// CHECK: memref.store %{{.*}}, %[[BIG]]
// CHECK: memref.load %[[BIG]]
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK-NOT: scf.parallel
// CHECK: return %[[OUT]]
func.func @fused_icrt_crt(%x: !c) -> !c {
  %0 = fhe.fused coefficient (%x) : (!c) -> (!c) {
  ^bb0(%a: !c):
    %i = fhe.icrt %a {order = #fhe<order matrix>, block = 4} : !c -> !p
    %r = fhe.crt %i {order = #fhe<order matrix>, block = 4} : !p -> !c
    fhe.yield %r : !c
  }
  return %0 : !c
}

// Transpose: blocked over tiles of (up to 64) coefficients, all primes per tile.
// CHECK-LABEL: func.func @transpose(
// CHECK: %[[OUT:.*]] = memref.alloc() {{.*}} : memref<16x3xi64>
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %c3
// CHECK-NEXT: scf.for %[[I:.*]] = %{{.*}} to %c16
// CHECK-NEXT: %[[V:.*]] = memref.load %arg0[%[[J]], %[[I]]]
// CHECK-NEXT: memref.store %[[V]], %[[OUT]][%[[I]], %[[J]]]
func.func @transpose(%x: !c) -> !t {
  %0 = fhe.transpose %x : !c -> !t
  return %0 : !t
}

// BigInt shift: a loop over the result's limbs, not one op per limb.
// CHECK-LABEL: func.func @shift(
// CHECK: scf.for
// CHECK: arith.shrui
// CHECK: arith.shli
func.func @shift(%x: !fhe.poly<logN = 4, logq = 200>) -> !fhe.poly<logN = 4, logq = 90> {
  %0 = fhe.poly_shr %x {shift = 110 : i64} : !fhe.poly<logN = 4, logq = 200> -> !fhe.poly<logN = 4, logq = 90>
  return %0 : !fhe.poly<logN = 4, logq = 90>
}

// Rounded shift: bit s - 1 (here bit 45 of word 1) starts a carry chain
// through the result's limbs.
// CHECK-LABEL: func.func @shift_round(
// CHECK: %[[W:.*]] = memref.load %arg0[%{{.*}}, %c1]
// CHECK: %[[S:.*]] = arith.shrui %[[W]], %c45_i64
// CHECK: %[[BIT:.*]] = arith.andi %[[S]], %c1_i64
// CHECK: scf.for {{.*}} iter_args(%[[CARRY:.*]] = %[[BIT]]) -> (i64)
// CHECK: arith.addui_extended %{{.*}}, %[[CARRY]]
func.func @shift_round(%x: !fhe.poly<logN = 4, logq = 200>) -> !fhe.poly<logN = 4, logq = 90> {
  %0 = fhe.poly_shr %x {shift = 110 : i64, round} : !fhe.poly<logN = 4, logq = 200> -> !fhe.poly<logN = 4, logq = 90>
  return %0 : !fhe.poly<logN = 4, logq = 90>
}

// Adding a scalar: one carry chain over the limbs, whose addend word is a
// select over the constant's nonzero words (here words 0 and 2).
// CHECK-LABEL: func.func @add_scalar(
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %c0_i64) -> (i64)
// CHECK: %[[AT0:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK: %[[W0:.*]] = arith.select %[[AT0]], %c7_i64, %c0_i64
// CHECK: %[[AT2:.*]] = arith.cmpi eq, %{{.*}}, %c2
// CHECK: %[[W2:.*]] = arith.select %[[AT2]], %c1_i64, %[[W0]]
// CHECK: arith.addui_extended %{{.*}}, %[[W2]]
func.func @add_scalar(%x: !fhe.poly<logN = 4, logq = 200>) -> !fhe.poly<logN = 4, logq = 200> {
  %0 = fhe.poly_add_scalar %x {value = 340282366920938463463374607431768211463 : i130} : !fhe.poly<logN = 4, logq = 200>
  return %0 : !fhe.poly<logN = 4, logq = 200>
}

// NOTIMERS-NOT: fhec_rt_phase

// Buffers taken over: the NTT of a kernel result that dies there rewrites it
// in place, and the Hadamard's result takes over the dying NTT output; only
// the CRT allocates. A function argument is never written.
// CHECK-LABEL: func.func @in_place(
// CHECK: memref.alloc()
// CHECK-NOT: memref.alloc()
// CHECK: return
func.func @in_place(%x: !p, %y: !e) -> !e {
  %c = fhe.crt %x : !p -> !c
  %e = fhe.ntt %c : !c -> !e
  %h = fhe.hadamard %e, %y : !e
  return %h : !e
}

// CHECK-LABEL: func.func @arguments_are_read_only(
// CHECK: memref.alloc()
// CHECK: return
func.func @arguments_are_read_only(%c: !c) -> !e {
  %e = fhe.ntt %c : !c -> !e
  return %e : !e
}

// A transform kernel: one parallel loop over primes, each prime's rows of
// both NTTs in turn (the twiddle tables are read once per prime).
// CHECK-LABEL: func.func @transform_batch(
// CHECK: call @fhec_rt_phase_begin
// CHECK-NEXT: scf.parallel
// CHECK-COUNT-2: modarith.reduce {{.*}} {in = 4 : i64} : i64
// CHECK: call @fhec_rt_phase_end
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @transform_batch(%a: !c, %b: !c) -> (!e, !e) {
  %0:2 = fhe.fused transform (%a, %b) : (!c, !c) -> (!e, !e) {
  ^bb0(%x: !c, %y: !c):
    %ex = fhe.ntt %x {levels = array<i64: 4>} : !c -> !e
    %ey = fhe.ntt %y {levels = array<i64: 4>} : !c -> !e
    fhe.yield %ex, %ey : !e, !e
  }
  return %0#0, %0#1 : !e, !e
}
