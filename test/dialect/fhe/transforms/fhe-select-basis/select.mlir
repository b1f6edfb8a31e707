// RUN: fhec-opt --fhe-select-basis %s | FileCheck %s
// RUN: fhec-opt --fhe-select-basis="prime-bits=30" %s | FileCheck %s --check-prefix=P30
// RUN: fhec-opt --fhec-attach-target=name=cuda --fhe-select-basis %s | FileCheck %s --check-prefix=P30

// The shortest prefix of the 60-bit NTT primes (p = 1 mod 2^11, descending from 2^60)
// whose product reaches 2^100: two primes; 2^170 needs three, sharing the prefix.
// CHECK-DAG: #[[B100:.*]] = #fhe.basis<min_bits = 100, prime_bits = 60, primes = [[[P0:[0-9]+]], [[P1:[0-9]+]]]>
// CHECK-DAG: #[[B170:.*]] = #fhe.basis<min_bits = 170, prime_bits = 60, primes = [[[P0]], [[P1]], {{[0-9]+}}]>
// CHECK-DAG: #fhe.basis<min_bits = 10, prime_bits = 60, primes = [1152921504606748673]>
// P30: #fhe.basis<min_bits = 100, prime_bits = 30, primes = [{{([0-9]+, ){3}[0-9]+}}]>

// CHECK-LABEL: func.func @f
// CHECK: fhe.crt {{.*}}basis = #[[B100]]
// CHECK: fhe.crt {{.*}}basis = #[[B170]]
func.func @f(%x: !fhe.poly<logN = 10, logq = 40>) {
  %0 = fhe.crt %x : !fhe.poly<logN = 10, logq = 40> -> !fhe.rns<logN = 10, basis = #fhe.basis<min_bits = 100>, domain = coeff, layout = prime_major>
  %1 = fhe.crt %x : !fhe.poly<logN = 10, logq = 40> -> !fhe.rns<logN = 10, basis = #fhe.basis<min_bits = 170>, domain = coeff, layout = prime_major>
  return
}

// Bases already resolved are kept.
// CHECK-LABEL: @kept
func.func private @kept(!fhe.rns<logN = 10, basis = #fhe.basis<min_bits = 10, prime_bits = 60, primes = [1152921504606748673]>, domain = coeff, layout = prime_major>)
