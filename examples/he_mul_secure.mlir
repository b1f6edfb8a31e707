// HE Mul + rescale with the paper's modulus (Q = 2^1200, p = 2^30) at 128-bit
// security: N = 2^17, so keys mod Q^2 = 2^2400 are within the HE Standard
// v2 tables' 128-bit bound at this N (3523 bits; fhec estimates about 193
// bits, fhec/runtime/Security.h), 2^16 complex slots. No opt-out needed.
// Run: fhec run examples/he_mul_secure.mlir
!ct = !ckks.ct<logN = 17, logq = 1200, logp = 30, slots = 65536>
!ct2 = !ckks.ct<logN = 17, logq = 1200, logp = 60, slots = 65536>
!out = !ckks.ct<logN = 17, logq = 1170, logp = 30, slots = 65536>

module attributes {ckks.params = #ckks.params<logN = 17, logQ = 1200, logp = 30>} {
  func.func @he_mul(%a: !ct, %b: !ct) -> !out {
    %prod = ckks.mul %a, %b : (!ct, !ct) -> !ct2
    %res = ckks.rescale %prod : !ct2 -> !out
    return %res : !out
  }
}
