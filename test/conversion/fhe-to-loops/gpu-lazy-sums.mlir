// RUN: fhec-opt --fhec-attach-target=name=cuda --fhe-to-loops --canonicalize --cse %s | FileCheck %s
// Lazy sums of products in GPU residue kernels (the inner sums of a linear
// transform's giant steps, hybrid key switching's digit products): a tree of
// fhe.add over at least 3 Hadamard products, each used only by the tree,
// accumulates the 32 x 32 -> 64-bit products and reduces once (two Shoup
// products of its halves). At 30-bit primes a 64-bit sum holds 16 products.

#b = #fhe.basis<min_bits = 50, prime_bits = 30, primes = [1073479681, 1073184769]>
!e = !fhe.rns<logN = 5, basis = #b, domain = eval, layout = prime_major>

// Four products: no Barrett reduction, one wide reduction at the root.
// CHECK-LABEL: func.func @four(
// CHECK: scf.parallel
// CHECK-NOT: modarith.mul_barrett
// CHECK: %[[X:.*]] = arith.extui {{.*}} : i32 to i64
// CHECK-NEXT: %[[K:.*]] = arith.extui {{.*}} : i32 to i64
// CHECK-NEXT: %[[P0:.*]] = arith.muli %[[X]], %[[K]] : i64
// CHECK: %[[P1:.*]] = arith.muli {{.*}}, %[[K]] : i64
// CHECK-NEXT: %[[S1:.*]] = arith.addi %[[P0]], %[[P1]] : i64
// CHECK: %[[P2:.*]] = arith.muli {{.*}}, %[[K]] : i64
// CHECK-NEXT: %[[S2:.*]] = arith.addi %[[S1]], %[[P2]] : i64
// CHECK: %[[P3:.*]] = arith.muli {{.*}}, %[[K]] : i64
// CHECK-NEXT: %[[S3:.*]] = arith.addi %[[S2]], %[[P3]] : i64
// CHECK: %[[HI:.*]] = arith.shrui %[[S3]], %c32_i64 : i64
// CHECK-NEXT: modarith.mul_shoup %[[HI]], {{.*}} {out = 2 : i64} : i64
// CHECK-NEXT: %[[LO:.*]] = arith.andi %[[S3]], %c4294967295_i64 : i64
// CHECK-NEXT: modarith.mul_shoup %[[LO]], %c1_i64, {{.*}} {out = 2 : i64} : i64
// CHECK-NEXT: arith.addi
// CHECK-NEXT: modarith.reduce {{.*}} {in = 4 : i64} : i64
// CHECK-NOT: modarith.mul_barrett
// CHECK: scf.reduce
func.func @four(%a: !e, %b: !e, %c: !e, %d: !e, %m: !e) -> !e {
  %0 = fhe.fused residue (%a, %b, %c, %d, %m) : (!e, !e, !e, !e, !e) -> !e {
  ^bb0(%x: !e, %y: !e, %z: !e, %w: !e, %k: !e):
    %p0 = fhe.hadamard %x, %k : !e
    %p1 = fhe.hadamard %y, %k : !e
    %s0 = fhe.add %p0, %p1 : !e
    %p2 = fhe.hadamard %z, %k : !e
    %s1 = fhe.add %s0, %p2 : !e
    %p3 = fhe.hadamard %w, %k : !e
    %s2 = fhe.add %s1, %p3 : !e
    fhe.yield %s2 : !e
  }
  return %0 : !e
}

// Two products are reduced each (Barrett) and added: a wide reduction would
// cost more. A product used twice, or yielded, is reduced too; the sum of
// three products beside it is still lazy.
// CHECK-LABEL: func.func @eager(
// CHECK: scf.parallel
// CHECK-COUNT-2: modarith.mul_barrett
// CHECK-NEXT: modarith.add
// CHECK-NOT: modarith.mul_barrett
// CHECK-COUNT-2: modarith.mul_shoup
// CHECK-NOT: modarith.mul
// CHECK: scf.reduce
func.func @eager(%a: !e, %b: !e, %c: !e, %m: !e) -> (!e, !e, !e) {
  %0:3 = fhe.fused residue (%a, %b, %c, %m) : (!e, !e, !e, !e) -> (!e, !e, !e) {
  ^bb0(%x: !e, %y: !e, %z: !e, %k: !e):
    %p0 = fhe.hadamard %x, %k : !e
    %p1 = fhe.hadamard %y, %k : !e
    %s0 = fhe.add %p0, %p1 : !e
    %q0 = fhe.hadamard %y, %x : !e
    %q1 = fhe.hadamard %z, %x : !e
    %q2 = fhe.hadamard %z, %y : !e
    %t0 = fhe.add %q0, %q1 : !e
    %t1 = fhe.add %t0, %q2 : !e
    fhe.yield %s0, %t1, %p1 : !e, !e, !e
  }
  return %0#0, %0#1, %0#2 : !e, !e, !e
}

