// REQUIRES: ptxas
// RUN: %python %fhec_src/bench/gpu/model.py %s --build %fhec_build --trace-blocks 2 --json %t.json | FileCheck %s
// RUN: %python %fhec_src/bench/gpu/model.py --from-json %t.json --device h200 | FileCheck %s --check-prefix=H200
// The GPU cost model (bench/gpu/model.py, docs/gpu-model.md) on a small HE
// Mul: the cuda-emu build traced, checked against the cpu target bit for bit,
// each launch estimated from its trace and ptxas -v.

// CHECK: GPU cost model: NVIDIA H100 SXM5 80 GB (data sheet) (estimated, not measured)
// CHECK: # kernel {{ *}}phase {{ *}}grid x block {{ *}}MB {{ *}}sect.eff {{ *}}occup. {{ *}}regs {{ *}}stack {{ *}}est. us  bound
// CHECK: 0 he_mul_kernel {{ *}}CRT {{ *}}16 x 256
// The four NTTs and the products they feed: one block per (tile, prime).
// CHECK: NTT {{ *}}8 x 32
// CHECK: iCRT
// CHECK: total: {{[0-9]+}} launches, {{[0-9.]+}} MB, estimated {{[0-9.]+}} ms
// CHECK: per phase (ms): CRT {{[0-9.]+}}, NTT
// CHECK: emulated result vs cpu target: bit-identical
// H200: GPU cost model: NVIDIA H200
// H200: emulated result vs cpu target: bit-identical

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
