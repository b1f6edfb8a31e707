// Every CKKS op that is not a rotation (the e2e test EveryCkksOp's program).
!a = !ckks.ct<logN = 11, logq = 200, logp = 30, slots = 256>
!a60 = !ckks.ct<logN = 11, logq = 200, logp = 60, slots = 256>
!b = !ckks.ct<logN = 11, logq = 170, logp = 30, slots = 256>
!b60 = !ckks.ct<logN = 11, logq = 170, logp = 60, slots = 256>
!c = !ckks.ct<logN = 11, logq = 140, logp = 30, slots = 256>
!e = !ckks.ct<logN = 11, logq = 60, logp = 30, slots = 256>
!h = !ckks.ct<logN = 11, logq = 170, logp = 26, slots = 512>
module attributes {ckks.params = #ckks.params<logN = 11, logQ = 200, logp = 30, security = "none">} {
  func.func @g(%x: !a, %y: !a) -> (!c, !b, !h) {
    %s = ckks.add %x, %y : !a
    %d = ckks.sub %x, %y : !a
    %n = ckks.negate %d : !a
    %m = ckks.mul %s, %n : (!a, !a) -> !a60
    %r = ckks.rescale %m : !a60 -> !b
    %k = ckks.mul_const %x {value = -0.75 : f64} : !a -> !a60
    %kr = ckks.rescale %k {round} : !a60 -> !b
    %sq = ckks.mul %kr, %r : (!b, !b) -> !b60
    %sqr = ckks.rescale %sq {round} : !b60 -> !c
    %dn = ckks.mod_down %r : !b -> !c
    %t = ckks.add %sqr, %dn : !c
    %u = ckks.add_const %t {value = 0.125 : f64} : !c
    %i = ckks.mul_monomial %u {k = 1024} : !c
    %w = ckks.mul_monomial %kr {k = 4092} : !b
    %lo = ckks.mod_down %i : !c -> !e
    %up = ckks.mod_raise %lo : !e -> !a
    %v = ckks.div_by_po2 %up : !a -> !b
    %h = ckks.relabel %v : !b -> !h
    return %i, %w, %h : !c, !b, !h
  }
}
