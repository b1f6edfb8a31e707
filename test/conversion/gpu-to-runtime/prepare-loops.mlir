// RUN: fhec-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fhec-copy-to-parallel-loops,fhec-serial-code-to-parallel,fhec-normalize-parallel-loops))' | FileCheck %s
// RUN: not fhec-opt %s --split-input-file --pass-pipeline='builtin.module(fhec-gpu-kernel-module)' 2>&1 | FileCheck %s --check-prefix=HOST
// The GPU targets' preparation of host code: copies and serial code become
// parallel loops (later one-thread kernels), and parallel loops get unit steps
// (scf-parallel-loop-tiling's bounds guard assumes them).

// CHECK-LABEL: func.func @copy
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1)
// CHECK:   %[[V:.*]] = memref.load %arg0[%[[I]], %[[J]]]
// CHECK:   memref.store %[[V]], %arg1[%[[I]], %[[J]]]
// CHECK-NOT: memref.copy
func.func @copy(%a: memref<4x8xi64>, %b: memref<4x8xi64>) {
  // HOST: :[[@LINE+1]]:3: error: fhec-gpu-kernel-module: host code of a GPU target accesses memory outside a kernel ('memref.copy'); every memory access must be inside a parallel loop mapped to the GPU
  memref.copy %a, %b : memref<4x8xi64> to memref<4x8xi64>
  return
}

// -----

// CHECK-LABEL: func.func @serial
// CHECK: call @timer
// CHECK: scf.parallel (%{{.*}}) = (%c0{{.*}}) to (%c1{{.*}}) step (%c1{{.*}})
// CHECK-NEXT:   memref.alloca
// CHECK:        memref.store
// CHECK:        memref.load
// CHECK:   scf.reduce
// CHECK: call @timer
func.func private @timer()
func.func @serial(%a: memref<4xi64>) {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : i64
  call @timer() : () -> ()
  %t = memref.alloca() : memref<1xi64>
  memref.store %c7, %t[%c0] : memref<1xi64>
  %v = memref.load %t[%c0] : memref<1xi64>
  memref.store %v, %a[%c0] : memref<4xi64>
  call @timer() : () -> ()
  return
}

// -----

// iv in [0, 1024) step 64 becomes 64 * j for j in [0, 16).
// CHECK: #[[MAP:.*]] = affine_map<(d0) -> (d0 * 64)>
// CHECK-LABEL: func.func @steps
// CHECK: scf.parallel (%[[J:.*]]) = (%c0{{.*}}) to (%c16{{.*}}) step (%c1{{.*}})
// CHECK:   %[[IV:.*]] = affine.apply #{{.*}}(%[[J]])
// CHECK:   memref.store %{{.*}}, %arg0[%[[IV]]]
func.func @steps(%a: memref<1024xi64>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %z = arith.constant 0 : i64
  scf.parallel (%i) = (%c0) to (%c1024) step (%c64) {
    memref.store %z, %a[%i] : memref<1024xi64>
  }
  return
}
