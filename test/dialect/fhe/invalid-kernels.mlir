// RUN: fhec-opt %s -split-input-file -verify-diagnostics
// Every fhe verifier of the kernel groups (fused, rows, transform), tables,
// automorphisms, windowed CRT/iCRT sums and constants (invalid.mlir: bases and types).

!e = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
func.func @fused_bad_op(%x: !e) {
  %0 = fhe.fused residue (%x) : (!e) -> (!e) {
  ^bb0(%a: !e):
    // expected-error @+1 {{'fhe.intt' op cannot be fused in a residue kernel}}
    %c = fhe.intt %a : !e -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
    %d = fhe.add %a, %a : !e
    fhe.yield %d : !e
  }
  return
}

// -----
// A residue kernel's automorphism gathers from a kernel operand, not from a
// value the kernel computes (another thread's element).
!e = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
func.func @fused_gather_of_computed(%x: !e) {
  %0 = fhe.fused residue (%x) : (!e) -> (!e) {
  ^bb0(%a: !e):
    %h = fhe.hadamard %a, %a : !e
    // expected-error @+1 {{'fhe.automorphism' op in a residue kernel must permute a kernel operand's prime-major slots of a complete NTT}}
    %r = fhe.automorphism %h {galois = 5 : i64} : !e
    fhe.yield %r : !e
  }
  return
}

// -----
// A gather reads one residue per element: no incomplete NTT's elements beside it.
!e = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
!ei = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major, incomplete = 1>
func.func @fused_gather_beside_incomplete(%x: !e, %y: !ei) {
  // expected-error @+1 {{a residue kernel with an automorphism works on prime-major residues of complete NTTs only}}
  %0:2 = fhe.fused residue (%x, %y) : (!e, !ei) -> (!e, !ei) {
  ^bb0(%a: !e, %b: !ei):
    %r = fhe.automorphism %a {galois = 5 : i64} : !e
    %h = fhe.hadamard %r, %a : !e
    %s = fhe.add %b, %b : !ei
    fhe.yield %h, %s : !e, !ei
  }
  return
}

// -----
!c = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
func.func @fused_gather_of_coefficients(%x: !c) {
  %0 = fhe.fused residue (%x) : (!c) -> (!c) {
  ^bb0(%a: !c):
    // expected-error @+1 {{'fhe.automorphism' op in a residue kernel must permute a kernel operand's prime-major slots of a complete NTT}}
    %r = fhe.automorphism %a {galois = 5 : i64} : !c
    %s = fhe.add %r, %a : !c
    fhe.yield %s : !c
  }
  return
}

// -----
!c = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
func.func @transform_mixed(%x: !c, %y: !e) {
  // expected-error @+1 {{a transform kernel batches transforms of one direction, type and level grouping}}
  %0:2 = fhe.fused transform (%x, %y) : (!c, !e) -> (!e, !c) {
  ^bb0(%a: !c, %b: !e):
    %n = fhe.ntt %a : !c -> !e
    %i = fhe.intt %b : !e -> !c
    fhe.yield %n, %i : !e, !c
  }
  return
}

// -----
!c = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
func.func @transform_bad_op(%x: !e) {
  %0 = fhe.fused transform (%x) : (!e) -> (!e) {
  ^bb0(%a: !e):
    // expected-error @+1 {{'fhe.hadamard' op cannot be fused in a transform kernel}}
    %h = fhe.hadamard %a, %a : !e
    fhe.yield %h : !e
  }
  return
}

// -----
!c = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
func.func @rows_bad_op(%x: !c) {
  %0 = fhe.fused rows (%x) : (!c) -> (!c) {
  ^bb0(%a: !c):
    // expected-error @+1 {{'fhe.fused' op cannot be fused in a rows kernel}}
    %p = fhe.fused coefficient (%a) : (!c) -> !fhe.poly<logN = 4, logq = 10> {
    ^bb1(%b: !c):
      %i = fhe.icrt %b : !c -> !fhe.poly<logN = 4, logq = 10>
      fhe.yield %i : !fhe.poly<logN = 4, logq = 10>
    }
    %q = fhe.crt %p : !fhe.poly<logN = 4, logq = 10> -> !c
    fhe.yield %q : !c
  }
  return
}

