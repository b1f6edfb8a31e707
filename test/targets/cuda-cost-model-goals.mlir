// REQUIRES: ptxas
// RUN: %python %fhec_src/bench/gpu/model.py %s --build %fhec_build --trace-blocks 2 | FileCheck %s
// Issue 23's layout goals, checked by the GPU cost model on HE Mul + rescale
// at logN 12 with the paper's logQ = 1200: the same kernels per block as at
// N = 2^16 (the CRT's 64-coefficient tiles of 81 and 122 primes, the iCRTs'
// 32-coefficient tiles over the same columns, the NTTs' 11-stage shared-memory
// level), on a ring small enough for the tests. Every kernel that moves more
// than 1% of the bytes keeps at least 80% sector efficiency and 50%
// occupancy; no kernel has a stack frame or spills; at most 16 launches.

// CHECK: total: {{([1-9]|1[0-6])}} launches
// CHECK: lowest sector efficiency {{(8[0-9]|9[0-9]|100)}}%, lowest occupancy {{(5[0-9]|[6-9][0-9]|100)}}%; largest stack frame 0 B, spills 0 B
// CHECK: emulated result vs cpu target: bit-identical

!ct = !ckks.ct<logN = 12, logq = 1200, logp = 30, slots = 2048>
!ct2 = !ckks.ct<logN = 12, logq = 1200, logp = 60, slots = 2048>
!out = !ckks.ct<logN = 12, logq = 1170, logp = 30, slots = 2048>

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 1200, logp = 30, security = "none">} {
  func.func @he_mul(%a: !ct, %b: !ct) -> !out {
    %prod = ckks.mul %a, %b : (!ct, !ct) -> !ct2
    %res = ckks.rescale %prod : !ct2 -> !out
    return %res : !out
  }
}
