// N = 2^10 with keys mod Q^2 = 2^240: far below 128 bits, no opt-out.
!ct = !ckks.ct<logN = 10, logq = 120, logp = 30, slots = 4>
module attributes {ckks.params = #ckks.params<logN = 10, logQ = 120, logp = 30>} {
  func.func @add(%a: !ct, %b: !ct) -> !ct {
    %c = ckks.add %a, %b : !ct
    return %c : !ct
  }
}
