// HE Mul + rescale at the paper's parameters (Jung et al. 2021, Table 6):
// N = 2^16, Q = 2^1200, p = 2^30, 2^15 complex slots.
// Run: fhec run examples/he_mul.mlir
// These parameters are the paper's, kept for comparison, but not secure: keys
// live mod Q^2 = 2^2400, and at N = 2^16 fhec estimates about 93 bits
// (extrapolated beyond the HE Standard tables, so not granted), fewer with
// HEAAN's sparse secret. They opt out of fhec's 128-bit
// check explicitly; examples/he_mul_secure.mlir is the same product at N = 2^17.
!ct = !ckks.ct<logN = 16, logq = 1200, logp = 30, slots = 32768>
!ct2 = !ckks.ct<logN = 16, logq = 1200, logp = 60, slots = 32768>
!out = !ckks.ct<logN = 16, logq = 1170, logp = 30, slots = 32768>

module attributes {ckks.params = #ckks.params<logN = 16, logQ = 1200, logp = 30, security = "none">} {
  func.func @he_mul(%a: !ct, %b: !ct) -> !out {
    %prod = ckks.mul %a, %b : (!ct, !ct) -> !ct2
    %res = ckks.rescale %prod : !ct2 -> !out
    return %res : !out
  }
}
