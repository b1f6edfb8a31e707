// HE Mul and a rotation with hybrid key switching (dnum = 3): fhec-exec.mlir
// runs it from saved keys of three parts and from fresh ones.
!ct = !ckks.ct<logN = 9, logq = 120, logp = 30, slots = 256>
!ct60 = !ckks.ct<logN = 9, logq = 120, logp = 60, slots = 256>
!out = !ckks.ct<logN = 9, logq = 90, logp = 30, slots = 256>

module attributes {ckks.params = #ckks.params<logN = 9, logQ = 120, logp = 30, security = "none", dnum = 3>} {
  func.func @he_mul_rot(%a: !ct, %b: !ct) -> !out {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct60
    %1 = ckks.rescale %0 : !ct60 -> !out
    %2 = ckks.rotate %1 [3] : !out
    return %2 : !out
  }
}
