// Degree-3 polynomial approximation of the sigmoid used in encrypted logistic
// regression (Kim et al., iDASH 2017): sigma(x) ~ 0.5 + 0.15012 x - 0.001593 x^3
// on [-8, 8]. Depth 2: x^2 and (c3 x) * x^2.
// Run: fhec run examples/sigmoid.mlir
// A small demonstration ring: N = 2^13 with keys mod Q^2 = 2^480 is far below
// 128-bit security (the HE Standard allows 2^218 at this N), hence the opt-out.
!x = !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 4096>
!x_60 = !ckks.ct<logN = 13, logq = 240, logp = 60, slots = 4096>
!l1 = !ckks.ct<logN = 13, logq = 210, logp = 30, slots = 4096>
!l1_60 = !ckks.ct<logN = 13, logq = 210, logp = 60, slots = 4096>
!l2 = !ckks.ct<logN = 13, logq = 180, logp = 30, slots = 4096>

module attributes {ckks.params = #ckks.params<logN = 13, logQ = 240, logp = 30, security = "none">} {
  func.func @sigmoid(%x: !x) -> !l2 {
    // x^2 at level 1.
    %xx = ckks.mul %x, %x : (!x, !x) -> !x_60
    %x2 = ckks.rescale %xx {round} : !x_60 -> !l1
    // c3 * x at level 1.
    %c3x_60 = ckks.mul_const %x {value = -0.001593 : f64} : !x -> !x_60
    %c3x = ckks.rescale %c3x_60 {round} : !x_60 -> !l1
    // c3 x^3 at level 2.
    %c3x3_60 = ckks.mul %x2, %c3x : (!l1, !l1) -> !l1_60
    %c3x3 = ckks.rescale %c3x3_60 {round} : !l1_60 -> !l2
    // c1 * x brought down to level 2.
    %c1x_60 = ckks.mul_const %x {value = 0.15012 : f64} : !x -> !x_60
    %c1x_l1 = ckks.rescale %c1x_60 {round} : !x_60 -> !l1
    %c1x = ckks.mod_down %c1x_l1 : !l1 -> !l2
    %sum = ckks.add %c3x3, %c1x : !l2
    %res = ckks.add_const %sum {value = 0.5 : f64} : !l2
    return %res : !l2
  }
}
