// RUN: fhec-opt %s | fhec-opt | FileCheck %s
// Round trip of every fhe op, resolved and unresolved bases, both layouts.

#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
#u = #fhe.basis<min_bits = 45>
!p = !fhe.poly<logN = 4, logq = 30>
!c = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>
!t = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = coeff_major>

// CHECK: #[[B:.*]] = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
// CHECK-LABEL: func.func @kernels
func.func @kernels(%x: !p, %y: !p) -> !p {
  // CHECK: fhe.crt %{{.*}} : <logN = 4, logq = 30> -> <logN = 4, basis = #[[B]], domain = coeff, layout = prime_major>
  %0 = fhe.crt %x : !p -> !c
  // CHECK: fhe.ntt {{.*}} domain = eval
  %1 = fhe.ntt %0 : !c -> !e
  %2 = fhe.crt %y : !p -> !c
  %3 = fhe.ntt %2 : !c -> !e
  // CHECK: fhe.hadamard
  %4 = fhe.hadamard %1, %3 : !e
  // CHECK: fhe.add
  %5 = fhe.add %4, %1 : !e
  // CHECK: fhe.sub
  %6 = fhe.sub %5, %3 : !e
  // CHECK: fhe.intt {{.*}} domain = coeff
  %7 = fhe.intt %6 : !e -> !c
  // CHECK: fhe.transpose {{.*}} layout = coeff_major>
  %8 = fhe.transpose %7 : !c -> !t
  %9 = fhe.transpose %8 : !t -> !c
  // CHECK: fhe.icrt %{{.*}} -> <logN = 4, logq = 30>
  %10 = fhe.icrt %9 : !c -> !p
  return %10 : !p
}

// The client side's forms: a centered CRT of a small signed polynomial, a
// rounded and shifted iCRT with an addend.
// CHECK-LABEL: func.func @client
func.func @client(%v: !fhe.poly<logN = 4, logq = 2>, %e: !fhe.poly<logN = 4, logq = 30>) -> !fhe.poly<logN = 4, logq = 20> {
  // CHECK: fhe.crt %{{.*}} {centered} : <logN = 4, logq = 2>
  %0 = fhe.crt %v {centered} : !fhe.poly<logN = 4, logq = 2> -> !c
  // CHECK: fhe.icrt %{{.*}} plus %{{.*}} {round, shift = 20 : i64} : {{.*}}, !fhe.poly<logN = 4, logq = 30> -> <logN = 4, logq = 20>
  %1 = fhe.icrt %0 plus %e {shift = 20, round} : !c, !fhe.poly<logN = 4, logq = 30> -> !fhe.poly<logN = 4, logq = 20>
  return %1 : !fhe.poly<logN = 4, logq = 20>
}

// CHECK-LABEL: func.func @bigint
func.func @bigint(%x: !p, %y: !p) -> !fhe.poly<logN = 4, logq = 20> {
  // CHECK: fhe.poly_add
  %0 = fhe.poly_add %x, %y : !p
  // CHECK: fhe.poly_sub
  %1 = fhe.poly_sub %0, %y : !p
  // CHECK: fhe.poly_negate
  %2 = fhe.poly_negate %1 : !p
  // CHECK: fhe.poly_mul_scalar %{{.*}} {value = -3 : i64}
  %3 = fhe.poly_mul_scalar %2 {value = -3 : i64} : !p
  // CHECK: fhe.poly_add_constant_term %{{.*}} {value = 12345678901234567890123 : i128}
  %4 = fhe.poly_add_constant_term %3 {value = 12345678901234567890123 : i128} : !p
  // CHECK: fhe.poly_shr %{{.*}} {shift = 5 : i64} : <logN = 4, logq = 30> -> <logN = 4, logq = 25>
  %5 = fhe.poly_shr %4 {shift = 5 : i64} : !p -> !fhe.poly<logN = 4, logq = 25>
  // CHECK: fhe.poly_reduce %{{.*}} -> <logN = 4, logq = 20>
  %6 = fhe.poly_reduce %5 : !fhe.poly<logN = 4, logq = 25> -> !fhe.poly<logN = 4, logq = 20>
  // CHECK: fhe.poly_mod_raise %{{.*}} : <logN = 4, logq = 20> -> <logN = 4, logq = 130>
  %7 = fhe.poly_mod_raise %6 : !fhe.poly<logN = 4, logq = 20> -> !fhe.poly<logN = 4, logq = 130>
  // CHECK: fhe.poly_add_scalar %{{.*}} {value = 9223372036854775808 : i65} : <logN = 4, logq = 130>
  %s = fhe.poly_add_scalar %7 {value = 9223372036854775808 : i65} : !fhe.poly<logN = 4, logq = 130>
  %8 = fhe.poly_reduce %s : !fhe.poly<logN = 4, logq = 130> -> !fhe.poly<logN = 4, logq = 20>
  return %8 : !fhe.poly<logN = 4, logq = 20>
}

