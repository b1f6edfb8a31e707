!p = !fhe.poly<logN = 8, logq = 120>
!c = !fhe.rns<logN = 8, basis = <min_bits = 260>, domain = coeff, layout = prime_major>
module attributes {ckks.params = #ckks.params<logN = 8, logQ = 120, logp = 20, security = "none">} {
  func.func @crt(%x: !p {fhe.role = "x"}) -> !c {
    %c = fhe.crt %x {order = #fhe<order matrix>, block = 16} : !p -> !c
    return %c : !c
  }
}
!x = !ckks.ct<logN = 12, logq = 240, logp = 30, slots = 8>
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 240, logp = 30, security = "none">} {
  func.func @f(%x: !x) -> !x {
    return %x : !x
  }
}
