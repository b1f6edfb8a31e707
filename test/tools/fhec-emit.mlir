// RUN: fhec %s --target=cpu --emit=fhe | FileCheck %s --check-prefix=FHE
// RUN: fhec %s --target=cpu --emit=mlir | FileCheck %s --check-prefix=LOOPS
// RUN: fhec %s --target=cpu --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: fhec %s --target=cpu --emit=asm | FileCheck %s --check-prefix=ASM
// RUN: fhec %s --target=cpu --emit=obj -o %t.o && test -s %t.o
// RUN: fhec %s --target=cpu --emit=so -o %t.so && test -s %t.so
// RUN: fhec %s --target=cpu --emit=fhe --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: fhec %s --target=cpu --emit=fhe --mlir-timing 2>&1 | FileCheck %s --check-prefix=TIMING

!ct = !ckks.ct<logN = 6, logq = 80, logp = 20, slots = 32>
!ct40 = !ckks.ct<logN = 6, logq = 80, logp = 40, slots = 32>

module attributes {ckks.params = #ckks.params<logN = 6, logQ = 80, logp = 20, security = "none">} {
  func.func @sq(%a: !ct) -> !ct40 {
    %0 = ckks.mul %a, %a : (!ct, !ct) -> !ct40
    return %0 : !ct40
  }
}
// FHE: #rns_basis{{.*}} = #fhe.basis<min_bits = {{[0-9]+}}, prime_bits = 60, primes = [
// FHE: fhe.crt
// FHE: fhe.ntt
// The loop level: parallel loops of modarith ops, views of the workspace.
// LOOPS: memref.view
// LOOPS: scf.parallel
// LOOPS: modarith.mac
// LOOPS-NOT: memref.alloc()
// Parallel loops run on OpenMP (LLVM's libomp); no allocation in the module.
// LLVM: @__fhec_abi_version = {{.*}}constant i32 13
// LLVM-DAG: define void @__fhec_entry_sq(ptr
// LLVM-DAG: call void {{.*}}@__kmpc_fork_call
// LLVM-NOT: @malloc
// ASM: __fhec_entry_sq:
// PRINT: IR Dump After CKKSToFHE
// PRINT: IR Dump After FHESelectBasis
// TIMING: Execution time report
// TIMING: CKKSToFHE