// CHECK-LABEL: func.func @automorphisms
func.func @automorphisms(%x: !p, %r: !c) -> (!p, !c, !p) {
  // CHECK: fhe.poly_automorphism %{{.*}} {galois = 5 : i64} : <logN = 4, logq = 30>
  %a = fhe.poly_automorphism %x {galois = 5 : i64} : !p
  // CHECK: fhe.poly_mul_monomial %{{.*}} {k = 8 : i64} : <logN = 4, logq = 30>
  %0 = fhe.poly_mul_monomial %a {k = 8 : i64} : !p
  // CHECK: fhe.automorphism %{{.*}} {galois = 31 : i64} : <logN = 4, basis = #[[B]], domain = coeff, layout = prime_major>
  %1 = fhe.automorphism %r {galois = 31 : i64} : !c
  // CHECK: fhe.poly_constant {value = dense<[1, -2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 340282366920938463463374607431768211455]> : tensor<16xi129>} : <logN = 4, logq = 30>
  %2 = fhe.poly_constant {value = dense<[1, -2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 340282366920938463463374607431768211455]> : tensor<16xi129>} : !p
  return %0, %1, %2 : !p, !c, !p
}

// CHECK-LABEL: func.func @unresolved
// CHECK-SAME: basis = <min_bits = 45>
func.func @unresolved(%x: !fhe.poly<logN = 4, logq = 10>) -> !fhe.rns<logN = 4, basis = #u, domain = coeff, layout = prime_major> {
  %0 = fhe.crt %x : !fhe.poly<logN = 4, logq = 10> -> !fhe.rns<logN = 4, basis = #u, domain = coeff, layout = prime_major>
  return %0 : !fhe.rns<logN = 4, basis = #u, domain = coeff, layout = prime_major>
}

// CHECK-LABEL: func.func @prefix
// CHECK: fhe.basis_prefix
func.func @prefix(%x: !e) -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30, prime_bits = 20, primes = [1048193, 1048129]>, domain = eval, layout = prime_major> {
  %0 = fhe.basis_prefix %x : !e -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30, prime_bits = 20, primes = [1048193, 1048129]>, domain = eval, layout = prime_major>
  return %0 : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30, prime_bits = 20, primes = [1048193, 1048129]>, domain = eval, layout = prime_major>
}

