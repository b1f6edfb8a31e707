// RUN: fhec-opt --fhe-to-loops %s | FileCheck %s
// RUN: fhec-opt --fhe-to-loops="phase-timers=false" %s | FileCheck %s --check-prefix=NOTIMERS

#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
!p = !fhe.poly<logN = 4, logq = 30>
!c = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>

// The module records its ABI manifest (parsed by the runtime).
// CHECK: fhec.entries = ["product"]
// CHECK-SAME: fhec.manifest = "fhec-manifest 1\0Aparams logN=4 logQ=0 logp=0\0Abasis id=0 primes=1048193,1048129,1047841\0Afunc name=product entry=__fhec_entry_product\0Aarg kind=table table=prime_consts basis=0 limbs=0
// CHECK-SAME: arg kind=poly dir=in logq=30 role=x\0Aarg kind=poly dir=in logq=30 role=y\0Aarg kind=poly dir=out logq=30 role=res0\0A"

// Tables come first (each with its kind and basis), then the inputs, then the
// results as out-parameters; the function returns nothing.
// CHECK-LABEL: func.func @product(
// CHECK-SAME: %[[CONSTS:[a-z0-9]+]]: memref<3x16xi64> {fhe.basis = #{{.*}}, fhe.limbs = 0 : i64, fhe.table = "prime_consts"}
// CHECK-SAME: memref<3x1xi64> {{{.*}}fhe.limbs = 1 : i64, fhe.table = "crt_powers"}
// CHECK-SAME: memref<3x16xi64> {{{.*}}fhe.table = "ntt_twiddles"}
// CHECK-SAME: memref<3x16xi64> {{{.*}}fhe.table = "ntt_twiddles_shoup"}
// CHECK-SAME: memref<3x16xi64> {{{.*}}fhe.table = "intt_twiddles"}
// CHECK-SAME: memref<3x16xi64> {{{.*}}fhe.table = "intt_twiddles_shoup"}
// CHECK-SAME: memref<3x1xi64> {{{.*}}fhe.table = "icrt_pdivp"}
// CHECK-SAME: memref<1xi64> {{{.*}}fhe.table = "icrt_p"}
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<16x1xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 4, logq = 30>}
// CHECK-SAME: %[[Y:[a-z0-9]+]]: memref<16x1xi64>
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: memref<16x1xi64> {fhe.output, fhe.role = "res0", fhe.type = !fhe.poly<logN = 4, logq = 30>})
// CHECK-NOT: -> 
//
// CRT (Algo. 1): coefficients in parallel, 3-word accumulation, Shoup reductions.
// CHECK: call @fhec_rt_phase_begin
// CHECK: scf.parallel
// CHECK: arith.mului_extended
// CHECK: arith.addui_extended
// CHECK: call @fhec_rt_phase_end
//
// NTT (Algo. 3): primes in parallel, log N stages, Shoup butterflies.
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.mului_extended
//
// iCRT (Algo. 5): the floating estimate of the multiple of P.
// CHECK: arith.uitofp
// CHECK: arith.fptoui
//
// The result lives in the out-parameter; temporaries are freed.
// CHECK: memref.store {{.*}}, %[[OUT]]
// CHECK: memref.dealloc
// CHECK: return
// CHECK-NOT: memref.copy {{.*}}, %[[OUT]]
//
// NOTIMERS-NOT: fhec_rt_phase
func.func @product(%x: !p {fhe.role = "x"}, %y: !p {fhe.role = "y"}) -> !p {
  %0 = fhe.crt %x : !p -> !c
  %1 = fhe.ntt %0 : !c -> !e
  %2 = fhe.crt %y : !p -> !c
  %3 = fhe.ntt %2 : !c -> !e
  %4 = fhe.hadamard %1, %3 : !e
  %5 = fhe.intt %4 : !e -> !c
  %6 = fhe.icrt %5 : !c -> !p
  return %6 : !p
}
