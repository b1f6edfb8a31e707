// RUN: fhec-opt --ckks-to-fhe %s | FileCheck %s
// HE Mul becomes the five polynomial products of Fig. 2 (Jung et al. 2021):
// region 1 in Karatsuba form, region 2 the relinearization with the evaluation key.

!ct = !ckks.ct<logN = 10, logq = 300, logp = 30, slots = 512>
!ct60 = !ckks.ct<logN = 10, logq = 300, logp = 60, slots = 512>

module attributes {ckks.params = #ckks.params<logN = 10, logQ = 300, logp = 30>} {
  // Region 1 bound: logN + 2 (logq + 1) + 4 = 616; region 2: logN + logq + 2 logQ + 4 = 914.
  // CHECK-LABEL: func.func @mul(
  // CHECK-SAME: %[[A1:.*]]: !fhe.poly<logN = 10, logq = 300> {fhe.role = "ct0.ax"}
  // CHECK-SAME: %[[B1:.*]]: !fhe.poly<logN = 10, logq = 300> {fhe.role = "ct0.bx"}
  // CHECK-SAME: %[[A2:.*]]: !fhe.poly<logN = 10, logq = 300> {fhe.role = "ct1.ax"}
  // CHECK-SAME: %[[B2:.*]]: !fhe.poly<logN = 10, logq = 300> {fhe.role = "ct1.bx"}
  // CHECK-SAME: %[[EA:.*]]: !fhe.rns<logN = 10, basis = <min_bits = 914>, domain = eval, layout = prime_major> {fhe.role = "evk.ax"}
  // CHECK-SAME: %[[EB:.*]]: !fhe.rns<{{.*}}> {fhe.role = "evk.bx"}
  // CHECK-SAME: fhe.ct_inputs = [array<i64: 300, 30, 512>, array<i64: 300, 30, 512>], fhe.ct_outputs = [array<i64: 300, 60, 512>]
  // CHECK: %[[CA1:.*]] = fhe.crt %[[A1]] : {{.*}} -> <logN = 10, basis = <min_bits = 616>, domain = coeff
  // CHECK: %[[NA1:.*]] = fhe.ntt %[[CA1]]
  // CHECK: %[[NB1:.*]] = fhe.ntt
  // CHECK: %[[NA2:.*]] = fhe.ntt
  // CHECK: %[[NB2:.*]] = fhe.ntt
  // CHECK: %[[AXAX:.*]] = fhe.hadamard %[[NA1]], %[[NA2]]
  // CHECK: %[[BXBX:.*]] = fhe.hadamard %[[NB1]], %[[NB2]]
  // CHECK: %[[S1:.*]] = fhe.add %[[NA1]], %[[NB1]]
  // CHECK: %[[S2:.*]] = fhe.add %[[NA2]], %[[NB2]]
  // CHECK: %[[T:.*]] = fhe.hadamard %[[S1]], %[[S2]]
  // Karatsuba's difference on the residues, before the iNTT.
  // CHECK: %[[D:.*]] = fhe.sub %[[T]], %[[AXAX]]
  // CHECK: %[[AXBXE:.*]] = fhe.sub %[[D]], %[[BXBX]]
  // CHECK: %[[I1:.*]] = fhe.intt %[[AXAX]]
  // CHECK: %[[PAXAX:.*]] = fhe.icrt %[[I1]] {{.*}} -> <logN = 10, logq = 300>
  // CHECK: %[[PBXBX:.*]] = fhe.icrt
  // CHECK: %[[I3:.*]] = fhe.intt %[[AXBXE]]
  // CHECK: %[[AXBX:.*]] = fhe.icrt %[[I3]]
  // CHECK-NOT: fhe.poly_sub
  // CHECK: %[[C2:.*]] = fhe.crt %[[PAXAX]] {centered} : {{.*}} -> <logN = 10, basis = <min_bits = 914>, domain = coeff
  // CHECK: %[[N2:.*]] = fhe.ntt %[[C2]]
  // CHECK: %[[HA:.*]] = fhe.hadamard %[[N2]], %[[EA]]
  // CHECK: %[[HB:.*]] = fhe.hadamard %[[N2]], %[[EB]]
  // CHECK: fhe.intt %[[HA]]
  // CHECK: fhe.icrt {{.*}} -> <logN = 10, logq = 600>
  // CHECK: %[[XA:.*]] = fhe.poly_shr %{{.*}} {round, shift = 300 : i64} : <logN = 10, logq = 600> -> <logN = 10, logq = 300>
  // CHECK: fhe.intt %[[HB]]
  // CHECK: fhe.icrt {{.*}} -> <logN = 10, logq = 600>
  // CHECK: %[[XB:.*]] = fhe.poly_shr
  // CHECK: %[[RB:.*]] = fhe.poly_add %[[XB]], %[[PBXBX]]
  // CHECK: %[[RA:.*]] = fhe.poly_add %[[XA]], %[[AXBX]]
  // CHECK: return %[[RA]], %[[RB]]
  func.func @mul(%a: !ct, %b: !ct) -> !ct60 {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct60
    return %0 : !ct60
  }

  // Squaring shares the CRT + NTT of each operand polynomial.
  // CHECK-LABEL: func.func @square
  // CHECK-COUNT-2: fhe.crt %arg
  // CHECK-NOT: fhe.crt %arg
  // CHECK: fhe.hadamard
  func.func @square(%a: !ct) -> !ct60 {
    %0 = ckks.mul %a, %a : (!ct, !ct) -> !ct60
    return %0 : !ct60
  }

  // The evaluation key is brought to RNS/NTT form once, by this function.
  // CHECK-LABEL: func.func @__fhec_evk_prepare(
  // CHECK-SAME: !fhe.poly<logN = 10, logq = 600> {fhe.role = "key"}
  // CHECK-SAME: {fhe.role = "keyrns"}
  // CHECK: fhe.crt
  // CHECK: fhe.ntt
}
