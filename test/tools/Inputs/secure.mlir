// N = 2^12 with keys mod Q^2 = 2^100: within the HE Standard v2's 106 bits for 128-bit security.
!ct = !ckks.ct<logN = 12, logq = 50, logp = 20, slots = 8>
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 50, logp = 20>} {
  func.func @add(%a: !ct, %b: !ct) -> !ct {
    %c = ckks.add %a, %b : !ct
    return %c : !ct
  }
}
