// N = 32 is smaller than the sparse secret's Hamming weight h = 64.
!ct = !ckks.ct<logN = 5, logq = 80, logp = 20, slots = 4>
module attributes {ckks.params = #ckks.params<logN = 5, logQ = 80, logp = 20, security = "none", secret = "sparse", h = 64>} {
  func.func @"f"(%a: !ct) -> !ct {
    %c = ckks.add %a, %a : !ct
    return %c : !ct
  }
}
