!ct = !ckks.ct<logN = 9, logq = 120, logp = 30, slots = 256>
module attributes {ckks.params = #ckks.params<logN = 9, logQ = 150, logp = 30, security = "none">} {
  func.func @id(%a: !ct) -> !ct {
    return %a : !ct
  }
}
