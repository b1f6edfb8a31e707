!ct = !ckks.ct<logN = 6, logq = 80, logp = 20, slots = 32>

module attributes {ckks.params = #ckks.params<logN = 6, logQ = 80, logp = 20, security = "none">} {
  func.func @bad(%a: !ct) -> !ct {
    // The product of two 2^20-scaled values has scale 2^40.
    %0 = ckks.mul %a, %a : (!ct, !ct) -> !ct
    return %0 : !ct
  }
}
