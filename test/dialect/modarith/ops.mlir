// RUN: fhec-opt %s | fhec-opt | FileCheck %s
// Round trip of the modarith ops on scalars and vectors, with their ranges.

// CHECK-LABEL: func.func @scalar
func.func @scalar(%x: i64, %y: i64, %w: i64, %ws: i64, %p: i64, %mu: i64, %b: i64) -> (i64, i64, i64) {
  // CHECK: modarith.add %{{.*}}, %{{.*}} mod %{{.*}} {in = 2 : i64, out = 4 : i64} : i64
  %0 = modarith.add %x, %y mod %p {in = 2, out = 4} : i64
  // CHECK: modarith.sub %{{.*}}, %{{.*}} mod %{{.*}} : i64
  %1 = modarith.sub %x, %y mod %p : i64
  // CHECK: modarith.reduce %{{.*}} mod %{{.*}} {in = 4 : i64} : i64
  %2 = modarith.reduce %0 mod %p {in = 4, out = 1} : i64
  // CHECK: modarith.mul_shoup %{{.*}}, %{{.*}}, %{{.*}} mod %{{.*}} {out = 2 : i64} : i64
  %3 = modarith.mul_shoup %2, %w, %ws mod %p {out = 2} : i64
  // CHECK: modarith.mul_barrett %{{.*}}, %{{.*}} mod %{{.*}}, %{{.*}}, %{{.*}} : i64
  %4 = modarith.mul_barrett %1, %3 mod %p, %mu, %b : i64
  // CHECK: modarith.mac %{{.*}}, %{{.*}} into %{{.*}}, %{{.*}}, %{{.*}} : i64
  %5:3 = modarith.mac %x, %y into %4, %2, %1 : i64
  return %5#0, %5#1, %5#2 : i64, i64, i64
}

// CHECK-LABEL: func.func @vector
func.func @vector(%x: vector<8xi64>, %w: vector<8xi64>, %ws: vector<8xi64>, %p: vector<8xi64>) -> vector<8xi64> {
  // CHECK: modarith.mul_shoup {{.*}} : vector<8xi64>
  %0 = modarith.mul_shoup %x, %w, %ws mod %p {out = 2} : vector<8xi64>
  %1 = modarith.add %0, %x mod %p {in = 2, out = 2} : vector<8xi64>
  return %1 : vector<8xi64>
}
