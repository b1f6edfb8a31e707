// RUN: fhec-opt --fhec-attach-target=name=cpu --fhe-to-loops="phase-timers=false" --canonicalize --cse %s | FileCheck %s --check-prefix=NATURAL
// RUN: fhec-opt --fhec-attach-target=name=cpu-avx512 --fhe-to-loops="phase-timers=false" --canonicalize --cse %s | FileCheck %s --check-prefix=TRANSPOSED
// An evaluation-domain automorphism is a permutation of the NTT's slots, so it
// must read them in the order the target's NTT leaves them. On cpu-avx512 (8
// lanes) from N = 2^6 on, that is the transposed order of the radix-8 tail:
// within each group of 64, natural element 8 b + e sits at 8 e + b. The
// kernel maps each output position to the natural order (low 3 bits << 3 |
// next 3 bits, the group kept), finds the source slot there (2 brv(t) + 1
// times g), and maps it back. Without it, hoisted rotations on IFMA differed
// from every other target (found on a lent Intel Xeon, 2026-11-26).

#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1047041, 1046657]>
!e6 = !fhe.rns<logN = 6, basis = #b, domain = eval, layout = prime_major>
!e5 = !fhe.rns<logN = 5, basis = #b, domain = eval, layout = prime_major>

// NATURAL-LABEL: func.func @rotate64(
// NATURAL: scf.for %[[T:.*]] = %c0 to %c64 step %c1 {
// NATURAL-NEXT: %[[S:.*]] = arith.index_cast %[[T]] : index to i64
// NATURAL-NEXT: arith.shrui %[[S]], %c1_i64 : i64
// NATURAL-NEXT: arith.andi
// NATURAL-NEXT: arith.andi %[[S]], %c6148914691236517205_i64 : i64
// NATURAL-NOT: %c-64_i64
// NATURAL: memref.store
// TRANSPOSED-LABEL: func.func @rotate64(
// TRANSPOSED: scf.for %[[T:.*]] = %c0 to %c64 step %c1 {
// TRANSPOSED-NEXT: %[[S:.*]] = arith.index_cast %[[T]] : index to i64
// TRANSPOSED-NEXT: %[[E:.*]] = arith.andi %[[S]], %c7_i64 : i64
// TRANSPOSED-NEXT: %[[B1:.*]] = arith.shrui %[[S]], %c3_i64 : i64
// TRANSPOSED-NEXT: %[[B:.*]] = arith.andi %[[B1]], %c7_i64 : i64
// TRANSPOSED-NEXT: %[[E8:.*]] = arith.shli %[[E]], %c3_i64 : i64
// TRANSPOSED-NEXT: %[[LOW:.*]] = arith.ori %[[E8]], %[[B]] : i64
// TRANSPOSED-NEXT: %[[G:.*]] = arith.andi %[[S]], %c-64_i64 : i64
// TRANSPOSED-NEXT: %[[NAT:.*]] = arith.ori %[[G]], %[[LOW]] : i64
// TRANSPOSED-NEXT: arith.shrui %[[NAT]], %c1_i64 : i64
// TRANSPOSED-NEXT: arith.andi
// TRANSPOSED-NEXT: arith.andi %[[NAT]], %c6148914691236517205_i64 : i64
// The source slot (after the product by g) goes back to the transposed order.
// TRANSPOSED: arith.muli
// TRANSPOSED: %[[SRC:.*]] = arith.shrui %{{.*}}, %c58_i64 : i64
// TRANSPOSED-NEXT: arith.andi %[[SRC]], %c7_i64 : i64
// TRANSPOSED: arith.andi %[[SRC]], %c-64_i64 : i64
// TRANSPOSED: memref.store
func.func @rotate64(%x: !e6) -> !e6 {
  %0 = fhe.automorphism %x {galois = 5 : i64} : !e6
  return %0 : !e6
}

// Below 2^6 the NTT has no transposed tail: natural order on both targets.
// NATURAL-LABEL: func.func @rotate32(
// TRANSPOSED-LABEL: func.func @rotate32(
// TRANSPOSED: scf.for %[[T:.*]] = %c0 to %c32 step %c1 {
// TRANSPOSED-NEXT: %[[S:.*]] = arith.index_cast %[[T]] : index to i64
// TRANSPOSED-NEXT: arith.shrui %[[S]], %c1_i64 : i64
// TRANSPOSED-NEXT: arith.andi
// TRANSPOSED-NEXT: arith.andi %[[S]], %c6148914691236517205_i64 : i64
// TRANSPOSED-NOT: %c-64_i64
// TRANSPOSED: return
func.func @rotate32(%x: !e5) -> !e5 {
  %0 = fhe.automorphism %x {galois = 5 : i64} : !e5
  return %0 : !e5
}
