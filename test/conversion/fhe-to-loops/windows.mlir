// RUN: fhec-opt --fhe-to-loops --canonicalize --cse %s | FileCheck %s --check-prefix=CPU
// RUN: fhec-opt --fhec-attach-target=name=cpu-avx512 --fhe-to-loops --canonicalize --cse %s | FileCheck %s --check-prefix=IFMA
// RUN: not fhec-opt --fhec-attach-target=name=cuda --fhe-to-loops %s 2>&1 | FileCheck %s --check-prefix=GPU
// Bit-windows: a CRT of bits [70, 100) of a 100-bit polynomial, and the
// icrt_sum that adds window products at their offsets (the client's
// decryption). The 64-bit form reads the window's limbs shifted into place
// and sums each window's Algo. 5 reconstruction; the IFMA form reads 51-bit
// digits from the window and adds each window's band of 51-bit columns
// (IcrtWindow table, param = offset mod 51).

#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
!p = !fhe.poly<logN = 4, logq = 100>
!c = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
!s = !fhe.rns<logN = 4, basis = #b, domain = coeff_scaled, layout = prime_major>

// 30 bits from bit 70: one limb, limb 1 shifted right by 6 (its next limb is
// past the top: none).
// CPU-LABEL: func.func @crt_window(
// CPU: fhe.table "crt_powers" #{{.*}} param 1 : memref<3x1xi64>
// CPU: arith.shrui %{{.*}}, %c6_i64 : i64
// CPU: arith.andi %{{.*}}, %c1073741823_i64 : i64
// IFMA-LABEL: func.func @crt_window(
// IFMA: fhe.table "crt_winograd" #{{.*}} param 2 : memref<3x4xi64>
func.func @crt_window(%x: !p) -> !c {
  %0 = fhe.crt %x {window = array<i64: 70, 30>, order = #fhe<order matrix>, block = 16} : !p -> !c
  return %0 : !c
}

// CPU-LABEL: func.func @icrt_sum(
// CPU-DAG: fhe.table "icrt_p" #{{.*}} param 0 : memref<1x1xi64>
// CPU-DAG: fhe.table "icrt_pdivp" #{{.*}} param 0 : memref<3x1xi64>
// CPU: call @fhec_rt_phase_begin(%c4_i32)
// CPU: arith.shli %{{.*}}, %c6_i64 : i64
// CPU: call @fhec_rt_phase_end(%c4_i32)
// IFMA-LABEL: func.func @icrt_sum(
// IFMA-DAG: fhe.table "icrt_window" #{{.*}} param 0 : memref<2x6xi64>
// IFMA-DAG: fhe.table "icrt_window" #{{.*}} param 19 : memref<2x6xi64>
// IFMA: modarith.mac_split
// GPU: error: 'fhe.icrt_sum' op has no GPU lowering: it runs on CPU targets
func.func @icrt_sum(%x: !s, %y: !c, %b: !p) -> !p {
  %0 = fhe.icrt_sum %x, %y plus %b {offsets = array<i64: 0, 70>, block = 16} : !s, !c plus !p -> !p
  return %0 : !p
}
