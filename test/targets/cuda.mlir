// RUN: fhec %s --target=cuda --emit=fhe | FileCheck %s --check-prefix=BASIS
// RUN: fhec %s --target=cuda --emit=mlir | FileCheck %s --check-prefix=LOOPS
// RUN: fhec %s --target=cuda --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=NTT-PTX < %t.ptx
// RUN: fhec %s --target=cuda --emit=llvm | FileCheck %s --check-prefix=HOST
// RUN: fhec run %s --target=cuda-emu | FileCheck %s --check-prefix=EMU
// RUN: not fhec %s --target=cuda --sanitize=thread -o %t.so 2>&1 | FileCheck %s --check-prefix=TSAN-TARGET
// TSAN-TARGET: error: --sanitize=thread instruments the cuda-emu target's kernels only (got --target=cuda)
// The cuda target: 30-bit primes (lazy [0, 4p) fits a 32-bit word), tables in
// Shoup base 2^32, 28-bit digits in the CRT, 30-bit columns in the iCRT;
// every parallel loop a grid of 256-thread blocks, each NTT level a launch
// whose sub-levels meet in shared memory, all kernels in one PTX module
// embedded in the host code, launched through the runtime; cuda-emu runs the
// same grids on the CPU.

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
// LOOPS: fhec-manifest {{[0-9]+}}\0Atarget name=cuda kernels=cuda shoup_bits=32
// The evaluation key, prepared by the module, in 32-bit residue words.
// LOOPS-SAME: arg kind=rns dir=in basis={{[0-9]+}} bits=32 role=evk.ax
// The CRTs of the product's four inputs: one launch (fhe-fuse's GPU batch),
// blocks (tile, prime group, member), picking their buffers by member; a
// block of 256 threads is a tile of 64 coefficients x at most 32 primes (the
// 8 primes here: the fewest groups of at most 8 a thread, balanced), its 28-bit
// digits (a row of 20 words for each coefficient's four: a staged run of 16,
// then an odd number of 16-byte groups), 2^(28k) rows and the four prime
// constants of the final reduction staged in shared memory, no per-thread
// array in local memory; each product of a digit and a power one
// mul.wide.u32 (test/targets/cuda-crt-digits.mlir has the sums).
// LOOPS: gpu.launch blocks({{.*}}) in ({{.*}} = %c4{{.*}}, {{.*}}, {{.*}} = %c4{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}) workgroup(%{{.*}} : memref<64x20xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x4xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x4xi64, #gpu.address_space<workgroup>>)
// LOOPS-NOT: memref.alloca
// LOOPS: arith.select
// LOOPS: gpu.barrier
// LOOPS-NOT: memref.alloca
// A thread's four digits of its coefficient and four powers of a prime: a
// 16-byte vector load each.
// LOOPS: vector.load %{{.*}} {alignment = 16 : i64} : memref<64x20xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// LOOPS: %[[PW:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<8x4xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// LOOPS-NEXT: %[[P0:.*]] = vector.extract %[[PW]][0]
// LOOPS-NEXT: %[[S:.*]] = arith.extui %[[P0]] : i32 to i64
// LOOPS: arith.muli %{{.*}}, %[[S]] : i64
// LOOPS: gpu.terminator
// The four forward NTTs of 2^8 and the Hadamard chain they feed, one launch
// (blocks (tile, prime)): each NTT in one level (fhe-merge-ntt-levels), 32
// threads of 8 residues, sub-levels of 3, 3 and 2 stages through a tile of
// 256 32-bit words (288 with the padding), one tile per NTT. A thread's 2^d
// consecutive twiddles of sub-stage d, each with its Shoup constant (one
// 64-bit word read as two 32-bit halves), are one vector load. The products
// are then computed from the four tiles, a thread's positions those of a
// coalesced copy, and only they are stored.
// LOOPS: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c32{{.*}}, {{.*}}) workgroup(%{{.*}} : memref<288xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<288xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<288xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<288xi32, #gpu.address_space<workgroup>>)
// LOOPS-NOT: arith.select
// LOOPS: vector.load %{{.*}} {alignment = 8 : i64} : memref<8x512xi32>, vector<2xi32>
// LOOPS: vector.load %{{.*}} {alignment = 16 : i64} : memref<8x512xi32>, vector<4xi32>
// LOOPS: gpu.barrier
// LOOPS: gpu.barrier
// LOOPS: modarith.mul_barrett
// LOOPS-NOT: gpu.barrier
// LOOPS: gpu.terminator
// The iCRT of the product's first part (its CRT into the key basis a launch
// of its own): a tiled matrix product, 8 blocks of 256 threads owning 32
// coefficients each; the iNTT's prime-major rows read in place (no
// transpose kernel: a warp reads 32 coefficients of a row), temp_j and the
// column digits staged in shared memory as 32-bit words, no per-thread
// array in local memory; four products temp_j d (mul.wide.u32, a column's
// four digits one vector load) per 64-bit sum, added to the column's sum
// with its carry out counted.
// BASIS-NOT: fhe.transpose
// LOOPS: gpu.launch blocks({{.*}}) in ({{.*}} = %c8{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}) workgroup(%{{.*}} : memref<8x32xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<40x32xi32, #gpu.address_space<workgroup>>
// LOOPS-NOT: memref.alloca
// LOOPS: memref.load %{{.*}} : memref<8x32xi32, #gpu.address_space<workgroup>>
// LOOPS-NEXT: arith.extui %{{.*}} : i32 to i64
// LOOPS: %[[DV:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<40x32xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// LOOPS: %[[D:.*]] = arith.extui %{{.*}} : i32 to i64
// LOOPS: arith.muli %{{.*}}, %[[D]] : i64
// LOOPS: arith.addui_extended
// LOOPS: gpu.terminator

