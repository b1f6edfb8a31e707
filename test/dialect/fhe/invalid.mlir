// RUN: fhec-opt %s -split-input-file -verify-diagnostics
// Every fhe verifier of bases, types, domain/basis/layout agreement and shapes
// (invalid-kernels.mlir: the kernel groups, tables and slot-level ops).

// expected-error @+2 {{failed to parse FHE_RnsType parameter 'basis'}}
// expected-error @+1 {{too few primes: the basis product is about 2^39, below the required 2^100}}
func.func private @few(!fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 100, prime_bits = 20, primes = [1048193, 1048129]>, domain = coeff, layout = prime_major>)

// -----
// expected-error @+2 {{failed to parse FHE_RnsType parameter 'basis'}}
// expected-error @+1 {{basis element 1048161 is not prime}}
func.func private @composite(!fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 10, prime_bits = 20, primes = [1048161]>, domain = coeff, layout = prime_major>)

// -----
// expected-error @+2 {{failed to parse FHE_RnsType parameter 'basis'}}
// expected-error @+1 {{prime #0 (1048193) does not have exactly 30 bits}}
func.func private @width(!fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 10, prime_bits = 30, primes = [1048193]>, domain = coeff, layout = prime_major>)

// -----
// expected-error @+2 {{failed to parse FHE_RnsType parameter 'basis'}}
// expected-error @+1 {{prime 1048193 appears twice in the basis}}
func.func private @twice(!fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 10, prime_bits = 20, primes = [1048193, 1048193]>, domain = coeff, layout = prime_major>)

// -----
// 1048193 - 1 = 2^7 * 8189: not 1 mod 2N for N = 2^7.
// expected-error @+1 {{prime 1048193 is not 1 mod 2N (N = 2^7)}}
func.func private @ntt_unfriendly(!fhe.rns<logN = 7, basis = #fhe.basis<min_bits = 10, prime_bits = 20, primes = [1048193]>, domain = coeff, layout = prime_major>)

// -----
// expected-error @+2 {{failed to parse FHE_RnsType parameter 'basis'}}
// expected-error @+1 {{basis bound min_bits = 0 is out of range [1, 16384]}}
func.func private @zero(!fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 0>, domain = coeff, layout = prime_major>)

// -----
// expected-error @+1 {{poly logN = 30 is outside [1, 17]}}
func.func private @ring(!fhe.poly<logN = 30, logq = 10>)

// -----
func.func @crt_domain(%x: !fhe.poly<logN = 4, logq = 10>) {
  // expected-error @+1 {{result must be in the coeff domain, got eval}}
  %0 = fhe.crt %x : !fhe.poly<logN = 4, logq = 10> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
  return
}

// -----
func.func @crt_ring(%x: !fhe.poly<logN = 5, logq = 10>) {
  // expected-error @+1 {{ring dimensions differ: logN 5 vs 4}}
  %0 = fhe.crt %x : !fhe.poly<logN = 5, logq = 10> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
  return
}

// -----
func.func @ntt_twice(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>) {
  // expected-error @+1 {{input must be in the coeff domain, got eval}}
  %0 = fhe.ntt %x : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
  return
}

// -----
func.func @ntt_basis(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{RNS bases differ}}
  %0 = fhe.ntt %x : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 40>, domain = eval, layout = prime_major>
  return
}

// -----
func.func @intt_domain(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{input must be in the eval domain, got coeff}}
  %0 = fhe.intt %x : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
  return
}

// -----
func.func @ntt_layout(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{layouts differ}}
  %0 = fhe.ntt %x : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = coeff_major>
  return
}

// -----
func.func @hadamard_coeff(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{operands must be in the eval domain, got coeff}}
  %0 = fhe.hadamard %x, %x : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
  return
}

// -----
func.func @hadamard_mixed(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>,
                          %y: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 40>, domain = eval, layout = prime_major>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "fhe.hadamard"(%x, %y) : (!fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>, !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 40>, domain = eval, layout = prime_major>) -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
  return
}

// -----
func.func @icrt_domain(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>) {
  // expected-error @+1 {{input must be in the coeff or coeff_scaled domain, got eval}}
  %0 = fhe.icrt %x : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major> -> !fhe.poly<logN = 4, logq = 10>
  return
}

