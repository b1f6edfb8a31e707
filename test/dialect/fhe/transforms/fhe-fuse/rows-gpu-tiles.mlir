// RUN: fhec-opt --fhec-attach-target=name=cuda --fhe-fuse %s | FileCheck %s --check-prefix=GPU
// RUN: fhec-opt --fhec-attach-target=name=cuda --fhe-select-basis --fhe-fuse --fhe-to-loops %s | FileCheck %s --check-prefix=GPULOOPS

#r1 = #fhe.basis<min_bits = 100>
// Six NTTs of 2^12 whose last level takes 2^11 residues a block: six tiles
// of 9 KB exceed a block's 48 KB of shared memory, so on a GPU the rows
// kernel's transforms keep their own launches and the products a grid of
// their own (one thread per (prime, residue), mapped to launches later). The
// first level (one stage, no tile) runs the six transforms together in each
// block (blocks (tile, prime)), the second one transform a block (blocks
// (tile, prime, NTT)).
!c12 = !fhe.rns<logN = 12, basis = #r1, domain = coeff, layout = prime_major>
!e12 = !fhe.rns<logN = 12, basis = #r1, domain = eval, layout = prime_major>
// GPU-LABEL: func.func @six_ntts(
// GPU: fhe.fused {{ *}}rows
// GPULOOPS-LABEL: func.func @six_ntts(
// GPULOOPS: gpu.launch blocks({{.*}}) in ({{.*}}, %{{.*}} = %c1{{[_0-9]*}}) threads({{.*}}) {
// GPULOOPS: gpu.launch blocks({{.*}}) in ({{.*}}, %{{.*}} = %c6{{[_0-9]*}}) threads({{.*}}) workgroup(%{{[a-z0-9]+}} : memref<2304xi32, #gpu.address_space<workgroup>>) {
// GPULOOPS-NOT: modarith.mul_barrett
// GPULOOPS: call @fhec_rt_phase_end(%c1_i32{{[_0-9]*}})
// GPULOOPS: call @fhec_rt_phase_begin(%c2_i32{{[_0-9]*}})
// GPULOOPS: scf.parallel
// GPULOOPS-COUNT-3: modarith.mul_barrett
// GPULOOPS: call @fhec_rt_phase_end(%c2_i32{{[_0-9]*}})
func.func @six_ntts(%a: !c12, %b: !c12, %c: !c12, %d: !c12, %e: !c12, %f: !c12) -> (!e12, !e12, !e12) {
  %1 = fhe.ntt %a {levels = array<i64: 1, 11>} : !c12 -> !e12
  %2 = fhe.ntt %b {levels = array<i64: 1, 11>} : !c12 -> !e12
  %3 = fhe.ntt %c {levels = array<i64: 1, 11>} : !c12 -> !e12
  %4 = fhe.ntt %d {levels = array<i64: 1, 11>} : !c12 -> !e12
  %5 = fhe.ntt %e {levels = array<i64: 1, 11>} : !c12 -> !e12
  %6 = fhe.ntt %f {levels = array<i64: 1, 11>} : !c12 -> !e12
  %h1 = fhe.hadamard %1, %2 : !e12
  %h2 = fhe.hadamard %3, %4 : !e12
  %h3 = fhe.hadamard %5, %6 : !e12
  return %h1, %h2, %h3 : !e12, !e12, !e12
}