// -----
!e = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
!m = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = coeff_major>
func.func @rows_coeff_major(%x: !m) {
  // expected-error @+1 {{a rows kernel's operands and results must be prime-major RNS values of one basis}}
  %0 = fhe.fused rows (%x) : (!m) -> (!m) {
  ^bb0(%a: !m):
    %h = fhe.hadamard %a, %a : !m
    fhe.yield %h : !m
  }
  return
}

// -----
!e = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
!f = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 60>, domain = eval, layout = prime_major>
func.func @rows_two_bases(%x: !e, %y: !f) {
  // expected-error @+1 {{a rows kernel's operands and results must be prime-major RNS values of one basis}}
  %0:2 = fhe.fused rows (%x, %y) : (!e, !f) -> (!e, !f) {
  ^bb0(%a: !e, %b: !f):
    %h = fhe.hadamard %a, %a : !e
    %g = fhe.hadamard %b, %b : !f
    fhe.yield %h, %g : !e, !f
  }
  return
}

// -----
!e = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
func.func @fused_yields_operand(%x: !e) {
  // expected-error @+1 {{yields an operand unchanged; a fused kernel computes its results}}
  %0 = fhe.fused residue (%x) : (!e) -> (!e) {
  ^bb0(%a: !e):
    fhe.yield %a : !e
  }
  return
}

// -----
!e = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
func.func @fused_arg_type(%x: !e) {
  // expected-error @+1 {{body argument #0 has type}}
  %0 = fhe.fused residue (%x) : (!e) -> (!e) {
  ^bb0(%a: !fhe.poly<logN = 4, logq = 10>):
    %d = fhe.poly_add %a, %a : !fhe.poly<logN = 4, logq = 10>
    fhe.yield %d : !fhe.poly<logN = 4, logq = 10>
  }
  return
}

// -----
!e = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
!f = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 40>, domain = eval, layout = prime_major>
func.func @fused_two_bases(%x: !e, %y: !f) {
  // expected-error @+1 {{a residue kernel's operands and results must be RNS values of one basis}}
  %0 = fhe.fused residue (%x, %y) : (!e, !f) -> (!e) {
  ^bb0(%a: !e, %b: !f):
    %d = fhe.add %a, %a : !e
    fhe.yield %d : !e
  }
  return
}

// -----
!p = !fhe.poly<logN = 4, logq = 10>
func.func @fused_empty(%x: !p) {
  // expected-error @+1 {{needs operands and results}}
  fhe.fused coefficient (%x) : (!p) -> () {
  ^bb0(%a: !p):
    fhe.yield
  }
  return
}

// -----
!p = !fhe.poly<logN = 4, logq = 10>
func.func @fused_coefficient_rings(%x: !p, %y: !fhe.poly<logN = 5, logq = 10>) {
  // expected-error @+1 {{mixes ring dimensions}}
  %0 = fhe.fused coefficient (%x, %y) : (!p, !fhe.poly<logN = 5, logq = 10>) -> (!p) {
  ^bb0(%a: !p, %b: !fhe.poly<logN = 5, logq = 10>):
    %d = fhe.poly_add %a, %a : !p
    fhe.yield %d : !p
  }
  return
}

// -----
func.func @table_kind() {
  // expected-error @+1 {{unknown table kind 'twiddles'}}
  %t = fhe.table "twiddles" #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048193]> param 0 : memref<1x16xi64>
  return
}

// -----
func.func @table_unresolved() {
  // expected-error @+1 {{needs a resolved basis (run fhe-select-basis first)}}
  %t = fhe.table "ntt_twiddles" #fhe.basis<min_bits = 15> param 0 : memref<1x16xi64>
  return
}

// -----
func.func @table_rows() {
  // expected-error @+1 {{table has 2 rows for a basis of 1 primes}}
  %t = fhe.table "ntt_twiddles" #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048193]> param 0 : memref<2x16xi64>
  return
}

// -----
func.func @table_limbs() {
  // expected-error @+1 {{keeps 2 limbs of a product of 1}}
  %t = fhe.table "icrt_p" #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048193]> param 2 : memref<1x2xi64>
  return
}

