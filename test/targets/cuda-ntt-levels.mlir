// RUN: fhec %s --target=cuda --emit=mlir | FileCheck %s --check-prefix=TWO
// RUN: not fhec %s --target=cuda --emit=mlir --pass-option='fhe-merge-ntt-levels{levels=12}' 2>&1 | FileCheck %s --check-prefix=TOO-BIG
// The GPU NTT runs each level as one launch whose tile is at most 2^11
// residues of shared memory: a 2^12 transform takes two launches (1 + 11
// stages: the strided one needs no shared memory), and a level of 12 stages
// is refused with a diagnostic.

!ct = !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8>
!ct60 = !ckks.ct<logN = 12, logq = 90, logp = 60, slots = 8>

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 90, logp = 30, security = "none">} {
  func.func @mul(%a: !ct, %b: !ct) -> !ct60 {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct60
    return %0 : !ct60
  }
}
// The first level: 2^11 sub-transforms of 2 residues, 1024 threads of 2.
// TWO: gpu.launch blocks({{.*}}) in ({{.*}} = %c2{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c1024{{.*}}, {{.*}}) {
// The second: one sub-transform of 2^11 residues, 256 threads of 8, a tile in
// shared memory (2^11 32-bit words, residues below 4p, and one of padding per 8).
// TWO: gpu.launch blocks({{.*}}) in ({{.*}} = %c2{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}}) workgroup(%{{.*}} : memref<2304xi32, #gpu.address_space<workgroup>>)

// TOO-BIG: error: 'fhe.ntt' op has a level of 12 stages; a cuda thread block holds at most 11 in shared memory
