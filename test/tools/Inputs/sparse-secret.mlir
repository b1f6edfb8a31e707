// HEAAN's sparse secret (h = 64) at N = 2^16 with keys mod 2^1760: the HE
// Standard's tables would say about 127 bits for a uniform ternary secret;
// the hybrid attacks on sparse secrets make it about 102.
module attributes {ckks.params = #ckks.params<logN = 16, logQ = 880, logp = 30, secret = "sparse", h = 64>} {
}
