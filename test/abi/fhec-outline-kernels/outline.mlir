// RUN: fhec-opt %s --fhe-select-basis="prime-bits=20" --fhe-to-loops --canonicalize --cse --fhec-outline-kernels | FileCheck %s
// Kernels are outlined into private functions; NTTs over 3 and 4 primes (two
// levels) share one kernel generic in the basis size, automorphisms by
// different Galois elements share one kernel taking g^-1, and so do the
// evaluation-domain row gathers over 3 and 4 primes (their N-word buffer of
// slot sources is not per prime).

!p = !fhe.poly<logN = 4, logq = 30>
!c2 = !fhe.rns<logN = 4, basis = <min_bits = 40>, domain = coeff, layout = prime_major>
!e2 = !fhe.rns<logN = 4, basis = <min_bits = 40>, domain = eval, layout = prime_major>
!c3 = !fhe.rns<logN = 4, basis = <min_bits = 60>, domain = coeff, layout = prime_major>
!e3 = !fhe.rns<logN = 4, basis = <min_bits = 60>, domain = eval, layout = prime_major>

// The transform's levels are sub-kernels, called from its loop over primes.
// CHECK: func.func private @[[LEVEL:f_kernel_kernel]](
// CHECK: func.func private @[[NTT:f_kernel]](%{{.*}}: memref<4x16xi64>, {{.*}}: memref<4x16xi64, strided<[40, 1]>>, %{{.*}}: index) attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK: scf.parallel
// CHECK: func.call @[[LEVEL]](
// CHECK: func.func private @[[AUT:f_kernel_[0-9]+]](%{{.*}}: index, %{{.*}}: memref<16x1xi64>, %{{.*}}: memref<16x1xi64>)
// CHECK: func.func private @[[SRC:f_kernel_[0-9]+]](%{{.*}}: i64, %{{.*}}: memref<16xi64>)
// CHECK: func.func private @[[GATHER:f_kernel_[0-9]+]](%{{.*}}: index, %{{.*}}: memref<4x16xi64, strided<[40, 1]>>, %{{.*}}: memref<16xi64>, %{{.*}}: memref<4x16xi64, strided<[40, 1]>>)
// CHECK-NOT: func.func private @f_kernel_
// CHECK-LABEL: func.func @f(
// The 3-prime buffers are seen as 4 rows (only 3 are touched).
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [4, 16], strides: [40, 1] : memref<3x16xi64, strided<[40, 1]>> to memref<4x16xi64, strided<[40, 1]>>
// CHECK: call @[[NTT]]({{.*}}, %c3)
// CHECK: call @[[NTT]]({{.*}}, %arg1, {{.*}}, %c4{{.*}})
// 5^-1 = 13 and 25^-1 = 9 mod 32.
// CHECK: call @[[AUT]](%c13, %arg2,
// CHECK: call @[[AUT]](%c9, %arg2,
// CHECK: call @[[SRC]](
// CHECK: call @[[GATHER]](%c3,
// CHECK: call @[[SRC]](
// CHECK: call @[[GATHER]](%c4
// CHECK-NOT: fhe.prime_count
// CHECK-NOT: fhe.kernel_param
module {
  func.func @f(%a: !c2 {fhe.role = "a"}, %b: !c3 {fhe.role = "b"}, %x: !p {fhe.role = "x"}) -> (!e2, !e3, !p, !p, !e2, !e3) {
    %0 = fhe.ntt %a : !c2 -> !e2
    %1 = fhe.ntt %b : !c3 -> !e3
    %2 = fhe.poly_automorphism %x {galois = 5 : i64} : !p
    %3 = fhe.poly_automorphism %x {galois = 25 : i64} : !p
    %4 = fhe.automorphism %0 {galois = 5 : i64} : !e2
    %5 = fhe.automorphism %1 {galois = 25 : i64} : !e3
    return %0, %1, %2, %3, %4, %5 : !e2, !e3, !p, !p, !e2, !e3
  }
}