// -----
func.func @icrt_bound(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{result modulus 2^40 exceeds the basis bound 2^30}}
  %0 = fhe.icrt %x : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major> -> !fhe.poly<logN = 4, logq = 40>
  return
}

// -----
func.func @icrt_round_without_shift(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{'round' needs a shift of at least one bit}}
  %0 = fhe.icrt %x {round} : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major> -> !fhe.poly<logN = 4, logq = 20>
  return
}

// -----
// The addend's bound (30 bits: below every target's primes), at the bound and one past it.
func.func @icrt_addend_bits(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 60>, domain = coeff, layout = prime_major>,
                            %e: !fhe.poly<logN = 4, logq = 30>, %f: !fhe.poly<logN = 4, logq = 31>) {
  %0 = fhe.icrt %x plus %e : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 60>, domain = coeff, layout = prime_major>, !fhe.poly<logN = 4, logq = 30> -> !fhe.poly<logN = 4, logq = 20>
  // expected-error @+1 {{addend of 31 bits: at most 30}}
  %1 = fhe.icrt %x plus %f : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 60>, domain = coeff, layout = prime_major>, !fhe.poly<logN = 4, logq = 31> -> !fhe.poly<logN = 4, logq = 20>
  return
}

// -----
func.func @icrt_addend_ring(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 60>, domain = coeff, layout = prime_major>,
                            %e: !fhe.poly<logN = 5, logq = 8>) {
  // expected-error @+1 {{ring}}
  %0 = fhe.icrt %x plus %e : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 60>, domain = coeff, layout = prime_major>, !fhe.poly<logN = 5, logq = 8> -> !fhe.poly<logN = 4, logq = 20>
  return
}

// -----
func.func @icrt_shift_bound(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{result modulus 2^20 times the shift 2^20 exceeds the basis bound 2^30}}
  %0 = fhe.icrt %x {shift = 20} : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major> -> !fhe.poly<logN = 4, logq = 20>
  return
}

// -----
func.func @transpose_same(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{result layout must differ from the input's}}
  %0 = fhe.transpose %x : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
  return
}

// -----
func.func @prefix_not_prefix(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 35, prime_bits = 20, primes = [1048193, 1048129]>, domain = eval, layout = prime_major>) {
  // expected-error @+1 {{result basis is not a prefix of the input basis}}
  %0 = fhe.basis_prefix %x : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 35, prime_bits = 20, primes = [1048193, 1048129]>, domain = eval, layout = prime_major> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048129]>, domain = eval, layout = prime_major>
  return
}

// -----
func.func @prefix_grows(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>) {
  // expected-error @+1 {{result basis bound 2^40 exceeds the input's 2^30}}
  %0 = fhe.basis_prefix %x : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 40>, domain = eval, layout = prime_major>
  return
}

// -----
func.func @shr_type(%x: !fhe.poly<logN = 4, logq = 30>) {
  // expected-error @+1 {{result logq must be 25 (input logq minus the shift)}}
  %0 = fhe.poly_shr %x {shift = 5 : i64} : !fhe.poly<logN = 4, logq = 30> -> !fhe.poly<logN = 4, logq = 20>
  return
}

// -----
func.func @shr_all(%x: !fhe.poly<logN = 4, logq = 30>) {
  // expected-error @+1 {{shift 40 must be in [1, logq = 30)}}
  %0 = fhe.poly_shr %x {shift = 40 : i64} : !fhe.poly<logN = 4, logq = 30> -> !fhe.poly<logN = 4, logq = 10>
  return
}

// -----
func.func @reduce_up(%x: !fhe.poly<logN = 4, logq = 30>) {
  // expected-error @+1 {{result modulus 2^31 exceeds the input's 2^30}}
  %0 = fhe.poly_reduce %x : !fhe.poly<logN = 4, logq = 30> -> !fhe.poly<logN = 4, logq = 31>
  return
}

