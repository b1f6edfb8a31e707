// RUN: fhec-opt --ckks-to-fhe %s | FileCheck %s
// Hybrid key switching (dnum = 3: P = 2^100, keys mod 2^400 in three parts).
// The switched polynomial's balanced digits (an added scalar, a shift, a
// reduction, a centered CRT into the key basis), one NTT each, the products
// with the key's parts summed in the evaluation domain, one iNTT and iCRT
// mod 2^(logq + 100), the shift by 100. The key basis holds the sum of three
// 100 x 400-bit products at every level: 10 + 100 + 400 + 4 + 2 = 516 bits.

!ct = !ckks.ct<logN = 10, logq = 300, logp = 30, slots = 512>
!ct60 = !ckks.ct<logN = 10, logq = 300, logp = 60, slots = 512>
!lo = !ckks.ct<logN = 10, logq = 150, logp = 30, slots = 512>

module attributes {ckks.params = #ckks.params<logN = 10, logQ = 300, logp = 30, dnum = 3>} {
  // CHECK-LABEL: func.func @mul(
  // CHECK-SAME: %[[K0A:[^:]*]]: !fhe.rns<logN = 10, basis = <min_bits = 516>, domain = eval, layout = prime_major> {fhe.role = "evk.ax"}
  // CHECK-SAME: %[[K0B:[^:]*]]: !fhe.rns<{{.*}}> {fhe.role = "evk.bx"}
  // CHECK-SAME: %[[K1A:[^:]*]]: !fhe.rns<{{.*}}> {fhe.role = "evk.ax.1"}
  // CHECK-SAME: %[[K1B:[^:]*]]: !fhe.rns<{{.*}}> {fhe.role = "evk.bx.1"}
  // CHECK-SAME: %[[K2A:[^:]*]]: !fhe.rns<{{.*}}> {fhe.role = "evk.ax.2"}
  // CHECK-SAME: %[[K2B:[^:]*]]: !fhe.rns<{{.*}}> {fhe.role = "evk.bx.2"}
  // CHECK: %[[AXAX:.*]] = fhe.icrt {{.*}} -> <logN = 10, logq = 300>
  // CHECK: %[[D0:.*]] = fhe.poly_reduce %[[AXAX]] : <logN = 10, logq = 300> -> <logN = 10, logq = 100>
  // CHECK: %[[C0:.*]] = fhe.crt %[[D0]] {centered} : <logN = 10, logq = 100> -> <logN = 10, basis = <min_bits = 516>, domain = coeff
  // CHECK: %[[Y1:.*]] = fhe.poly_add_scalar %[[AXAX]] {value = 633825300114114700748351602688 : i300}
  // CHECK: %[[S1:.*]] = fhe.poly_shr %[[Y1]] {shift = 100 : i64} : <logN = 10, logq = 300> -> <logN = 10, logq = 200>
  // CHECK: %[[D1:.*]] = fhe.poly_reduce %[[S1]] : <logN = 10, logq = 200> -> <logN = 10, logq = 100>
  // CHECK: %[[C1:.*]] = fhe.crt %[[D1]] {centered}
  // 2^99 + 2^199:
  // CHECK: %[[Y2:.*]] = fhe.poly_add_scalar %[[AXAX]] {value = 803469022129495137770981046171215126561215611592144769253376 : i300}
  // CHECK: %[[S2:.*]] = fhe.poly_shr %[[Y2]] {shift = 200 : i64} : <logN = 10, logq = 300> -> <logN = 10, logq = 100>
  // CHECK-NOT: fhe.poly_reduce %[[S2]]
  // CHECK: %[[C2:.*]] = fhe.crt %[[S2]] {centered}
  // CHECK: %[[E0:.*]] = fhe.ntt %[[C0]]
  // CHECK: %[[E1:.*]] = fhe.ntt %[[C1]]
  // CHECK: %[[E2:.*]] = fhe.ntt %[[C2]]
  // CHECK: %[[H0:.*]] = fhe.hadamard %[[E0]], %[[K0A]]
  // CHECK: %[[H1:.*]] = fhe.hadamard %[[E1]], %[[K1A]]
  // CHECK: %[[A1:.*]] = fhe.add %[[H0]], %[[H1]]
  // CHECK: %[[H2:.*]] = fhe.hadamard %[[E2]], %[[K2A]]
  // CHECK: %[[A2:.*]] = fhe.add %[[A1]], %[[H2]]
  // CHECK: fhe.hadamard %[[E0]], %[[K0B]]
  // CHECK: %[[I:.*]] = fhe.intt %[[A2]]
  // CHECK: %[[W:.*]] = fhe.icrt %[[I]] : {{.*}} -> <logN = 10, logq = 400>
  // CHECK: fhe.poly_shr %[[W]] {round, shift = 100 : i64} : <logN = 10, logq = 400> -> <logN = 10, logq = 300>
  func.func @mul(%x: !ct, %y: !ct) -> !ct60 {
    %m = ckks.mul %x, %y : (!ct, !ct) -> !ct60
    return %m : !ct60
  }

  // Below the top level fewer digits: two at logq 150, the top one 50 bits
  // wide. A rotation applies phi_g to each digit's residues; the key's roles
  // are rk<g>.ax, rk<g>.bx, rk<g>.ax.1, ...
  // CHECK-LABEL: func.func @rot(
  // CHECK-SAME: %[[A:[^:]*]]: !fhe.poly<logN = 10, logq = 150> {fhe.role = "ct0.ax"}
  // CHECK-SAME: %[[R0A:[^:]*]]: !fhe.rns<{{.*}}> {fhe.role = "rk5.ax"}
  // CHECK-SAME: {fhe.role = "rk5.bx"}
  // CHECK-SAME: %[[R1A:[^:]*]]: !fhe.rns<{{.*}}> {fhe.role = "rk5.ax.1"}
  // CHECK-SAME: {fhe.role = "rk5.bx.1"}
  // CHECK-SAME: {fhe.role = "rk5.ax.2"}
  // CHECK: %[[R0:.*]] = fhe.poly_reduce %[[A]] : <logN = 10, logq = 150> -> <logN = 10, logq = 100>
  // CHECK: %[[RC0:.*]] = fhe.crt %[[R0]] {centered}
  // CHECK: %[[RY1:.*]] = fhe.poly_add_scalar %[[A]] {value = 633825300114114700748351602688 : i150}
  // CHECK: %[[RS1:.*]] = fhe.poly_shr %[[RY1]] {shift = 100 : i64} : <logN = 10, logq = 150> -> <logN = 10, logq = 50>
  // CHECK: %[[RC1:.*]] = fhe.crt %[[RS1]] {centered}
  // CHECK: %[[P0:.*]] = fhe.automorphism %[[RC0]] {galois = 5 : i64}
  // CHECK: %[[N0:.*]] = fhe.ntt %[[P0]]
  // CHECK: %[[P1:.*]] = fhe.automorphism %[[RC1]] {galois = 5 : i64}
  // CHECK: %[[N1:.*]] = fhe.ntt %[[P1]]
  // CHECK: fhe.hadamard %[[N0]], %[[R0A]]
  // CHECK: fhe.hadamard %[[N1]], %[[R1A]]
  // CHECK: fhe.poly_automorphism
  // CHECK: fhe.icrt {{.*}} -> <logN = 10, logq = 250>
  func.func @rot(%x: !lo) -> !lo {
    %r = ckks.rotate %x [1] : !lo
    return %r : !lo
  }
}