// Decisions of the optimization passes round-trip: NTT levels, CRT/iCRT loop
// order and block, the iCRT-scaled domain, incomplete NTTs, fused kernels.
!s = !fhe.rns<logN = 4, basis = #b, domain = coeff_scaled, layout = prime_major>
!i = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major, incomplete = 1>
// CHECK-LABEL: func.func @decisions
func.func @decisions(%x: !p, %y: !p) -> (!p, !p) {
  // CHECK: fhe.crt %{{.*}} {block = 16 : i64, order = #fhe<order matrix>}
  %0 = fhe.crt %x {order = #fhe<order matrix>, block = 16} : !p -> !c
  // CHECK: fhe.ntt %{{.*}} {levels = array<i64: 2, 1>} : {{.*}} -> <{{.*}}domain = eval, layout = prime_major, incomplete = 1>
  %1 = fhe.ntt %0 {levels = array<i64: 2, 1>} : !c -> !i
  %2 = fhe.crt %y : !p -> !c
  %3 = fhe.ntt %2 {levels = array<i64: 3>} : !c -> !i
  // CHECK: fhe.fused {{ *}}residue(%{{.*}}, %{{.*}}) : ({{.*}}) -> ({{.*}}) {
  // CHECK-NEXT: ^bb0(%[[X:.*]]: {{.*}}, %[[Y:.*]]: {{.*}}):
  // CHECK-NEXT: %[[H:.*]] = fhe.hadamard %[[X]], %[[Y]]
  // CHECK-NEXT: %[[S:.*]] = fhe.add %[[H]], %[[X]]
  // CHECK-NEXT: fhe.yield %[[H]], %[[S]]
  %4:2 = fhe.fused residue (%1, %3) : (!i, !i) -> (!i, !i) {
  ^bb0(%a: !i, %b: !i):
    %h = fhe.hadamard %a, %b : !i
    %s = fhe.add %h, %a : !i
    fhe.yield %h, %s : !i, !i
  }
  // CHECK: fhe.intt %{{.*}} : {{.*}} -> <{{.*}}domain = coeff_scaled
  %5 = fhe.intt %4#0 : !i -> !s
  %6 = fhe.intt %4#1 {levels = array<i64: 1, 1, 1>} : !i -> !s
  // CHECK: fhe.fused {{ *}}coefficient
  // CHECK: fhe.icrt %{{.*}} {block = 8 : i64, order = #fhe<order matrix>}
  %7:2 = fhe.fused coefficient (%5, %6) : (!s, !s) -> (!p, !p) {
  ^bb0(%u: !s, %v: !s):
    %r = fhe.icrt %u {order = #fhe<order matrix>, block = 8} : !s -> !p
    %t = fhe.icrt %v : !s -> !p
    %d = fhe.poly_sub %r, %t : !p
    fhe.yield %r, %d : !p, !p
  }
  return %7#0, %7#1 : !p, !p
}

// CHECK-LABEL: func.func @table
// CHECK: fhe.table "ntt_twiddles" #[[B]] param 0 : memref<3x16xi64>
func.func @table() -> memref<3x16xi64> {
  %t = fhe.table "ntt_twiddles" #b param 0 : memref<3x16xi64>
  return %t : memref<3x16xi64>
}

// Bit-windows of a wide polynomial and the iCRT that sums their products.
// CHECK-LABEL: func.func @windows
// CHECK: fhe.crt %{{.*}} {window = array<i64: 0, 16>}
// CHECK: fhe.crt %{{.*}} {window = array<i64: 16, 14>}
// CHECK: fhe.icrt_sum %{{.*}}, %{{.*}} plus %{{.*}} {offsets = array<i64: 0, 16>} : !fhe.rns<{{.*}}>, !fhe.rns<{{.*}}> plus !fhe.poly<logN = 4, logq = 30> -> <logN = 4, logq = 30>
// CHECK: fhe.icrt_sum %{{.*}} {offsets = array<i64: 3>} : !fhe.rns<{{.*}}> -> <logN = 4, logq = 30>
func.func @windows(%x: !p, %b: !p) -> (!p, !p) {
  %0 = fhe.crt %x {window = array<i64: 0, 16>} : !p -> !c
  %1 = fhe.crt %x {window = array<i64: 16, 14>} : !p -> !c
  %2 = fhe.icrt_sum %0, %1 plus %b {offsets = array<i64: 0, 16>} : !c, !c plus !p -> !p
  %3 = fhe.icrt_sum %0 {offsets = array<i64: 3>} : !c -> !p
  return %2, %3 : !p, !p
}
