// RUN: fhec-opt --modarith-to-avx512 %s | FileCheck %s
// IFMA lowering of the cpu-avx512 arithmetic: 8 x 52-bit products per
// vpmadd52luq/huq (llvm.call_intrinsic), base-2^52 Shoup and Barrett
// constants; scalars of the same module use 64-bit multiplies in the same base.

// Shoup: q = hi52(x w'); r = lo52(x w + q (2^52 - p)), the second product
// accumulating onto the first; r in [0, 2p).
// CHECK-LABEL: func.func @shoup_vector
// CHECK: %[[Q:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpmadd52h.uq.512"(%{{.*}}, %arg0, %arg2)
// CHECK: %[[XW:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpmadd52l.uq.512"(%{{.*}}, %arg0, %arg1)
// CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpmadd52l.uq.512"(%[[XW]], %[[Q]], %{{.*}})
// CHECK: arith.andi %[[R]]
// CHECK-NOT: arith.minui
func.func @shoup_vector(%x: vector<8xi64>, %w: vector<8xi64>, %ws: vector<8xi64>, %p: vector<8xi64>) -> vector<8xi64> {
  %0 = modarith.mul_shoup %x, %w, %ws mod %p {out = 2} : vector<8xi64>
  return %0 : vector<8xi64>
}

// A fully reduced result adds one correction.
// CHECK-LABEL: func.func @shoup_reduced
// CHECK-COUNT-3: llvm.call_intrinsic
// CHECK: arith.minui
func.func @shoup_reduced(%x: vector<8xi64>, %w: vector<8xi64>, %ws: vector<8xi64>, %p: vector<8xi64>) -> vector<8xi64> {
  %0 = modarith.mul_shoup %x, %w, %ws mod %p : vector<8xi64>
  return %0 : vector<8xi64>
}

// Barrett on the 104-bit product of two residues: its high and low 52-bit
// halves, the quotient estimate from their top bits, two corrections.
// CHECK-LABEL: func.func @barrett_vector
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpmadd52l.uq.512"(%{{.*}}, %arg0, %arg1)
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpmadd52h.uq.512"(%{{.*}}, %arg0, %arg1)
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpmadd52h.uq.512"
// CHECK-COUNT-2: arith.minui
// CHECK-NEXT: return
func.func @barrett_vector(%x: vector<8xi64>, %y: vector<8xi64>, %p: vector<8xi64>, %mu: vector<8xi64>, %b: vector<8xi64>) -> vector<8xi64> {
  %0 = modarith.mul_barrett %x, %y mod %p, %mu, %b : vector<8xi64>
  return %0 : vector<8xi64>
}

// A lazy product in [0, 2p) (the iNTT's input): one correction.
// CHECK-LABEL: func.func @barrett_vector_lazy
// CHECK: arith.minui
// CHECK-NEXT: return
func.func @barrett_vector_lazy(%x: vector<8xi64>, %y: vector<8xi64>, %p: vector<8xi64>, %mu: vector<8xi64>, %b: vector<8xi64>) -> vector<8xi64> {
  %0 = modarith.mul_barrett %x, %y mod %p, %mu, %b {out = 2} : vector<8xi64>
  return %0 : vector<8xi64>
}

// A digit product split at 52 bits accumulates lazily: two IFMA, no carries.
// CHECK-LABEL: func.func @mac_split_vector
// CHECK: %[[LO:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpmadd52l.uq.512"(%arg0, %arg2, %arg3)
// CHECK: %[[HI:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpmadd52h.uq.512"(%arg1, %arg2, %arg3)
// CHECK: return %[[LO]], %[[HI]]
func.func @mac_split_vector(%lo: vector<8xi64>, %hi: vector<8xi64>, %x: vector<8xi64>, %y: vector<8xi64>) -> (vector<8xi64>, vector<8xi64>) {
  %0:2 = modarith.mac_split %x, %y into %lo, %hi {digit = 52} : vector<8xi64>
  return %0#0, %0#1 : vector<8xi64>, vector<8xi64>
}

// Scalars: the same base 2^52 with 64 x 64 -> 128-bit multiplies.
// CHECK-LABEL: func.func @shoup_scalar
// CHECK-NOT: llvm.call_intrinsic
// CHECK: arith.mului_extended %arg0, %arg2
func.func @shoup_scalar(%x: i64, %w: i64, %ws: i64, %p: i64) -> i64 {
  %0 = modarith.mul_shoup %x, %w, %ws mod %p : i64
  return %0 : i64
}

// add/sub/reduce are the portable ones, on vectors.
// CHECK-LABEL: func.func @add_vector
// CHECK: arith.addi {{.*}} : vector<8xi64>
// CHECK: arith.minui {{.*}} : vector<8xi64>
func.func @add_vector(%x: vector<8xi64>, %y: vector<8xi64>, %p: vector<8xi64>) -> vector<8xi64> {
  %0 = modarith.add %x, %y mod %p : vector<8xi64>
  return %0 : vector<8xi64>
}
