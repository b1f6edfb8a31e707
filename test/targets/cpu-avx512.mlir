// RUN: fhec %s --target=cpu-avx512 -O0 --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: fhec %s --target=cpu-avx512 -O0 --emit=asm | FileCheck %s --check-prefix=ASM
// RUN: fhec %s --target=cpu-avx512 -O0 --emit=mlir | FileCheck %s --check-prefix=LOOPS
// RUN: fhec %s --target=cpu -O0 --emit=llvm | FileCheck %s --check-prefix=SCALAR
// RUN: fhec %s --target=cpu-avx512 -O0 --emit=mlir | FileCheck %s --check-prefix=LAZY
// RUN: fhec %s --target=cpu-avx512 -O0 --emit=mlir | FileCheck %s --check-prefix=H1
// RUN: fhec %s --target=cpu-avx512 -O0 --emit=mlir | FileCheck %s --check-prefix=WINO
// Every kernel family of the cpu-avx512 target is vector code with IFMA:
// generated LLVM IR calling the vpmadd52 intrinsics, no hand-written kernels.

!p = !fhe.poly<logN = 8, logq = 120>
!c = !fhe.rns<logN = 8, basis = <min_bits = 260>, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 8, basis = <min_bits = 260>, domain = eval, layout = prime_major>
module attributes {ckks.params = #ckks.params<logN = 8, logQ = 120, logp = 20, security = "none">} {
  func.func @crt(%x: !p {fhe.role = "x"}) -> !c {
    %c = fhe.crt %x {order = #fhe<order matrix>, block = 16} : !p -> !c
    return %c : !c
  }
  func.func @crt_lazy(%x: !p {fhe.role = "x"}) -> !c {
    %c = fhe.crt %x {order = #fhe<order matrix>, block = 16, lazy} : !p -> !c
    return %c : !c
  }
  func.func @crt_wide(%x: !fhe.poly<logN = 8, logq = 1200> {fhe.role = "x"}) -> !fhe.rns<logN = 8, basis = <min_bits = 1300>, domain = coeff, layout = prime_major> {
    %c = fhe.crt %x {order = #fhe<order matrix>, block = 16} : !fhe.poly<logN = 8, logq = 1200> -> !fhe.rns<logN = 8, basis = <min_bits = 1300>, domain = coeff, layout = prime_major>
    return %c : !fhe.rns<logN = 8, basis = <min_bits = 1300>, domain = coeff, layout = prime_major>
  }
  func.func @ntt(%x: !c {fhe.role = "x"}) -> !e {
    %e = fhe.ntt %x {levels = array<i64: 2, 6>} : !c -> !e
    return %e : !e
  }
  func.func @hadamard(%x: !e {fhe.role = "x"}, %y: !e {fhe.role = "y"}) -> !e {
    %h = fhe.hadamard %x, %y : !e
    return %h : !e
  }
  func.func @intt(%x: !e {fhe.role = "x"}) -> !c {
    %c = fhe.intt %x {levels = array<i64: 6, 2>} : !e -> !c
    return %c : !c
  }
  func.func @icrt(%x: !c {fhe.role = "x"}) -> !p {
    %r = fhe.icrt %x {order = #fhe<order matrix>, block = 16} : !c -> !p
    return %r : !p
  }
}
// LLVM-LABEL: define internal void @crt_kernel..omp_par(
// LLVM: call <8 x i64> @llvm.x86.avx512.vpmadd52l.uq.512(
// LLVM: call <8 x i64> @llvm.x86.avx512.vpmadd52h.uq.512(
// The NTT's levels are sub-kernels (fhec-outline-kernels): a strided level,
// then the tail, whose stages of stride < 8 run in registers with 8 x 8
// transposes (two-source shufflevectors).
// LLVM-LABEL: define internal fastcc void @ntt_kernel_kernel(
// LLVM: call <8 x i64> @llvm.x86.avx512.vpmadd52h.uq.512(
// LLVM-LABEL: define internal fastcc void @ntt_kernel_kernel_0(
// LLVM: call <8 x i64> @llvm.x86.avx512.vpmadd52h.uq.512(
// LLVM: shufflevector <8 x i64> %{{[0-9]+}}, <8 x i64> %{{[0-9]+}}, <8 x i32> <i32 0, i32 8,
// LLVM-LABEL: define internal void @hadamard_kernel..omp_par(
// LLVM: call <8 x i64> @llvm.x86.avx512.vpmadd52h.uq.512(
// LLVM-LABEL: define internal fastcc void @intt_kernel_kernel(
// LLVM: call <8 x i64> @llvm.x86.avx512.vpmadd52l.uq.512(
// LLVM: shufflevector <8 x i64> %{{[0-9]+}}, <8 x i64> %{{[0-9]+}}, <8 x i32> <i32 0, i32 8,
// LLVM-LABEL: define internal void @icrt_kernel..omp_par(
// LLVM: call <8 x i64> @llvm.x86.avx512.vpmadd52l.uq.512(
// LLVM: call <8 x i64> @llvm.x86.avx512.vpmadd52h.uq.512(
// ASM: vpmadd52luq {{.*}}%zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm{{[0-9]+}}
// ASM: vpmadd52huq {{.*}}%zmm
// The loop level: modarith on vector<8xi64>, lowered by modarith-to-avx512
// after this point; prime-major rows padded by three cache lines.
// LOOPS: modarith.mac_split {{.*}} : vector<8xi64>
// LOOPS: memref<{{[0-9]+}}x256xi64, strided<[280, 1]>>
// SCALAR-NOT: vpmadd52
// SCALAR-NOT: <8 x i64>
// The final reduction of the IFMA CRT: l + r1 + r2 < 12p to [0, p) by
// conditional subtractions of 8p, 4p, 2p (mod 2p, from 8 to 1) and p; a
// lazy CRT (an NTT's input) stops after 8p and 4p, in [0, 4p).
// LAZY-LABEL: func.func private @crt_kernel(
// LAZY: modarith.reduce {{.*}} {in = 8 : i64} : vector<8xi64>
// LAZY-NEXT: modarith.reduce {{.*}} : vector<8xi64>
// LAZY-LABEL: func.func private @crt_lazy_kernel(
// LAZY-NOT: modarith.reduce %{{[0-9]+}} mod %{{[0-9]+}} : vector<8xi64>
// LAZY: modarith.reduce {{.*}} {in = 8 : i64, out = 2 : i64} : vector<8xi64>
// LAZY-NOT: modarith.reduce %{{[0-9]+}} mod %{{[0-9]+}} : vector<8xi64>
// LAZY-LABEL: func.func @crt_lazy(
// The top part h1 of the IFMA CRT's high sum is below nd 2^(pb - 52): none
// for 3 digits (logq 120), at most 5 for 24 (logq 1200), reduced by a word
// multiply with beta^2 mod p instead of a Shoup product.
// H1-LABEL: func.func private @crt_kernel(
// H1-NOT: arith.muli {{.*}} : vector<8xi64>
// H1: modarith.mul_shoup
// H1-NOT: modarith.mul_shoup
// H1: modarith.reduce {{.*}} {in = 8 : i64} : vector<8xi64>
// H1-LABEL: func.func private @crt_wide_kernel(
// H1: modarith.mul_shoup
// H1-NOT: modarith.mul_shoup
// H1: arith.muli {{.*}} : vector<8xi64>
// H1-NOT: modarith.mul_shoup
// H1: modarith.reduce {{.*}} {in = 8 : i64} : vector<8xi64>
// H1-LABEL: func.func @crt_wide(
// The IFMA CRT in Winograd's inner-product form: 24 digits of 51 bits (logq
// 1200), their 12 pair products A per coefficient, then per prime one product
// of two sums per pair of digits, and an arithmetic shift for the signed
// accumulators.
// WINO-LABEL: func.func private @crt_wide_kernel(
// WINO-COUNT-12: modarith.mac_split
// WINO-NOT: modarith.mac_split
// WINO: scf.for
// WINO: arith.addi {{.*}} : vector<8xi64>
// WINO-NEXT: arith.addi {{.*}} : vector<8xi64>
// WINO-NEXT: modarith.mac_split
// WINO: arith.shrsi {{.*}} : vector<8xi64>
// WINO-LABEL: func.func @crt_wide(
// WINO-SAME: fhe.param = 24 : i64, fhe.table = "crt_winograd"
// The IFMA iCRT in the same form over pairs of primes: A's product of the two
// temps, then per column one product of two sums; the columns (51 bits) carry
// signed, with an arithmetic shift.
// WINO-LABEL: func.func private @icrt_kernel(
// WINO: scf.for
// WINO: modarith.mac_split
// WINO: arith.addi {{.*}} : vector<8xi64>
// WINO-NEXT: arith.addi {{.*}} : vector<8xi64>
// WINO-NEXT: modarith.mac_split
// WINO: arith.shrsi {{.*}} : vector<8xi64>
// WINO-LABEL: func.func @icrt(
// WINO-SAME: fhe.param = 3 : i64, fhe.table = "icrt_winograd"
