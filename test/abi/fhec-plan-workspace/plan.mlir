// RUN: fhec-opt --fhec-plan-workspace %s | FileCheck %s
// Kernel buffers become views of one workspace; a buffer whose last use is
// past reuses dead space; a returned buffer stays for fhec-abi.

// %a (64 B) dies at the op defining %c, %b (128 B) lives to the end, %c (64 B)
// starts after %a's last use and takes its bytes; largest first: %b at 0.
// CHECK-LABEL: func.func @reuse(
// CHECK-SAME: %[[IN:.*]]: memref<8xi64>, %[[WS:.*]]: memref<192xi8> {fhe.workspace})
// CHECK-SAME: fhe.workspace_bytes = 192 : i64
// CHECK: %[[A:.*]] = memref.view %[[WS]][%c128{{.*}}][] : memref<192xi8> to memref<8xi64>
// CHECK: %[[B:.*]] = memref.view %[[WS]][%c0{{.*}}][] : memref<192xi8> to memref<16xi64>
// CHECK: %[[C:.*]] = memref.view %[[WS]][%c128{{.*}}][] : memref<192xi8> to memref<8xi64>
// CHECK: %[[R:.*]] = memref.alloc() : memref<8xi64>
// CHECK-NOT: memref.alloc
// CHECK: return %[[R]]
func.func @reuse(%in: memref<8xi64>) -> memref<8xi64> {
  %i = arith.constant 0 : index
  %a = memref.alloc() : memref<8xi64>
  memref.copy %in, %a : memref<8xi64> to memref<8xi64>
  %b = memref.alloc() : memref<16xi64>
  %v = memref.load %a[%i] : memref<8xi64>
  memref.store %v, %b[%i] : memref<16xi64>
  %c = memref.alloc() : memref<8xi64>
  %w = memref.load %b[%i] : memref<16xi64>
  memref.store %w, %c[%i] : memref<8xi64>
  %r = memref.alloc() : memref<8xi64>
  memref.copy %c, %r : memref<8xi64> to memref<8xi64>
  %x = memref.load %b[%i] : memref<16xi64>
  memref.store %x, %r[%i] : memref<8xi64>
  return %r : memref<8xi64>
}

// A use through a view (basis_prefix's reinterpret_cast) keeps the buffer
// alive: %a and %b overlap, so they get disjoint bytes.
// CHECK-LABEL: func.func @view_use(
// CHECK-SAME: memref<128xi8> {fhe.workspace}
// CHECK: memref.view %{{.*}}[%c0{{.*}}][] : memref<128xi8> to memref<2x4xi64>
// CHECK: memref.view %{{.*}}[%c64{{.*}}][] : memref<128xi8> to memref<8xi64>
func.func @view_use(%out: memref<4xi64>) {
  %i = arith.constant 0 : index
  %a = memref.alloc() : memref<2x4xi64>
  %p = memref.reinterpret_cast %a to offset: [0], sizes: [4], strides: [1] : memref<2x4xi64> to memref<4xi64>
  %b = memref.alloc() : memref<8xi64>
  %v = memref.load %p[%i] : memref<4xi64>
  memref.store %v, %b[%i] : memref<8xi64>
  memref.copy %p, %out : memref<4xi64> to memref<4xi64>
  return
}

// Nothing to place: no workspace argument.
// CHECK-LABEL: func.func @none(%{{.*}}: memref<4xi64>)
// CHECK-NOT: fhe.workspace
func.func @none(%x: memref<4xi64>) -> memref<4xi64> {
  return %x : memref<4xi64>
}
