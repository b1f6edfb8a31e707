// RUN: fhec-opt --fhe-insert-transposes="fold=false" %s | FileCheck %s --check-prefix=INSERT
// RUN: fhec-opt --fhe-insert-transposes %s | FileCheck %s --check-prefix=FOLD
// RUN: fhec-opt --fhec-attach-target=name=cuda --fhe-insert-transposes %s | FileCheck %s --check-prefix=CUDA
// RUN: fhec-opt --fhe-insert-transposes %s | fhec-opt | FileCheck %s --check-prefix=FOLD
// Layouts per op: CRT in Algo. 1 order writes (N, m) coefficient-major, in
// matrix order (m, N) prime-major; the NTTs need prime-major; iCRT reads
// coefficient-major. On cpu a strided access (1.1) beats a transpose
// (1 + 2.0) where a kernel's block covers a cache line (8 words): transposes
// fold into the iCRT's loads, not into the one-coefficient CRT's stores. On
// cuda a warp's 32 threads take 32 consecutive coefficients, so even the
// one-coefficient CRT's stores are coalesced: both fold.

#b = #fhe.basis<min_bits = 50>
!p = !fhe.poly<logN = 4, logq = 30>
!c = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>

// INSERT-LABEL: func.func @product(
// INSERT: %[[C:.*]] = fhe.crt %arg0 : {{.*}} -> <{{.*}}layout = coeff_major>
// INSERT: %[[T:.*]] = fhe.transpose %[[C]] : {{.*}}layout = coeff_major> -> <{{.*}}layout = prime_major>
// INSERT: fhe.ntt %[[T]]
// The matrix-form CRT already writes prime-major rows: no transpose.
// INSERT: %[[C2:.*]] = fhe.crt %arg1 {{.*}} -> <{{.*}}layout = prime_major>
// INSERT-NEXT: fhe.ntt %[[C2]]
// INSERT: %[[I:.*]] = fhe.intt
// INSERT: %[[T2:.*]] = fhe.transpose %[[I]] : {{.*}}layout = prime_major> -> <{{.*}}layout = coeff_major>
// INSERT: fhe.icrt %[[T2]]
// Folding is cheaper only for kernels working on blocks of at least a cache
// line of coefficients: the matrix-form iCRT reads prime-major rows directly,
// the Algo. 1 CRT (one coefficient at a time) keeps its transpose.
// FOLD-LABEL: func.func @product(
// FOLD: %[[C:.*]] = fhe.crt %arg0 : {{.*}} -> <{{.*}}layout = coeff_major>
// FOLD-NEXT: fhe.transpose %[[C]]
// FOLD: fhe.intt
// FOLD-NOT: fhe.transpose
// FOLD: fhe.icrt %{{.*}} {block = 16 : i64, order = #fhe<order matrix>} : <{{.*}}layout = prime_major>
// CUDA-LABEL: func.func @product(
// CUDA-NOT: fhe.transpose
// CUDA: fhe.crt %arg0 : {{.*}} -> <{{.*}}layout = prime_major>
// CUDA-NOT: fhe.transpose
// CUDA: fhe.icrt %{{.*}} : <{{.*}}layout = prime_major>
// CUDA-LABEL: func.func @returned(
func.func @product(%x: !p, %y: !p) -> !p {
  %0 = fhe.crt %x : !p -> !c
  %1 = fhe.ntt %0 : !c -> !e
  %2 = fhe.crt %y {order = #fhe<order matrix>, block = 4} : !p -> !c
  %3 = fhe.ntt %2 : !c -> !e
  %4 = fhe.hadamard %1, %3 : !e
  %5 = fhe.intt %4 : !e -> !c
  %6 = fhe.icrt %5 {order = #fhe<order matrix>, block = 16} : !c -> !p
  return %6 : !p
}

// A CRT result that is also returned: every user (the NTT and the return)
// reads the transposed value, so folding makes the CRT write the layout the
// signature promises.
// INSERT-LABEL: func.func @returned(
// INSERT: %[[T:.*]] = fhe.transpose
// INSERT: return %{{.*}}, %[[T]]
// FOLD-LABEL: func.func @returned(
// FOLD-NEXT: %[[C:.*]] = fhe.crt %arg0 {{.*}}layout = prime_major>
// FOLD-NEXT: fhe.ntt %[[C]]
// FOLD-NEXT: return %{{.*}}, %[[C]]
func.func @returned(%x: !p) -> (!e, !c) {
  %0 = fhe.crt %x {order = #fhe<order operand_scan>, block = 8} : !p -> !c
  %1 = fhe.ntt %0 : !c -> !e
  return %1, %0 : !e, !c
}

// A kernel fhe-fuse formed keeps its layouts (found by fhec-fuzz-mlir: a
// transpose inside a coefficient kernel does not verify).
#bf = #fhe.basis<min_bits = 50>
!pf = !fhe.poly<logN = 4, logq = 40>
!sf = !fhe.rns<logN = 4, basis = #bf, domain = coeff_scaled, layout = prime_major>
// INSERT-LABEL: func.func @fused_kept(
// INSERT-NOT: fhe.transpose
// INSERT: return
// FOLD-LABEL: func.func @fused_kept(
// FOLD-NOT: fhe.transpose
// FOLD: return
func.func @fused_kept(%x: !sf, %y: !pf) -> !pf {
  %0 = fhe.fused coefficient(%x, %y) : (!sf, !pf) -> !pf {
  ^bb0(%a: !sf, %b: !pf):
    %1 = fhe.icrt %a {block = 1 : i64, order = #fhe<order matrix>} : !sf -> !pf
    %2 = fhe.poly_add %1, %b : !pf
    fhe.yield %2 : !pf
  }
  return %0 : !pf
}
