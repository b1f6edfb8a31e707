// RUN: fhec-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fhec-promote-thread-scratch,canonicalize))' | FileCheck %s
// A GPU thread's scratch array (a memref.alloca in an scf.parallel body)
// indexed by a loop's induction variable lives in local memory; the pass
// unrolls such loops so that every index is a constant (LLVM's SROA then
// keeps the array in registers). Other loops and arrays are left alone.

// The words loop that writes a BigInt sum and the digit loop that reads it
// are both unrolled; the parallel loop over coefficients stays.
// CHECK-LABEL: func.func @digits
// CHECK: scf.parallel
// CHECK-NOT: scf.for
// CHECK: memref.store %{{.*}}, %[[S:.*]][%c0] : memref<4xi64>
// CHECK: memref.store %{{.*}}, %[[S]][%c3] : memref<4xi64>
// CHECK: memref.load %[[S]][%c0] : memref<4xi64>
// CHECK: memref.load %[[S]][%c3] : memref<4xi64>
// CHECK-NOT: scf.for
// CHECK: scf.reduce
func.func @digits(%a: memref<64x4xi64>, %out: memref<64xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0 : i64
  scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
    %s = memref.alloca() : memref<4xi64>
    scf.for %w = %c0 to %c4 step %c1 {
      %x = memref.load %a[%t, %w] : memref<64x4xi64>
      memref.store %x, %s[%w] : memref<4xi64>
    }
    %sum = scf.for %w = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (i64) {
      %x = memref.load %s[%w] : memref<4xi64>
      %y = arith.xori %acc, %x : i64
      scf.yield %y : i64
    }
    memref.store %sum, %out[%t] : memref<64xi64>
  }
  return
}

// -----

// Nested loops indexing a 2-D array are unrolled, the inner one first.
// CHECK-LABEL: func.func @nested
// CHECK-NOT: scf.for
// CHECK: memref.store %{{.*}}, %{{.*}}[%c1, %c2] : memref<2x3xi64>
// CHECK-NOT: scf.for
// CHECK: scf.reduce
func.func @nested(%a: memref<64x6xi64>, %out: memref<64xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
    %s = memref.alloca() : memref<2x3xi64>
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        %k0 = arith.muli %i, %c3 : index
        %k = arith.addi %k0, %j : index
        %x = memref.load %a[%t, %k] : memref<64x6xi64>
        memref.store %x, %s[%i, %j] : memref<2x3xi64>
      }
    }
    %v = memref.load %s[%c1, %c2] : memref<2x3xi64>
    memref.store %v, %out[%t] : memref<64xi64>
  }
  return
}

// -----

// Left alone: a loop past max-trip-count (64).
// CHECK-LABEL: func.func @long
// CHECK: scf.for {{.*}} to %c65
func.func @long(%out: memref<64xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c65 = arith.constant 65 : index
  %z = arith.constant 0 : i64
  scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
    %long = memref.alloca() : memref<64xi64>
    scf.for %w = %c0 to %c65 step %c1 {
      %i = arith.remui %w, %c64 : index
      memref.store %z, %long[%i] : memref<64xi64>
    }
    %l = memref.load %long[%c0] : memref<64xi64>
    memref.store %l, %out[%t] : memref<64xi64>
  }
  return
}

// -----

// All or nothing per thread: arrays of more than 64 words together (too
// many for a thread's registers) stay in local memory, so the small array's loop is
// kept too (unrolling it would only add register pressure). So is an array
// indexed by the thread's own index, and an alloca outside any parallel
// loop (host code).
// CHECK-LABEL: func.func @kept
// CHECK: scf.parallel
// CHECK: scf.for {{.*}} to %c128
// CHECK: scf.for {{.*}} to %c4
// CHECK: scf.reduce
// CHECK: scf.parallel
// CHECK: scf.for {{.*}} to %c4
// CHECK: scf.reduce
// CHECK: scf.for {{.*}} to %c4
func.func @kept(%a: memref<64x4xi64>, %out: memref<64xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %z = arith.constant 0 : i64
  scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
    %big = memref.alloca() : memref<128xi64>
    scf.for %w = %c0 to %c128 step %c1 {
      memref.store %z, %big[%w] : memref<128xi64>
    }
    %s = memref.alloca() : memref<4xi64>
    scf.for %w = %c0 to %c4 step %c1 {
      %x = memref.load %a[%t, %w] : memref<64x4xi64>
      memref.store %x, %s[%w] : memref<4xi64>
    }
    %v = memref.load %s[%c0] : memref<4xi64>
    %b = memref.load %big[%c0] : memref<128xi64>
    %vb = arith.xori %v, %b : i64
    memref.store %vb, %out[%t] : memref<64xi64>
  }
  scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
    %s = memref.alloca() : memref<4xi64>
    scf.for %w = %c0 to %c4 step %c1 {
      %x = memref.load %a[%t, %w] : memref<64x4xi64>
      memref.store %x, %s[%w] : memref<4xi64>
    }
    %i = arith.andi %t, %c3 : index
    %v = memref.load %s[%i] : memref<4xi64>
    memref.store %v, %out[%t] : memref<64xi64>
  }
  %host = memref.alloca() : memref<4xi64>
  scf.for %w = %c0 to %c4 step %c1 {
    %x = memref.load %a[%c0, %w] : memref<64x4xi64>
    memref.store %x, %host[%w] : memref<4xi64>
  }
  %h = memref.load %host[%c1] : memref<4xi64>
  memref.store %h, %out[%c0] : memref<64xi64>
  return
}

// -----

// Left alone: a loop around a loop that stays rolled (an iCRT's column groups
// around their loop over the primes); its unrolled copies would exhaust the
// registers. A thread's fixed-size arrays move to the start of its body,
// where LLVM's SROA can promote them (the one below was after a loop).
// CHECK-LABEL: func.func @rolled_inner
// CHECK: scf.parallel
// CHECK-NEXT: memref.alloca() : memref<4xi64>
// CHECK: scf.for {{.*}} to %c100
// CHECK: scf.for {{.*}} to %c4
// CHECK: scf.for {{.*}} to %c100
// CHECK: scf.reduce
func.func @rolled_inner(%a: memref<64x100xi64>, %out: memref<64xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %z = arith.constant 0 : i64
  scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
    %first = scf.for %j = %c0 to %c100 step %c1 iter_args(%acc = %z) -> (i64) {
      %x = memref.load %a[%t, %j] : memref<64x100xi64>
      %y = arith.xori %acc, %x : i64
      scf.yield %y : i64
    }
    %s = memref.alloca() : memref<4xi64>
    scf.for %w = %c0 to %c4 step %c1 {
      %sum = scf.for %j = %c0 to %c100 step %c1 iter_args(%acc = %first) -> (i64) {
        %x = memref.load %a[%t, %j] : memref<64x100xi64>
        %y = arith.addi %acc, %x : i64
        scf.yield %y : i64
      }
      memref.store %sum, %s[%w] : memref<4xi64>
    }
    %v = memref.load %s[%c3] : memref<4xi64>
    memref.store %v, %out[%t] : memref<64xi64>
  }
  return
}
