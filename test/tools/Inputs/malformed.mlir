module attributes {ckks.params = #ckks.params<logN = 6, logQ = 80, logp = 20, security = "none">} {
  func.func @bad(%a: !ckks.ct<logN = 6, logq = 80, logp = 20, slots = 32>) {
    %0 = ckks.add %a, : !ckks.ct<logN = 6, logq = 80, logp = 20, slots = 32>
    return
  }
}
