// RUN: fhec-opt --fhe-merge-ntt-levels %s | FileCheck %s
// RUN: fhec-opt --fhec-attach-target=name=cuda --fhe-merge-ntt-levels %s | FileCheck %s --check-prefix=CUDA
// RUN: fhec-opt --fhe-merge-ntt-levels="radix-log=5" %s | FileCheck %s --check-prefix=RADIX
// RUN: fhec-opt --fhe-merge-ntt-levels="levels=2,14" %s | FileCheck %s --check-prefix=LEVELS
// RUN: fhec-opt --fhe-merge-ntt-levels="skip-levels=1" %s | FileCheck %s --check-prefix=SKIP
// RUN: fhec-opt --fhe-merge-ntt-levels="skip-levels=1" %s | fhec-opt | FileCheck %s --check-prefix=SKIP
// The level grouping of every NTT/iNTT: the cpu cost model keeps a tail
// level of 12 stages (2^12-word blocks in L1) and groups the other 4 in one
// strided level; the inverse uses the levels in reverse order.

#b = #fhe.basis<min_bits = 50>
!c = !fhe.rns<logN = 16, basis = #b, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 16, basis = #b, domain = eval, layout = prime_major>

// CHECK: fhe.ntt %{{.*}} {levels = array<i64: 4, 12>}
// CHECK: fhe.hadamard
// CHECK: fhe.intt %{{.*}} {levels = array<i64: 12, 4>}
// CUDA: fhe.ntt %{{.*}} {levels = array<i64: 5, 11>}
// CUDA: fhe.intt %{{.*}} {levels = array<i64: 11, 5>}
// RADIX: fhe.ntt %{{.*}} {levels = array<i64: 5, 5, 5, 1>}
// RADIX: fhe.intt %{{.*}} {levels = array<i64: 1, 5, 5, 5>}
// LEVELS: fhe.ntt %{{.*}} {levels = array<i64: 2, 14>}
// LEVELS: fhe.intt %{{.*}} {levels = array<i64: 14, 2>}
// An incomplete NTT: 15 stages, every evaluation-domain value (the argument
// too) becomes pairs of coefficients.
// SKIP-LABEL: func.func @product(
// SKIP-SAME: %{{.*}}: !fhe.rns<{{.*}}domain = eval, layout = prime_major, incomplete = 1>
// SKIP: fhe.ntt %{{.*}} {levels = array<i64: 3, 12>} : {{.*}} -> <{{.*}}domain = eval, layout = prime_major, incomplete = 1>
// SKIP: fhe.hadamard %{{.*}} : <{{.*}}incomplete = 1>
// SKIP: fhe.intt %{{.*}} {levels = array<i64: 12, 3>}
func.func @product(%x: !c, %k: !e) -> !c {
  %0 = fhe.ntt %x : !c -> !e
  %1 = fhe.hadamard %0, %k : !e
  %2 = fhe.intt %1 : !e -> !c
  return %2 : !c
}
