// RUN: fhec-opt --fhec-cpu-pipeline %s | FileCheck %s
// The whole cpu pipeline: ckks -> fhe -> loops -> LLVM dialect with the module ABI.

!ct = !ckks.ct<logN = 6, logq = 80, logp = 20, slots = 32>
!ct40 = !ckks.ct<logN = 6, logq = 80, logp = 40, slots = 32>
!out = !ckks.ct<logN = 6, logq = 60, logp = 20, slots = 32>

module attributes {ckks.params = #ckks.params<logN = 6, logQ = 80, logp = 20>} {
  func.func @mul(%a: !ct, %b: !ct) -> !out {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct40
    %1 = ckks.rescale %0 : !ct40 -> !out
    return %1 : !out
  }
}
// CHECK-NOT: fhe.
// CHECK-NOT: ckks.
// CHECK-DAG: llvm.func @mul(
// CHECK-DAG: llvm.func @__fhec_evk_prepare(
// CHECK-DAG: llvm.func @__fhec_entry_mul(
// CHECK-DAG: llvm.func @__fhec_entry___fhec_evk_prepare(
// CHECK-DAG: omp.parallel
// CHECK-DAG: llvm.func @fhec_rt_phase_begin(i32)
// CHECK-DAG: @__fhec_manifest("fhec-manifest 13\0Atarget name=cpu kernels=host shoup_bits=64 features=\0Aparams logN=6 logQ=80 logp=20\0A
// CHECK-NOT: llvm.func @malloc
