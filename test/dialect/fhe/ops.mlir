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
  return %6 : !fhe.poly<logN = 4, logq = 20>
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
