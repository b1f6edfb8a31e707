// RUN: fhec-opt --fhe-to-loops --canonicalize --cse --fhec-plan-workspace --fhec-abi %s | FileCheck %s
// The calling convention: tables first (one argument per distinct kind,
// basis and parameter), then the inputs, then the results as out-parameters
// (the result buffer is the out-parameter itself), then the workspace; the
// manifest describes it all.

// The manifest: target, parameters, the basis, and every argument in order.
// CHECK: fhe.entries = ["square", "copies"]
// CHECK-SAME: fhe.manifest = "fhec-manifest 13\0Atarget name=cpu kernels=host shoup_bits=64 features=\0Aparams logN=4 logQ=30 logp=10\0Abasis id=0 primes=1048193,1048129,1047841\0Afunc name=square entry=__fhec_entry_square workspace={{[0-9]+}}\0Aarg kind=table table={{.*}}arg kind=table table=prime_consts basis=0 param=0\0A
// CHECK-SAME: arg kind=poly dir=in logq=30 role=x\0Aarg kind=poly dir=out logq=30 role=res0\0Aarg kind=workspace\0Afunc name=copies entry=__fhec_entry_copies workspace=0\0A

#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
!p = !fhe.poly<logN = 4, logq = 30>
!c = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>

module attributes {ckks.params = #ckks.params<logN = 4, logQ = 30, logp = 10>} {
  // CHECK-LABEL: func.func @square(
  // CHECK-SAME: %{{.*}}: memref<3x16xi64> {fhe.basis = #{{.*}}, fhe.param = 0 : i64, fhe.table = "prime_consts"}
  // CHECK-SAME: %[[X:.*]]: memref<16x1xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 4, logq = 30>}
  // CHECK-SAME: %[[OUT:.*]]: memref<16x1xi64> {fhe.output, fhe.role = "res0", fhe.type = !fhe.poly<logN = 4, logq = 30>}
  // CHECK-SAME: %[[WS:.*]]: memref<{{[0-9]+}}xi8> {fhe.workspace}) attributes {
  // CHECK-NOT: fhe.table "
  // CHECK-NOT: memref.alloc()
  // The iCRT writes straight into the out-parameter.
  // CHECK: memref.store %{{.*}}, %[[OUT]]
  // CHECK: return{{$}}
  func.func @square(%x: !p {fhe.role = "x"}) -> !p {
    %0 = fhe.crt %x : !p -> !c
    %1 = fhe.ntt %0 : !c -> !e
    %2 = fhe.hadamard %1, %1 : !e
    %3 = fhe.intt %2 : !e -> !c
    %4 = fhe.icrt %3 : !c -> !p
    return %4 : !p
  }

  // Returning an input, or one buffer twice: copies into the out-parameters.
  // CHECK-LABEL: func.func @copies(
  // CHECK-SAME: %[[A:[a-z0-9]+]]: memref<16x1xi64> {fhe.role = "a"
  // CHECK-SAME: %[[O0:[a-z0-9]+]]: memref<16x1xi64> {fhe.output
  // CHECK-SAME: %[[O1:[a-z0-9]+]]: memref<16x1xi64> {fhe.output
  // CHECK-SAME: %[[O2:[a-z0-9]+]]: memref<16x1xi64> {fhe.output
  // CHECK: memref.copy %[[A]], %[[O0]]
  // CHECK: memref.copy %[[O1]], %[[O2]]
  func.func @copies(%a: !p {fhe.role = "a"}) -> (!p, !p, !p) {
    %n = fhe.poly_negate %a : !p
    return %a, %n, %n : !p, !p, !p
  }
}
