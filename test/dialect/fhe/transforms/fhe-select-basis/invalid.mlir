// RUN: fhec-opt --fhe-select-basis %s -verify-diagnostics -split-input-file
// RUN: not fhec-opt --fhe-select-basis="prime-bits=20" %s -split-input-file 2>&1 | FileCheck %s --check-prefix=FEW
// RUN: not fhec-opt --fhe-select-basis="prime-bits=63" %s -split-input-file 2>&1 | FileCheck %s --check-prefix=WIDTH

module {
  func.func private @f(!fhe.rns<logN = 16, basis = #fhe.basis<min_bits = 200>, domain = coeff, layout = prime_major>)
}

// -----

// expected-error @+1 {{unknown target "tpu" in 'fhe.target' (expected one of cpu, cpu-avx512, cuda, cuda-emu)}}
module attributes {fhe.target = "tpu"} {
}

// With 20-bit primes only a few p = 1 mod 2^17 exist: too few for 2^200.
// FEW: error: fhe-select-basis: cannot build a basis of 2^200 from 20-bit primes: {{.*}}too few primes

// A prime-bits option the generator cannot honour (at most 62 bits).
// WIDTH: error: fhe-select-basis: prime-bits = 63 is outside [4, 62]
