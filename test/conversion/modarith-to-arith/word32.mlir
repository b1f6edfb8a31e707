// RUN: fhec-opt --modarith-to-arith="word-bits=32" %s | FileCheck %s
// RUN: not fhec-opt --modarith-to-arith="word-bits=48" %s 2>&1 | FileCheck %s --check-prefix=BAD
// The cuda target's residue words: i64 values (< 2^32) are computed on i32,
// Shoup with base 2^32 (the high word of a 32 x 32-bit product: mul.hi.u32);
// the BigInt accumulations keep 64-bit words.

// CHECK-LABEL: func.func @shoup
// CHECK-DAG: %[[X:.*]] = arith.trunci %arg0 : i64 to i32
// CHECK-DAG: %[[W:.*]] = arith.trunci %arg1 : i64 to i32
// CHECK-DAG: %[[WS:.*]] = arith.trunci %arg2 : i64 to i32
// CHECK-DAG: %[[P:.*]] = arith.trunci %arg3 : i64 to i32
// CHECK: %{{.*}}, %[[Q:.*]] = arith.mului_extended %[[X]], %[[WS]] : i32
// CHECK-DAG: %[[QP:.*]] = arith.muli %[[Q]], %[[P]] : i32
// CHECK-DAG: %[[XW:.*]] = arith.muli %[[X]], %[[W]] : i32
// CHECK: %[[R:.*]] = arith.subi %[[XW]], %[[QP]] : i32
// CHECK: %[[E:.*]] = arith.extui %[[R]] : i32 to i64
// CHECK: return %[[E]]
func.func @shoup(%x: i64, %w: i64, %ws: i64, %p: i64) -> i64 {
  %0 = modarith.mul_shoup %x, %w, %ws mod %p {out = 2} : i64
  return %0 : i64
}

// CHECK-LABEL: func.func @add
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: arith.minui %{{.*}}, %{{.*}} : i32
// CHECK: arith.extui %{{.*}} : i32 to i64
func.func @add(%x: i64, %y: i64, %p: i64) -> i64 {
  %0 = modarith.add %x, %y mod %p : i64
  return %0 : i64
}

// CHECK-LABEL: func.func @barrett
// CHECK: arith.mului_extended %{{.*}}, %{{.*}} : i32
// CHECK: arith.extui %{{.*}} : i32 to i64
func.func @barrett(%x: i64, %y: i64, %p: i64, %mu: i64, %bits: i64) -> i64 {
  %0 = modarith.mul_barrett %x, %y mod %p, %mu, %bits : i64
  return %0 : i64
}

// The digit multiply-accumulate of the CRT/iCRT stays on 64-bit words. With
// 32-bit digits (x, y < 2^32) the product fits one word: one multiply of the
// zero-extended low halves (PTX mul.wide.u32), no double-word product.
// CHECK-LABEL: func.func @mac_split
// CHECK: %[[X:.*]] = arith.trunci %arg0 : i64 to i32
// CHECK: %[[XW:.*]] = arith.extui %[[X]] : i32 to i64
// CHECK: %[[Y:.*]] = arith.trunci %arg1 : i64 to i32
// CHECK: %[[YW:.*]] = arith.extui %[[Y]] : i32 to i64
// CHECK: %[[P:.*]] = arith.muli %[[XW]], %[[YW]] : i64
// CHECK: %[[L:.*]] = arith.andi %[[P]], %{{.*}} : i64
// CHECK: arith.addi %arg2, %[[L]] : i64
// CHECK: %[[H:.*]] = arith.shrui %[[P]], %{{.*}} : i64
// CHECK: arith.addi %arg3, %[[H]] : i64
// CHECK-NOT: mului_extended
func.func @mac_split(%x: i64, %y: i64, %lo: i64, %hi: i64) -> (i64, i64) {
  %0:2 = modarith.mac_split %x, %y into %lo, %hi {digit = 32} : i64
  return %0#0, %0#1 : i64, i64
}

// Wider digits: the double-word product, split at D bits.
// CHECK-LABEL: func.func @mac_split_wide
// CHECK: arith.mului_extended %arg0, %arg1 : i64
// CHECK-NOT: trunci
func.func @mac_split_wide(%x: i64, %y: i64, %lo: i64, %hi: i64) -> (i64, i64) {
  %0:2 = modarith.mac_split %x, %y into %lo, %hi {digit = 40} : i64
  return %0#0, %0#1 : i64, i64
}

// BAD: modarith-to-arith: word-bits must be 64 or 32, not 48
