// RUN: fhec-opt %s --ckks-to-fhe -verify-diagnostics
// Two modules in one input parse as modules nested in an implicit one; the
// lowering creates its symbols at the top level, so it refuses them (a fuzz
// finding: the phase-timer calls of the inner kernels referenced nothing).

!p = !fhe.poly<logN = 8, logq = 120>
!c = !fhe.rns<logN = 8, basis = <min_bits = 260>, domain = coeff, layout = prime_major>
// expected-error @below {{fhec compiles one module per input; this one is nested in (or follows) another}}
module attributes {ckks.params = #ckks.params<logN = 8, logQ = 120, logp = 20, security = "none">} {
  func.func @crt(%x: !p {fhe.role = "x"}) -> !c {
    %c = fhe.crt %x : !p -> !c
    return %c : !c
  }
}
module {
}
