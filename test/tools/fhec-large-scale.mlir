// Scales beyond double's range (2^1030) encode and decode exactly.
// RUN: fhec run %s --threads=1 | FileCheck %s
!ct = !ckks.ct<logN = 7, logq = 2200, logp = 1030, slots = 4>
!ct2 = !ckks.ct<logN = 7, logq = 2200, logp = 2060, slots = 4>
!out = !ckks.ct<logN = 7, logq = 1170, logp = 1030, slots = 4>
module attributes {ckks.params = #ckks.params<logN = 7, logQ = 2200, logp = 1030, security = "none">} {
  func.func @mul(%a: !ct, %b: !ct) -> !out {
    %p = ckks.mul %a, %b : (!ct, !ct) -> !ct2
    %r = ckks.rescale %p : !ct2 -> !out
    return %r : !out
  }
}
// CHECK: GMP reference [0]: bit-identical
// CHECK: PASS
