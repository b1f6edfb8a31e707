// RUN: fhec %s --target=cuda --emit=fhe | FileCheck %s --check-prefix=BASIS
// RUN: fhec %s --target=cuda --emit=mlir | FileCheck %s --check-prefix=LOOPS
// RUN: not fhec %s --target=cuda --emit=llvm 2>&1 | FileCheck %s --check-prefix=NOT-YET
// RUN: not fhec run %s --target=cuda 2>&1 | FileCheck %s --check-prefix=NOT-YET
// The cuda target so far: 30-bit primes (lazy [0, 4p) fits a 32-bit word),
// tables in Shoup base 2^32, 32-bit digits in the CRT/iCRT; no GPU mapping yet,
// which every later stage says instead of producing host code.

!ct = !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 64>
!ct60 = !ckks.ct<logN = 8, logq = 100, logp = 60, slots = 64>
!out = !ckks.ct<logN = 8, logq = 70, logp = 30, slots = 64>

module attributes {ckks.params = #ckks.params<logN = 8, logQ = 100, logp = 30, security = "none">} {
  func.func @he_mul(%a: !ct, %b: !ct) -> !out {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct60
    %1 = ckks.rescale %0 : !ct60 -> !out
    return %1 : !out
  }
}
// BASIS: prime_bits = 30, primes = [1073{{[0-9]+}},
// LOOPS: fhec-manifest {{[0-9]+}}\0Atarget name=cuda shoup_bits=32
// LOOPS: modarith.mac_split {{.*}} {digit = 32 : i64}
// NOT-YET: error: target 'cuda': only --emit=fhe and --emit=mlir are implemented; the GPU mapping, PTX emission and the CUDA runtime are not built yet