// One module for sm_90 (the chip's minimum PTX version). The CRT reads
// 64-bit BigInt limbs and stores 32-bit residues, each one access (none
// split into narrower ones).
// PTX: .version 7.8
// PTX: .target sm_90
// PTX: .visible .entry he_mul_kernel(
// PTX: ld.global.b64
// PTX: st.global.b32
// PTX-NOT: {{(ld|st)}}.global.{{(b|u)(8|16)}}
// The NTT's tile in shared memory (every shared buffer 16-byte aligned, for
// vector loads), 32-bit shared accesses, barriers.
// PTX-NOT: .shared .align {{[1-9]}} .b8
// PTX: .shared .align 16 .b8 {{.*}}[1152];
// PTX: st.shared.b32
// PTX: bar.sync 0;
// PTX: ld.shared.b32
// Every Shoup product of the forward NTTs a mul.hi.u32: no 64-bit multiply
// (the twiddles and constants are read as 32-bit halves) in the four
// transforms, which go through each sub-level together (two barriers),
// before the products' barrier.
// NTT-PTX: .entry he_mul_kernel_0(
// NTT-PTX-NOT: mul.lo.s64
// NTT-PTX: mul.hi.u32
// NTT-PTX-NOT: mul.lo.s64
// NTT-PTX: bar.sync
// NTT-PTX-NOT: mul.lo.s64
// NTT-PTX: bar.sync
// NTT-PTX-NOT: mul.lo.s64
// NTT-PTX: bar.sync
// NTT-PTX-NOT: bar.sync
// NTT-PTX: .entry he_mul_kernel_1(

// HOST: @__fhec_gpu_ptx = constant
// The CRT batch: 4 tiles x 1 group of 8 primes x 4 inputs, blocks of 256
// threads, 10 arguments (the prime count, 4 inputs, 4 results, 2 tables).
// HOST: call void @fhec_rt_gpu_cuda_launch(ptr nonnull @__fhec_gpu_ptx, ptr nonnull @__fhec_gpu_name_he_mul_kernel, i64 4, i64 1, i64 4, i64 256, i64 1, i64 1, i64 0, ptr nonnull %{{[0-9]+}}, i32 10)
// HOST-NOT: omp

// EMU: --target=cuda-emu
// EMU: GMP reference [0]: bit-identical
// EMU: PASS