// -----
!e = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
func.func @fused_arg_count(%x: !e, %y: !e) {
  // expected-error @+1 {{body has 1 arguments for 2 operands}}
  %0 = fhe.fused residue (%x, %y) : (!e, !e) -> (!e) {
  ^bb0(%a: !e):
    %d = fhe.add %a, %a : !e
    fhe.yield %d : !e
  }
  return
}

// -----
!e = !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>
func.func @fused_yield_count(%x: !e) {
  // expected-error @+1 {{yields 2 value(s) of types that differ from the results}}
  %0 = fhe.fused residue (%x) : (!e) -> (!e) {
  ^bb0(%a: !e):
    %d = fhe.add %a, %a : !e
    fhe.yield %d, %d : !e, !e
  }
  return
}

// -----
// A coefficient kernel over a non-fhe value.
!p = !fhe.poly<logN = 4, logq = 10>
func.func @fused_coefficient_i64(%x: !p, %n: i64) {
  // expected-error @+1 {{operand or result of type 'i64' is not an fhe type}}
  %0 = fhe.fused coefficient (%x, %n) : (!p, i64) -> (!p) {
  ^bb0(%a: !p, %b: i64):
    %d = fhe.poly_add %a, %a : !p
    fhe.yield %d : !p
  }
  return
}

// -----
func.func @table_rank() {
  // expected-error @+1 {{table must be a 2-D memref of i64}}
  %t = fhe.table "ntt_twiddles" #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048193]> param 0 : memref<16xi64>
  return
}

// -----
func.func @table_element() {
  // expected-error @+1 {{table must be a 2-D memref of i64 (or of i32, the words' halves)}}
  %t = fhe.table "ntt_twiddles" #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048193]> param 1 : memref<1x64xi16>
  return
}

// -----
func.func @table_negative_param() {
  // expected-error @+1 {{parameter -1 is negative}}
  %t = fhe.table "crt_powers" #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048193]> param -1 : memref<1x1xi64>
  return
}

// -----
func.func @table_icrt_columns() {
  // expected-error @+1 {{table has 2 columns for a basis of 1 primes}}
  %t = fhe.table "icrt_columns" #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048193]> param 1 : memref<1x2xi64>
  return
}

// -----
func.func @table_icrt_no_digit() {
  // expected-error @+1 {{needs at least one digit}}
  %t = fhe.table "icrt_columns" #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048193]> param 0 : memref<1x1xi64>
  return
}

// -----
func.func @table_icrt_winograd_columns() {
  // expected-error @+1 {{table has 3 columns for a basis of 1 primes (expected the primes and three more)}}
  %t = fhe.table "icrt_winograd" #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048193]> param 2 : memref<2x3xi64>
  return
}

// -----
#b = #fhe.basis<min_bits = 30, prime_bits = 20, primes = [1048193, 1048129]>
func.func @automorphism_galois(%x: !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{galois = 32 must be an odd number in [3, 2N = 32)}}
  %0 = fhe.automorphism %x {galois = 32 : i64} : !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
  return
}

// -----
#b = #fhe.basis<min_bits = 30, prime_bits = 20, primes = [1048193, 1048129]>
func.func @automorphism_scaled(%x: !fhe.rns<logN = 4, basis = #b, domain = coeff_scaled, layout = prime_major>) {
  // expected-error @+1 {{input must be in the coeff domain (residues of the coefficients) or the eval domain, got coeff_scaled}}
  %0 = fhe.automorphism %x {galois = 5 : i64} : !fhe.rns<logN = 4, basis = #b, domain = coeff_scaled, layout = prime_major>
  return
}

// -----
#b = #fhe.basis<min_bits = 30, prime_bits = 20, primes = [1048193, 1048129]>
func.func @automorphism_incomplete(%x: !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major, incomplete = 1>) {
  // expected-error @+1 {{an evaluation-domain automorphism needs a complete NTT, got incomplete = 1}}
  %0 = fhe.automorphism %x {galois = 5 : i64} : !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major, incomplete = 1>
  return
}

// -----
func.func @poly_automorphism_identity(%x: !fhe.poly<logN = 4, logq = 30>) {
  // expected-error @+1 {{galois = 1 must be an odd number in [3, 2N = 32)}}
  %0 = fhe.poly_automorphism %x {galois = 1 : i64} : !fhe.poly<logN = 4, logq = 30>
  // The largest Galois element is accepted.
  %1 = fhe.poly_automorphism %x {galois = 31 : i64} : !fhe.poly<logN = 4, logq = 30>
  return
}

