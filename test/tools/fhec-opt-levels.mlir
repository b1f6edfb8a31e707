// RUN: fhec %s -O0 --emit=fhe | FileCheck %s --check-prefix=O0
// RUN: fhec %s -O1 --emit=fhe | FileCheck %s --check-prefix=O1
// RUN: fhec %s --emit=fhe | FileCheck %s --check-prefix=O2
// RUN: fhec %s -O2 --disable-pass=fhe-fuse --disable-pass=fhe-reorder-icrt --emit=fhe | FileCheck %s --check-prefix=DISABLED
// RUN: fhec %s --pass-option='fhe-merge-ntt-levels{radix-log=2}' --pass-option='fhe-reorder-icrt{block=4}' --emit=fhe | FileCheck %s --check-prefix=OPTIONS
// RUN: fhec %s -O0 --emit=mlir | FileCheck %s --check-prefix=HEAP
// RUN: fhec %s -O1 --emit=mlir | FileCheck %s --check-prefix=WORKSPACE
// Each -O level runs its passes; --disable-pass and --pass-option adjust them.

!ct = !ckks.ct<logN = 6, logq = 80, logp = 20, slots = 32>
!ct40 = !ckks.ct<logN = 6, logq = 80, logp = 40, slots = 32>
!out = !ckks.ct<logN = 6, logq = 60, logp = 20, slots = 32>

module attributes {ckks.params = #ckks.params<logN = 6, logQ = 80, logp = 20, security = "none">} {
  func.func @mul(%a: !ct, %b: !ct) -> !out {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct40
    %1 = ckks.rescale %0 : !ct40 -> !out
    return %1 : !out
  }
}
// O0-NOT: levels =
// O0-NOT: order =
// O0-NOT: fhe.fused
// O1: fhe.crt %{{.*}} {block = 16 : i64, order = #fhe<order matrix>}
// O1: fhe.ntt %{{.*}} {levels = array<i64: 6>}
// O1-NOT: fhe.fused
// O2: fhe.fused {{ *}}residue
// O2: domain = coeff_scaled
// O2: fhe.fused {{ *}}coefficient
// DISABLED: fhe.ntt %{{.*}} {levels =
// DISABLED-NOT: order = #fhe<order matrix>
// DISABLED-NOT: fhe.fused
// OPTIONS: fhe.crt %{{.*}} {block = 4 : i64
// OPTIONS: fhe.ntt %{{.*}} {levels = array<i64: 2, 2, 2>}
// -O0 frees each kernel buffer after its last use; -O1 plans one workspace.
// HEAP: memref.alloc()
// HEAP: memref.dealloc
// HEAP-NOT: fhe.workspace
// WORKSPACE-NOT: memref.alloc()
// WORKSPACE: fhe.workspace
