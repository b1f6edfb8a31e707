// RUN: fhec %s --target=cuda --emit=mlir | FileCheck %s
// RUN: fhec run %s --target=cuda-emu | FileCheck %s --check-prefix=EMU
// The GPU CRT's tiled form reads 28-bit digits, so that a residue's products
// (below 2^58 with 30-bit primes) share one 64-bit sum with no carry to split
// off: 64 of them, and the residue carried from the sum before. At logq 1850
// a coefficient has 67 digits: two sums of 9 chunks of four (the powers
// zero-padded to 72), each ending in a wide reduction (two Shoup products),
// the last one the CRT's. Its 67th digit reaches past the 29 limbs (bits 1848
// .. 1875), where the staging has zeros. cuda-emu runs the same kernels:
// bit-identical to the GMP reference, the centered CRTs of the key switch
// included.

!ct = !ckks.ct<logN = 8, logq = 1850, logp = 30, slots = 64>
!ct60 = !ckks.ct<logN = 8, logq = 1850, logp = 60, slots = 64>
!out = !ckks.ct<logN = 8, logq = 1820, logp = 30, slots = 64>

module attributes {ckks.params = #ckks.params<logN = 8, logQ = 1850, logp = 30, security = "none">} {
  func.func @he_mul(%a: !ct, %b: !ct) -> !out {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct60
    %1 = ckks.rescale %0 : !ct60 -> !out
    return %1 : !out
  }
}
// The table: 2^(28 k) mod p_j for the 67 digits.
// CHECK: table=crt_powers28 basis={{[0-9]+}} param=67
// A tile of 64 coefficients' digits (rows of 84 words: 5 runs of 16 digits,
// an odd number of 16-byte groups), the group's powers, its primes' four
// reduction constants.
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c256{{.*}}) workgroup(%{{.*}} : memref<64x84xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x72xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x4xi64, #gpu.address_space<workgroup>>)
// The limbs' halves copied in (coalesced), zeros after them (the 67th digit
// reaches past the 29 limbs); a thread's run of 16 digits is 14 halves, seven
// 8-byte loads, in two rounds (320 runs; the second's items past them read
// the last run, run 4, and write nothing), then the digits over them.
// CHECK: gpu.barrier
// CHECK-COUNT-7: vector.load %{{.*}} {alignment = 8 : i64} : memref<64x84xi32, #gpu.address_space<workgroup>>, vector<2xi32>
// CHECK: arith.minui %{{.*}}, %c4 : index
// CHECK-COUNT-7: vector.load %{{.*}} {alignment = 8 : i64} : memref<64x84xi32, #gpu.address_space<workgroup>>, vector<2xi32>
// CHECK: gpu.barrier
// CHECK: arith.shrui %{{.*}}, %c28_i32 : i32
// CHECK: scf.if
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c9 step %c1 iter_args
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<64x84xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// The chunk's products add to the sum, no shift or split between them.
// CHECK-NOT: arith.shrui
// CHECK: scf.yield
// CHECK: modarith.mul_shoup %{{.*}} {out = 2 : i64} : i64
// CHECK: modarith.mul_shoup %{{.*}}, %c1_i64, %{{.*}} {out = 2 : i64} : i64
// CHECK-NEXT: arith.addi
// CHECK: scf.yield
// CHECK: gpu.terminator

// EMU: GMP reference [0]: bit-identical
// EMU: PASS
