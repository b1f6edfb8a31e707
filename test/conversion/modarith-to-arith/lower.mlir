// RUN: fhec-opt --modarith-to-arith %s | FileCheck %s
// The portable expansion: branch-free corrections as unsigned minima, Shoup's
// quotient from the high word of x * w', lazy ranges without corrections.

// CHECK-LABEL: func.func @add_reduced
// CHECK: %[[S:.*]] = arith.addi %arg0, %arg1
// CHECK: %[[D:.*]] = arith.subi %[[S]], %arg2
// CHECK: arith.minui %[[S]], %[[D]]
func.func @add_reduced(%x: i64, %y: i64, %p: i64) -> i64 {
  %0 = modarith.add %x, %y mod %p : i64
  return %0 : i64
}

// A lazy add keeps the plain sum.
// CHECK-LABEL: func.func @add_lazy
// CHECK-NEXT: %[[S:.*]] = arith.addi %arg0, %arg1
// CHECK-NEXT: return %[[S]]
func.func @add_lazy(%x: i64, %y: i64, %p: i64) -> i64 {
  %0 = modarith.add %x, %y mod %p {in = 2, out = 4} : i64
  return %0 : i64
}

// x - y + 2p for Harvey's lazy difference (inputs in [0, 2p)).
// CHECK-LABEL: func.func @sub_lazy
// CHECK: %[[C1:.*]] = arith.constant 1 : i64
// CHECK: %[[TWOP:.*]] = arith.shli %arg2, %[[C1]]
// CHECK: %[[D:.*]] = arith.subi %arg0, %arg1
// CHECK: %[[L:.*]] = arith.addi %[[D]], %[[TWOP]]
// CHECK: return %[[L]]
func.func @sub_lazy(%x: i64, %y: i64, %p: i64) -> i64 {
  %0 = modarith.sub %x, %y mod %p {in = 2, out = 4} : i64
  return %0 : i64
}

// [0, 4p) -> [0, p): subtract 2p, then p, each as a minimum.
// CHECK-LABEL: func.func @reduce4
// CHECK: arith.shli
// CHECK: arith.minui
// CHECK: arith.minui
// CHECK-NOT: arith.minui
func.func @reduce4(%x: i64, %p: i64) -> i64 {
  %0 = modarith.reduce %x mod %p {in = 4, out = 1} : i64
  return %0 : i64
}

// CHECK-LABEL: func.func @shoup
// CHECK: %{{.*}}, %[[QH:.*]] = arith.mului_extended %arg0, %arg2
// CHECK-DAG: %[[QP:.*]] = arith.muli %[[QH]], %arg3
// CHECK-DAG: %[[XW:.*]] = arith.muli %arg0, %arg1
// CHECK: %[[R:.*]] = arith.subi %[[XW]], %[[QP]]
// CHECK-NOT: arith.minui
// CHECK: return %[[R]]
func.func @shoup(%x: i64, %w: i64, %ws: i64, %p: i64) -> i64 {
  %0 = modarith.mul_shoup %x, %w, %ws mod %p {out = 2} : i64
  return %0 : i64
}

// CHECK-LABEL: func.func @barrett
// CHECK-COUNT-2: arith.mului_extended
// CHECK-COUNT-2: arith.minui
// CHECK-NEXT: return
func.func @barrett(%x: i64, %y: i64, %p: i64, %mu: i64, %b: i64) -> i64 {
  %0 = modarith.mul_barrett %x, %y mod %p, %mu, %b : i64
  return %0 : i64
}

// A lazy product in [0, 2p): one correction (of 2p) fewer.
// CHECK-LABEL: func.func @barrett_lazy
// CHECK-COUNT-2: arith.mului_extended
// CHECK: arith.minui
// CHECK-NOT: arith.minui
// CHECK: return
func.func @barrett_lazy(%x: i64, %y: i64, %p: i64, %mu: i64, %b: i64) -> i64 {
  %0 = modarith.mul_barrett %x, %y mod %p, %mu, %b {out = 2} : i64
  return %0 : i64
}

// CHECK-LABEL: func.func @mac
// CHECK: arith.mului_extended %arg3, %arg4
// CHECK: arith.addui_extended %arg0
// CHECK: arith.addui_extended %arg1
func.func @mac(%a0: i64, %a1: i64, %a2: i64, %x: i64, %y: i64) -> (i64, i64, i64) {
  %0:3 = modarith.mac %x, %y into %a0, %a1, %a2 : i64
  return %0#0, %0#1, %0#2 : i64, i64, i64
}

// Vectors lower elementwise, constants splat.
// CHECK-LABEL: func.func @vector
// CHECK: arith.constant dense<1> : vector<8xi64>
// CHECK: arith.minui {{.*}} : vector<8xi64>
func.func @vector(%x: vector<8xi64>, %p: vector<8xi64>) -> vector<8xi64> {
  %0 = modarith.reduce %x mod %p {in = 4, out = 2} : vector<8xi64>
  return %0 : vector<8xi64>
}
