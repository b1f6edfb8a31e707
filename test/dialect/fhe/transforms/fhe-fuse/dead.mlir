// RUN: fhec-opt --fhe-fuse %s | FileCheck %s
// Ops whose results nothing reads are erased before grouping: a group of
// them would be a fused kernel without results (found by fhec-fuzz-mlir).

#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
!p = !fhe.poly<logN = 4, logq = 30>
!c = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>

// CHECK-LABEL: func.func @dead
// CHECK-NOT: fhe.fused
// CHECK-NOT: fhe.hadamard
// CHECK: return %arg0
func.func @dead(%x: !e, %y: !e, %p: !p) -> !e {
  %0 = fhe.hadamard %x, %y : !e
  %1 = fhe.add %0, %x : !e
  %2 = fhe.poly_add %p, %p : !p
  %3 = fhe.poly_negate %2 : !p
  return %x : !e
}

// Live ops still fuse.
// CHECK-LABEL: func.func @live
// CHECK: fhe.fused residue
// CHECK-NOT: fhe.poly_negate
func.func @live(%x: !e, %y: !e, %p: !p) -> !e {
  %0 = fhe.hadamard %x, %y : !e
  %1 = fhe.add %0, %x : !e
  %2 = fhe.poly_negate %p : !p
  return %1 : !e
}
