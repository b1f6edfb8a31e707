// REQUIRES: avx512ifma
// RUN: fhec run %s --target=cpu-avx512 -O0 --threads=1 --compare='-O0 --threads=2' --compare='-O2 --threads=1' --compare='-O2 --threads=2' | FileCheck %s
// RUN: fhec %s --target=auto --emit=fhe | FileCheck %s --check-prefix=AUTO
// cpu-avx512 modules at -O0 and -O2 on 1 and 2 threads, each bit-identical
// to the GMP reference (the e2e tests cover more sizes and configurations).

!ct = !ckks.ct<logN = 10, logq = 240, logp = 30, slots = 512>
!ct60 = !ckks.ct<logN = 10, logq = 240, logp = 60, slots = 512>
!out = !ckks.ct<logN = 10, logq = 210, logp = 30, slots = 512>

module attributes {ckks.params = #ckks.params<logN = 10, logQ = 240, logp = 30, security = "none">} {
  func.func @he_mul(%a: !ct, %b: !ct) -> !out {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct60
    %1 = ckks.rescale %0 : !ct60 -> !out
    return %1 : !out
  }
}
// CHECK: [0] -O0 --target=cpu-avx512 --threads=1
// CHECK: [1] -O0 --target=cpu-avx512 --threads=2
// CHECK: [2] -O2 --target=cpu-avx512 --threads=1
// CHECK: [3] -O2 --target=cpu-avx512 --threads=2
// CHECK-COUNT-4: bit-identical
// CHECK: PASS
// AUTO: prime_bits = 50
