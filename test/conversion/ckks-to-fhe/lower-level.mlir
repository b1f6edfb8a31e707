// RUN: fhec-opt --ckks-to-fhe %s | FileCheck %s
// HE Mul below the top level reads a prefix of the evaluation key's basis.

!top = !ckks.ct<logN = 10, logq = 300, logp = 30, slots = 8>
!top60 = !ckks.ct<logN = 10, logq = 300, logp = 60, slots = 8>
!low = !ckks.ct<logN = 10, logq = 270, logp = 30, slots = 8>
!low60 = !ckks.ct<logN = 10, logq = 270, logp = 60, slots = 8>

module attributes {ckks.params = #ckks.params<logN = 10, logQ = 300, logp = 30>} {
  // CHECK-LABEL: func.func @two_levels
  // CHECK-SAME: basis = <min_bits = 914>, domain = eval{{.*}}{fhe.role = "evk.ax"}
  // CHECK: fhe.hadamard %{{.*}}, %arg2
  // CHECK: %[[V:.*]] = fhe.basis_prefix %arg2 : <logN = 10, basis = <min_bits = 914>{{.*}}> -> <logN = 10, basis = <min_bits = 884>
  // CHECK: fhe.hadamard %{{.*}}, %[[V]]
  func.func @two_levels(%a: !top) -> !low60 {
    %0 = ckks.mul %a, %a : (!top, !top) -> !top60
    %1 = ckks.rescale %0 : !top60 -> !low
    %2 = ckks.mul %1, %1 : (!low, !low) -> !low60
    return %2 : !low60
  }
}
