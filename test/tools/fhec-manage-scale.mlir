// --manage-scale: a program written without rescales is managed before
// anything else; --emit=ckks shows the result, and `fhec run` checks the
// managed program against the reference and the plaintext computation.
// RUN: fhec %s --manage-scale --emit=ckks | FileCheck %s
// RUN: fhec run %s --manage-scale --threads=1 | FileCheck %s --check-prefix=EXEC
// Without it the sum of a product and a fresh ciphertext is aligned by
// scaling the latter up: still a valid program, computed at scale 2^60.
// RUN: fhec run %s --threads=1 | FileCheck %s --check-prefix=EXEC
// RUN: fhec %s --emit=ckks | FileCheck %s --check-prefix=UNMANAGED

// CHECK-LABEL: func.func @poly
// CHECK-SAME: -> !ckks.ct<logN = 9, logq = 90, logp = 30, slots = 64>
// CHECK: ckks.mul
// CHECK: ckks.rescale
// CHECK: ckks.mod_down
// CHECK: ckks.add {{.*}} : <logN = 9, logq = 90, logp = 30, slots = 64>
// EXEC: GMP reference [0]: bit-identical
// EXEC: PASS
// UNMANAGED: ckks.add {{.*}} -> <logN = 9, logq = 120, logp = 60, slots = 64>
// UNMANAGED-NOT: ckks.rescale

!ct = !ckks.ct<logN = 9, logq = 120, logp = 30, slots = 64>
!ct60 = !ckks.ct<logN = 9, logq = 120, logp = 60, slots = 64>

module attributes {ckks.params = #ckks.params<logN = 9, logQ = 120, logp = 30, security = "none">} {
  func.func @poly(%x: !ct) -> !ct60 {
    %0 = ckks.mul %x, %x : (!ct, !ct) -> !ct60
    %1 = ckks.add %0, %x : (!ct60, !ct) -> !ct60
    return %1 : !ct60
  }
}
