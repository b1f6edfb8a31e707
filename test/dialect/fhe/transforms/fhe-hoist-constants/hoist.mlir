// RUN: fhec-opt --fhe-hoist-constants %s | FileCheck %s
// What a function computes from its constants alone moves into
// __fhec_constants_prepare, which returns each value the function reads (role
// const<k>); the function takes it as an argument of that role.

#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
!p = !fhe.poly<logN = 4, logq = 40>
!k = !fhe.poly<logN = 4, logq = 64>
!c = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>

// A diagonal's centered CRT and NTT leave the function; x's stay. The
// constant that a poly op also reads stays as well (its words are the
// module's), its CRT and NTT go.
// CHECK-LABEL: func.func @diagonals(
// CHECK-SAME: %[[X:[a-z0-9]+]]: !fhe.poly<logN = 4, logq = 40>
// CHECK-SAME: %[[D0:[a-z0-9]+]]: !fhe.rns<{{.*}}domain = eval{{.*}}> {fhe.role = "const0"}
// CHECK-SAME: %[[D1:[a-z0-9]+]]: !fhe.rns<{{.*}}domain = eval{{.*}}> {fhe.role = "const1"}
// CHECK-NEXT: %[[K:.*]] = fhe.poly_constant {value = dense<[3, -1
// CHECK-NEXT: %[[C:.*]] = fhe.crt %[[X]] :
// CHECK-NEXT: %[[E:.*]] = fhe.ntt %[[C]]
// CHECK-NEXT: %[[H0:.*]] = fhe.hadamard %[[E]], %[[D0]]
// CHECK-NEXT: %[[H1:.*]] = fhe.hadamard %[[E]], %[[D1]]
// CHECK-NEXT: %[[S:.*]] = fhe.add %[[H0]], %[[H1]]
// CHECK-NOT: fhe.ntt
// CHECK: return
func.func @diagonals(%x: !p) -> (!e, !k) {
  %k0 = fhe.poly_constant {value = dense<[1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -5]> : tensor<16xi64>} : !k
  %k1 = fhe.poly_constant {value = dense<[3, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7]> : tensor<16xi64>} : !k
  %c = fhe.crt %x : !p -> !c
  %e = fhe.ntt %c : !c -> !e
  %c0 = fhe.crt %k0 {centered} : !k -> !c
  %e0 = fhe.ntt %c0 : !c -> !e
  %c1 = fhe.crt %k1 {centered} : !k -> !c
  %e1 = fhe.ntt %c1 : !c -> !e
  %h0 = fhe.hadamard %e, %e0 : !e
  %h1 = fhe.hadamard %e, %e1 : !e
  %s = fhe.add %h0, %h1 : !e
  %n = fhe.poly_negate %k1 : !k
  return %s, %n : !e, !k
}

// A value a second function reads as well is kept once: its argument has the
// first function's role (const0). The CRT that an
// iCRT also reads stays (and is computed in the preparation too): only RNS
// values are hoisted, and the iCRT's result is a polynomial.
// CHECK-LABEL: func.func @second(
// CHECK-SAME: {fhe.role = "const0"}
// CHECK: %[[C:.*]] = fhe.crt %{{.*}} {centered}
// CHECK-NOT: fhe.ntt
// CHECK: fhe.hadamard
// CHECK: fhe.icrt %[[C]]
// CHECK: fhe.poly_add
func.func @second(%x: !e, %y: !p) -> (!e, !p) {
  %k0 = fhe.poly_constant {value = dense<[1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -5]> : tensor<16xi64>} : !k
  %c0 = fhe.crt %k0 {centered} : !k -> !c
  %e0 = fhe.ntt %c0 : !c -> !e
  %h = fhe.hadamard %x, %e0 : !e
  %back = fhe.icrt %c0 : !c -> !p
  %sum = fhe.poly_add %back, %y : !p
  return %h, %sum : !e, !p
}

// Nothing constant: no change, no new arguments.
// CHECK-LABEL: func.func @none(
// CHECK-SAME: %{{[a-z0-9]+}}: !fhe.rns<{{.*}}>) -> !fhe.rns
func.func @none(%x: !e) -> !e {
  %h = fhe.hadamard %x, %x : !e
  return %h : !e
}

// The preparation: the two values, each from its own constant, computed once.
// CHECK-LABEL: func.func @__fhec_constants_prepare()
// CHECK-SAME: -> (!fhe.rns<{{.*}}> {fhe.role = "const0"}, !fhe.rns<{{.*}}> {fhe.role = "const1"})
// CHECK: %[[K0:.*]] = fhe.poly_constant {value = dense<[1, 2
// CHECK: %[[K1:.*]] = fhe.poly_constant {value = dense<[3, -1
// CHECK: %[[C0:.*]] = fhe.crt %[[K0]] {centered}
// CHECK: %[[E0:.*]] = fhe.ntt %[[C0]]
// CHECK: %[[C1:.*]] = fhe.crt %[[K1]] {centered}
// CHECK: %[[E1:.*]] = fhe.ntt %[[C1]]
// CHECK-NOT: fhe.poly_constant
// CHECK: return %[[E0]], %[[E1]] :
