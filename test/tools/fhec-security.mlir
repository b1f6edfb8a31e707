// The security estimate is printed on every compile and run; parameters below
// the level #ckks.params requires (128 bits by default) are refused unless they
// opt out (security = "none") or the driver gets --allow-insecure.
// RUN: not fhec %S/Inputs/insecure.mlir --emit=fhe 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not fhec run %S/Inputs/insecure.mlir 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: fhec %S/Inputs/insecure.mlir --emit=fhe --allow-insecure 2>&1 >/dev/null | FileCheck %s --check-prefix=ALLOWED
// RUN: fhec %s --emit=fhe 2>&1 >/dev/null | FileCheck %s --check-prefix=OPTOUT
// RUN: fhec run %S/Inputs/secure.mlir --threads=1 2>&1 | FileCheck %s --check-prefix=SECURE
// RUN: sed 's/security = "none"/security = "256"/' %s | not fhec - --emit=fhe 2>&1 | FileCheck %s --check-prefix=LEVEL
// RUN: sed 's/security = "none"/security = "high"/' %s | not fhec - --emit=fhe 2>&1 | FileCheck %s --check-prefix=BADLEVEL
// RUN: fhec %S/../../examples/he_mul.mlir --emit=fhe 2>&1 >/dev/null | FileCheck %s --check-prefix=PAPER
// RUN: fhec %S/../../examples/he_mul_secure.mlir --emit=fhe 2>&1 >/dev/null | FileCheck %s --check-prefix=PAPER17
// RUN: not fhec %S/Inputs/sparse-secret.mlir --emit=fhe 2>&1 | FileCheck %s --check-prefix=SPARSE
// RUN: sed 's/h = 64/h = 64, security = "none"/' %S/Inputs/sparse-secret.mlir | fhec - --emit=fhe 2>&1 >/dev/null | FileCheck %s --check-prefix=SPARSE-OPTOUT

// 2^13 with keys mod 2^400: the HE Standard v2's 214 < 400 bits, about 68 bits.
module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
}
// REFUSED: fhec: security: about 14 bits (HE Standard v2 tables, uniform ternary secret, N = 2^10, log2 of the largest modulus = 240, extrapolated beyond the tables)
// REFUSED: insecure.mlir:3:1: error: insecure parameters #ckks.params<logN = 10, logQ = 120, logp = 30>: estimated security about 14 bits {{.*}} is below the required 128 bits
// REFUSED: note: log2 of the modulus 240 is above the tables' 128-bit bound 26 for N = 2^10: the level is extrapolated and not granted
// REFUSED: note: use a larger N or a smaller logQ, or opt out explicitly with security = "none" in #ckks.params (like OpenFHE's HEStd_NotSet) or with --allow-insecure
// ALLOWED: fhec: security: about 14 bits {{.*}} [not enforced: --allow-insecure]
// ALLOWED-NOT: error
// OPTOUT: fhec: security: about 68 bits (HE Standard v2 tables, uniform ternary secret, N = 2^13, log2 of the largest modulus = 400, extrapolated beyond the tables){{.*}} [not enforced: security = "none"]
// SECURE: fhec: security: about 136 bits (HE Standard v2 tables, uniform ternary secret, N = 2^12, log2 of the largest modulus = 100)
// SECURE: PASS
// LEVEL: error: insecure parameters {{.*}} is below the required 256 bits
// BADLEVEL: error: security = "high" is not a level: expected "128", "192", "256" or "none" (no check)
// PAPER: fhec: security: about 93 bits (HE Standard v2 tables, uniform ternary secret, N = 2^16, log2 of the largest modulus = 2400, extrapolated beyond the tables){{.*}} [not enforced: security = "none"]
// PAPER17: fhec: security: about 193 bits (HE Standard v2 tables, uniform ternary secret, N = 2^17, log2 of the largest modulus = 2400)
// PAPER17-NOT: not enforced
// SPARSE: fhec: security: about 102 bits (lattice-estimator model, cheapest attack primal hybrid (MITM), sparse ternary secret, h = 64, N = 2^16, log2 of the largest modulus = 1760)
// SPARSE: sparse-secret.mlir:4:1: error: insecure parameters #ckks.params<logN = 16, logQ = 880, logp = 30, secret = "sparse", h = 64>: estimated security about 102 bits {{.*}} is below the required 128 bits
// SPARSE-OPTOUT: fhec: security: about 102 bits (lattice-estimator model{{.*}} [not enforced: security = "none"]
