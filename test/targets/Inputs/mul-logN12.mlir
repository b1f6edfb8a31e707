// HE Mul at N = 2^12: the GPU NTT in two launches (a one-stage level of
// many-column tiles, then the 11-stage level of one-column tiles).
!ct = !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 64>
!ct60 = !ckks.ct<logN = 12, logq = 90, logp = 60, slots = 64>
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 90, logp = 30, security = "none">} {
  func.func @mul(%a: !ct, %b: !ct) -> !ct60 {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct60
    return %0 : !ct60
  }
}
