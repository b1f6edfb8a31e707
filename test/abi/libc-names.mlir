// RUN: fhec run %s --target=cpu | FileCheck %s
// RUN: fhec run %s --target=cuda-emu | FileCheck %s
// A program function named like a libc function (@step, @time): the
// module's entry calls its own function, not libc's (modules are linked
// -Bsymbolic), so the result is the reference's.
// CHECK: GMP reference [0]: bit-identical
// CHECK-NOT: FAIL

!ct = !ckks.ct<logN = 8, logq = 90, logp = 30, slots = 8>
!ct60 = !ckks.ct<logN = 8, logq = 90, logp = 60, slots = 8>
!out = !ckks.ct<logN = 8, logq = 60, logp = 30, slots = 8>
module attributes {ckks.params = #ckks.params<logN = 8, logQ = 90, logp = 30, security = "none">} {
  func.func @step(%a: !ct) -> !out {
    %0 = ckks.mul %a, %a : (!ct, !ct) -> !ct60
    %1 = ckks.rescale %0 : !ct60 -> !out
    return %1 : !out
  }
}
