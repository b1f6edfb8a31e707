// fhe-merge-ntt-levels on an NTT whose result type is already incomplete
// (incomplete = 1: 3 of logN = 4 stages): the pass sets levels covering all 4
// stages, and its output fails the verifier ("level of 4 stages is outside
// [1, 3]"). It should count the type's stages or refuse the module.
#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
!p = !fhe.poly<logN = 4, logq = 30>
!c = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
!i = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major, incomplete = 1>
module attributes {ckks.params = #ckks.params<logN = 4, logQ = 30, logp = 10, security = "none">} {
  func.func @f(%x: !p) -> !p {
    %0 = fhe.crt %x : !p -> !c
    %1 = fhe.ntt %0 : !c -> !i
    %2 = fhe.hadamard %1, %1 : !i
    %3 = fhe.intt %2 : !i -> !c
    %4 = fhe.icrt %3 : !c -> !p
    return %4 : !p
  }
}