// -----
func.func @add_scalar_too_wide(%x: !fhe.poly<logN = 4, logq = 30>) {
  // expected-error @+1 {{value must be in [0, 2^30)}}
  %0 = fhe.poly_add_scalar %x {value = 1073741824 : i64} : !fhe.poly<logN = 4, logq = 30>
  return
}

// -----
func.func @add_scalar_negative(%x: !fhe.poly<logN = 4, logq = 30>) {
  // expected-error @+1 {{value must be in [0, 2^30)}}
  %0 = fhe.poly_add_scalar %x {value = -1 : i64} : !fhe.poly<logN = 4, logq = 30>
  return
}

// -----
func.func @mod_raise_down(%x: !fhe.poly<logN = 4, logq = 30>) {
  // expected-error @+1 {{result modulus 2^30 must exceed the input's 2^30}}
  %0 = fhe.poly_mod_raise %x : !fhe.poly<logN = 4, logq = 30> -> !fhe.poly<logN = 4, logq = 30>
  return
}

// -----
func.func @poly_add_mixed(%x: !fhe.poly<logN = 4, logq = 30>, %y: !fhe.poly<logN = 4, logq = 31>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "fhe.poly_add"(%x, %y) : (!fhe.poly<logN = 4, logq = 30>, !fhe.poly<logN = 4, logq = 31>) -> !fhe.poly<logN = 4, logq = 30>
  return
}

// -----
// expected-error @+2 {{failed to parse FHE_RnsType parameter 'basis'}}
// expected-error @+1 {{expected 'min_bits'}}
func.func private @bad_syntax(!fhe.rns<logN = 4, basis = #fhe.basis<bits = 3>, domain = coeff, layout = prime_major>)

// -----
func.func @sub_mixed(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>,
                     %y: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "fhe.sub"(%x, %y) : (!fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>, !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>) -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
  return
}

// -----
func.func @add_mixed(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>,
                     %y: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = coeff_major>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "fhe.add"(%x, %y) : (!fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>, !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = coeff_major>) -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
  return
}

// -----
func.func @poly_sub_mixed(%x: !fhe.poly<logN = 4, logq = 30>, %y: !fhe.poly<logN = 5, logq = 30>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "fhe.poly_sub"(%x, %y) : (!fhe.poly<logN = 4, logq = 30>, !fhe.poly<logN = 5, logq = 30>) -> !fhe.poly<logN = 4, logq = 30>
  return
}

// -----
func.func @negate_changes_modulus(%x: !fhe.poly<logN = 4, logq = 30>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "fhe.poly_negate"(%x) : (!fhe.poly<logN = 4, logq = 30>) -> !fhe.poly<logN = 4, logq = 20>
  return
}

// -----
func.func @mul_scalar_float(%x: !fhe.poly<logN = 4, logq = 30>) {
  // expected-error @+1 {{attribute 'value' failed to satisfy constraint: arbitrary integer attribute}}
  %0 = fhe.poly_mul_scalar %x {value = 1.5 : f64} : !fhe.poly<logN = 4, logq = 30>
  return
}

// -----
func.func @add_constant_term_missing(%x: !fhe.poly<logN = 4, logq = 30>) {
  // expected-error @+1 {{requires attribute 'value'}}
  %0 = fhe.poly_add_constant_term %x : !fhe.poly<logN = 4, logq = 30>
  return
}

// -----
#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
func.func @levels_short(%x: !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{levels cover 3 stages, but the transform has 4 (logN 4 minus 0 skipped)}}
  %0 = fhe.ntt %x {levels = array<i64: 2, 1>} : !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major> -> !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>
  return
}

// -----
#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
func.func @levels_incomplete(%x: !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major, incomplete = 2>) {
  // expected-error @+1 {{level of 3 stages is outside [1, 2]}}
  %0 = fhe.intt %x {levels = array<i64: 3>} : !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major, incomplete = 2> -> !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
  return
}

// -----
#b = #fhe.basis<min_bits = 50, prime_bits = 20, primes = [1048193, 1048129, 1047841]>
func.func @level_zero(%x: !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{level of 0 stages is outside [1, 4]}}
  %0 = fhe.ntt %x {levels = array<i64: 0, 4>} : !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major> -> !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>
  return
}