// A lazy sum (three products) whose one use is a product of another lazy
// sum (a baby rotation's digit products times its diagonal): reduced before
// that product reads it.
// CHECK-LABEL: func.func @nested(
// CHECK: scf.parallel
// CHECK-COUNT-3: arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: modarith.mul_shoup
// CHECK-NEXT: arith.andi
// CHECK-NEXT: modarith.mul_shoup
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[R:.*]] = modarith.reduce
// CHECK: arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: modarith.reduce
// CHECK-NOT: modarith.mul_barrett
// CHECK: scf.reduce
func.func @nested(%a: !e, %b: !e, %c: !e, %k: !e, %d: !e, %e: !e, %f: !e) -> !e {
  %0 = fhe.fused residue (%a, %b, %c, %k, %d, %e, %f) : (!e, !e, !e, !e, !e, !e, !e) -> !e {
  ^bb0(%x: !e, %y: !e, %z: !e, %m: !e, %u: !e, %v: !e, %w: !e):
    %p0 = fhe.hadamard %x, %m : !e
    %p1 = fhe.hadamard %y, %m : !e
    %s0 = fhe.add %p0, %p1 : !e
    %p2 = fhe.hadamard %z, %m : !e
    %s1 = fhe.add %s0, %p2 : !e
    %q0 = fhe.hadamard %s1, %u : !e
    %q1 = fhe.hadamard %v, %u : !e
    %t0 = fhe.add %q0, %q1 : !e
    %q2 = fhe.hadamard %w, %u : !e
    %t1 = fhe.add %t0, %q2 : !e
    fhe.yield %t1 : !e
  }
  return %0 : !e
}

// Seventeen products: the sum of the first sixteen is reduced before the
// seventeenth joins it, then the root: two wide reductions.
// CHECK-LABEL: func.func @seventeen(
// CHECK: scf.parallel
// CHECK-COUNT-17: arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: modarith.mul_shoup
// CHECK-NEXT: arith.andi
// CHECK-NEXT: modarith.mul_shoup
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[R16:.*]] = modarith.reduce
// CHECK-NEXT: %[[S17:.*]] = arith.addi %[[R16]], %{{.*}} : i64
// CHECK-NEXT: arith.shrui %[[S17]], %c32_i64
// CHECK-NEXT: modarith.mul_shoup
// CHECK-NEXT: arith.andi %[[S17]]
// CHECK-NEXT: modarith.mul_shoup
// CHECK-NOT: modarith.mul
// CHECK: scf.reduce
func.func @seventeen(%a0: !e, %a1: !e, %a2: !e, %a3: !e, %a4: !e, %a5: !e, %a6: !e, %a7: !e, %a8: !e, %a9: !e, %a10: !e, %a11: !e, %a12: !e, %a13: !e, %a14: !e, %a15: !e, %a16: !e, %m: !e) -> !e {
  %0 = fhe.fused residue (%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %m) : (!e, !e, !e, !e, !e, !e, !e, !e, !e, !e, !e, !e, !e, !e, !e, !e, !e, !e) -> !e {
  ^bb0(%x0: !e, %x1: !e, %x2: !e, %x3: !e, %x4: !e, %x5: !e, %x6: !e, %x7: !e, %x8: !e, %x9: !e, %x10: !e, %x11: !e, %x12: !e, %x13: !e, %x14: !e, %x15: !e, %x16: !e, %k: !e):
    %p0 = fhe.hadamard %x0, %k : !e
    %p1 = fhe.hadamard %x1, %k : !e
    %s1 = fhe.add %p0, %p1 : !e
    %p2 = fhe.hadamard %x2, %k : !e
    %s2 = fhe.add %s1, %p2 : !e
    %p3 = fhe.hadamard %x3, %k : !e
    %s3 = fhe.add %s2, %p3 : !e
    %p4 = fhe.hadamard %x4, %k : !e
    %s4 = fhe.add %s3, %p4 : !e
    %p5 = fhe.hadamard %x5, %k : !e
    %s5 = fhe.add %s4, %p5 : !e
    %p6 = fhe.hadamard %x6, %k : !e
    %s6 = fhe.add %s5, %p6 : !e
    %p7 = fhe.hadamard %x7, %k : !e
    %s7 = fhe.add %s6, %p7 : !e
    %p8 = fhe.hadamard %x8, %k : !e
    %s8 = fhe.add %s7, %p8 : !e
    %p9 = fhe.hadamard %x9, %k : !e
    %s9 = fhe.add %s8, %p9 : !e
    %p10 = fhe.hadamard %x10, %k : !e
    %s10 = fhe.add %s9, %p10 : !e
    %p11 = fhe.hadamard %x11, %k : !e
    %s11 = fhe.add %s10, %p11 : !e
    %p12 = fhe.hadamard %x12, %k : !e
    %s12 = fhe.add %s11, %p12 : !e
    %p13 = fhe.hadamard %x13, %k : !e
    %s13 = fhe.add %s12, %p13 : !e
    %p14 = fhe.hadamard %x14, %k : !e
    %s14 = fhe.add %s13, %p14 : !e
    %p15 = fhe.hadamard %x15, %k : !e
    %s15 = fhe.add %s14, %p15 : !e
    %p16 = fhe.hadamard %x16, %k : !e
    %s16 = fhe.add %s15, %p16 : !e
    fhe.yield %s16 : !e
  }
  return %0 : !e
}