// -----
func.func @poly_mul_monomial_range(%x: !fhe.poly<logN = 4, logq = 30>) {
  // The largest k is accepted.
  %0 = fhe.poly_mul_monomial %x {k = 31 : i64} : !fhe.poly<logN = 4, logq = 30>
  // expected-error @+1 {{k must be in [0, 2N) = [0, 32), got -1}}
  %1 = fhe.poly_mul_monomial %x {k = -1 : i64} : !fhe.poly<logN = 4, logq = 30>
  return
}

// -----
func.func @poly_constant_length() {
  // expected-error @+1 {{value must hold N = 16 coefficients, got 'tensor<8xi64>'}}
  %0 = fhe.poly_constant {value = dense<0> : tensor<8xi64>} : !fhe.poly<logN = 4, logq = 30>
  return
}

// -----
func.func @poly_constant_shape() {
  // expected-error @+1 {{value must hold N = 16 coefficients, got 'tensor<4x4xi64>'}}
  %0 = fhe.poly_constant {value = dense<0> : tensor<4x4xi64>} : !fhe.poly<logN = 4, logq = 30>
  return
}

// -----
func.func @crt_window_outside(%x: !fhe.poly<logN = 4, logq = 20>) {
  // expected-error @+1 {{window of 10 bits from bit 12 is not within the input's 20 bits}}
  %0 = fhe.crt %x {window = array<i64: 12, 10>} : !fhe.poly<logN = 4, logq = 20> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
  return
}

// -----
func.func @crt_window_shape(%x: !fhe.poly<logN = 4, logq = 20>) {
  // expected-error @+1 {{window must be [offset, bits], got 1 value(s)}}
  %0 = fhe.crt %x {window = array<i64: 12>} : !fhe.poly<logN = 4, logq = 20> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
  return
}

// -----
func.func @crt_window_centered(%x: !fhe.poly<logN = 4, logq = 20>) {
  // expected-error @+1 {{a window is read unsigned: it cannot be 'centered'}}
  %0 = fhe.crt %x {window = array<i64: 0, 10>, centered} : !fhe.poly<logN = 4, logq = 20> -> !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>
  return
}

// -----
func.func @icrt_sum_offsets(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{2 offset(s) for 1 input(s)}}
  %0 = fhe.icrt_sum %x {offsets = array<i64: 0, 5>} : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major> -> !fhe.poly<logN = 4, logq = 20>
  return
}

// -----
func.func @icrt_sum_offset_range(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>) {
  // expected-error @+1 {{offset 20 is outside [0, 20)}}
  %0 = fhe.icrt_sum %x {offsets = array<i64: 20>} : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major> -> !fhe.poly<logN = 4, logq = 20>
  return
}

// -----
func.func @icrt_sum_domain(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major>) {
  // expected-error @+1 {{inputs must be in the coeff or coeff_scaled domain, got eval}}
  %0 = fhe.icrt_sum %x {offsets = array<i64: 0>} : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = eval, layout = prime_major> -> !fhe.poly<logN = 4, logq = 20>
  return
}

// -----
func.func @icrt_sum_addend(%x: !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major>, %e: !fhe.poly<logN = 4, logq = 8>) {
  // expected-error @+1 {{addend of type '!fhe.poly<logN = 4, logq = 8>' must have the result's type '!fhe.poly<logN = 4, logq = 20>'}}
  %0 = fhe.icrt_sum %x plus %e {offsets = array<i64: 0>} : !fhe.rns<logN = 4, basis = #fhe.basis<min_bits = 30>, domain = coeff, layout = prime_major> plus !fhe.poly<logN = 4, logq = 8> -> !fhe.poly<logN = 4, logq = 20>
  return
}

// -----
func.func @icrt_sum_empty() {
  // expected-error @+1 {{needs at least one input}}
  %0 = "fhe.icrt_sum"() {offsets = array<i64>, operandSegmentSizes = array<i32: 0, 0>} : () -> !fhe.poly<logN = 4, logq = 20>
  return
}
