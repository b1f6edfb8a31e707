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

// 2^13 with keys mod 2^400: 218 < 400 bits, about 70 bits.
module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
}
// REFUSED: fhec: security: at most 14 bits (HE Standard tables, N = 2^10, log2 of the largest modulus = 240, extrapolated beyond the tables); the secret's Hamming weight h = 64
// REFUSED: insecure.mlir:3:1: error: insecure parameters #ckks.params<logN = 10, logQ = 120, logp = 30>: estimated security at most 14 bits {{.*}} is below the required 128 bits
// REFUSED: note: the secret's Hamming weight h = 64 is far below the 2N/3 of the uniform ternary secret the tables assume
// REFUSED: note: use a larger N or a smaller logQ, or opt out explicitly with security = "none" in #ckks.params (like OpenFHE's HEStd_NotSet) or with --allow-insecure
// ALLOWED: fhec: security: at most 14 bits {{.*}} [not enforced: --allow-insecure]
// ALLOWED-NOT: error
// OPTOUT: fhec: security: at most 70 bits (HE Standard tables, N = 2^13, log2 of the largest modulus = 400, extrapolated beyond the tables){{.*}} [not enforced: security = "none"]
// SECURE: fhec: security: at most 141 bits (HE Standard tables, N = 2^12, log2 of the largest modulus = 100)
// SECURE: PASS
// LEVEL: error: insecure parameters {{.*}} is below the required 256 bits
// BADLEVEL: error: security = "high" is not a level: expected "128", "192", "256" or "none" (no check)
// PAPER: fhec: security: at most 95 bits (HE Standard tables, N = 2^16, log2 of the largest modulus = 2400, extrapolated beyond the tables){{.*}} [not enforced: security = "none"]
// PAPER17: fhec: security: at most 197 bits (HE Standard tables, N = 2^17, log2 of the largest modulus = 2400, extrapolated beyond the tables)
// PAPER17-NOT: not enforced