// -----
// expected-error @+1 {{incomplete = 1 applies to the eval domain only}}
func.func @incomplete_coeff(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major, incomplete = 1>)

// -----
// expected-error @+1 {{incomplete = 4 must be below logN = 4}}
func.func @incomplete_all(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major, incomplete = 4>)

// -----
func.func @crt_block_zero(%x: !fhe.poly<logN = 4, logq = 10>) {
  // expected-error @+1 {{attribute 'block' failed to satisfy constraint}}
  %0 = fhe.crt %x {block = 0} : !fhe.poly<logN = 4, logq = 10> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
  return
}

// -----
func.func @crt_scaled(%x: !fhe.poly<logN = 4, logq = 10>) {
  // expected-error @+1 {{result must be in the coeff domain, got coeff_scaled}}
  %0 = fhe.crt %x : !fhe.poly<logN = 4, logq = 10> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff_scaled, layout = prime_major>
  return
}

// -----
// A huge basis bound would make fhe-select-basis search for hours.
// expected-error @+2 {{failed to parse FHE_RnsType parameter 'basis'}}
// expected-error @+1 {{basis bound min_bits = 4000000000 is out of range [1, 16384]}}
func.func private @huge_bound(!fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 4000000000>, domain = coeff, layout = prime_major>)

// -----
// A huge modulus would overflow the limb count of the BigInt kernels.
// expected-error @+1 {{poly logq = 20000 is outside [1, 16384]}}
func.func private @huge_poly(!fhe.poly<logN = 4, logq = 20000>)

// -----
// prime_bits without a list of primes.
// expected-error @+2 {{failed to parse FHE_RnsType parameter 'basis'}}
// expected-error @+1 {{prime_bits given without primes}}
func.func private @bits_no_primes(!fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 10, prime_bits = 20, primes = []>, domain = coeff, layout = prime_major>)

// -----
// Primes wider than the 62 bits the kernels' lazy reductions allow.
// expected-error @+2 {{failed to parse FHE_RnsType parameter 'basis'}}
// expected-error @+1 {{prime_bits = 63 is outside [4, 62]}}
func.func private @bits_too_wide(!fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 10, prime_bits = 63, primes = [3]>, domain = coeff, layout = prime_major>)

// -----
// 4097 primes, one over the limit (the values are not looked at).
// expected-error @+2 {{failed to parse FHE_RnsType parameter 'basis'}}
// expected-error @+1 {{basis of 4097 primes exceeds the limit of 4096}}
func.func private @too_many_primes(!fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 10, prime_bits = 2, primes = [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]>, domain = coeff, layout = prime_major>)

// -----
// expected-error @+1 {{rns logN = 30 is outside [1, 17]}}
func.func private @rns_ring(!fhe.rns<logN = 30, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>)

// -----
func.func @transpose_domain(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{domains differ}}
  %0 = fhe.transpose %x : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = coeff_major>
  return
}

// -----
func.func @intt_to_eval(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>) {
  // expected-error @+1 {{result must be in the coeff or coeff_scaled domain}}
  %0 = fhe.intt %x : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
  return
}

// -----
// A resolved basis viewed as an unresolved one.
func.func @prefix_unresolved(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 35, prime_bits = 20, primes = [1048193, 1048129]>, domain = eval, layout = prime_major>) {
  // expected-error @+1 {{input and result bases must both be resolved or both unresolved}}
  %0 = fhe.basis_prefix %x : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 35, prime_bits = 20, primes = [1048193, 1048129]>, domain = eval, layout = prime_major> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 15>, domain = eval, layout = prime_major>
  return
}

// -----
// logq + shift used to overflow int64 and pass the basis-bound check.
#b = #fhe.basis<min_bits = 30, prime_bits = 20, primes = [1048193, 1048129]>
func.func @huge_shift(%x: !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>) -> !fhe.poly<logN = 4, logq = 10> {
  // expected-error @+1 {{shift 9223372036854775807 is outside [0, 16384]}}
  %0 = fhe.icrt %x {shift = 9223372036854775807} : !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major> -> !fhe.poly<logN = 4, logq = 10>
  return %0 : !fhe.poly<logN = 4, logq = 10>
}
