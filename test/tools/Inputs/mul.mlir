!ct = !ckks.ct<logN = 6, logq = 80, logp = 20, slots = 32>
!ct40 = !ckks.ct<logN = 6, logq = 80, logp = 40, slots = 32>
module attributes {ckks.params = #ckks.params<logN = 6, logQ = 80, logp = 20, security = "none">} {
  func.func @mul(%a: !ct, %b: !ct) -> !ct40 {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct40
    return %0 : !ct40
  }
}
