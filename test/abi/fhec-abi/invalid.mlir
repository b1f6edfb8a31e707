// RUN: fhec-opt --fhec-abi %s -split-input-file -verify-diagnostics

// expected-error @+1 {{argument #1 has no fhe.type and fhe.role: it cannot be described in the ABI}}
func.func @untyped(%x: memref<4x1xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 2, logq = 10>}, %n: i64) {
  return
}

// -----

module {
  func.func @ring4(%x: memref<16x1xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 4, logq = 10>}) {
    return
  }
  // expected-error @+1 {{uses ring dimension 2^5, but the module's is 2^4}}
  func.func @ring5(%x: memref<32x1xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 5, logq = 10>}) {
    return
  }
}

// -----

// Names go into the line-based manifest and the entry symbol: a space or a
// newline must not inject lines.
// expected-error @+1 {{name "bad name\0Afunc name=x" cannot be exported: entry points need a C identifier ([A-Za-z_][A-Za-z0-9_]*, at most 200 characters)}}
func.func @"bad name\0Afunc name=x"(%x: memref<4x1xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 2, logq = 10>}) {
  return
}

// -----

// expected-error @+1 {{'fhe.ct_inputs' must list array<i64: logq, logp, slots> entries, got "x"}}
func.func @bad_ct(%x: memref<4x1xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 2, logq = 10>}) attributes {fhe.ct_inputs = ["x"]} {
  return
}

// -----

// expected-error @+1 {{argument #0 has fhe.type 'i64': expected !fhe.poly or !fhe.rns}}
func.func @bad_type(%x: memref<4x1xi64> {fhe.role = "x", fhe.type = i64}) {
  return
}

// -----

// Two uses of one table (kind, basis, parameter) with different shapes.
func.func @table_shapes(%x: memref<16x1xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 4, logq = 10>}) {
  %a = fhe.table "ntt_twiddles" #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048193]> param 0 : memref<1x16xi64>
  // expected-error @+1 {{disagrees on the shape of a table}}
  %b = fhe.table "ntt_twiddles" #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048193]> param 0 : memref<1x32xi64>
  return
}

// -----

// A table argument (fhe.table) without its fhe.param and fhe.basis.
// expected-error @+1 {{table argument #0 needs an integer fhe.param and an fhe.basis}}
func.func @bare_table(%t: memref<1x16xi64> {fhe.table = "ntt_twiddles"}, %x: memref<16x1xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 4, logq = 10>}) {
  return
}

// -----

// expected-error @+1 {{unknown target "tpu"}}
module attributes {fhe.target = "tpu"} {
  func.func @f(%x: memref<16x1xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 4, logq = 10>}) {
    return
  }
}

// -----

// The lowered functions' ring is not the one of the module's ckks.params.
// expected-error @+1 {{functions use ring dimension 2^4, but ckks.params says 2^12}}
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30>} {
  func.func @f(%x: memref<16x1xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 4, logq = 10>}) {
    return
  }
}

// -----

// Regressions from the diagnostics audit (test/crashers-found-by-audit.txt):
// a multi-block body, a non-buffer result and a rank-1 returned view used to
// reach casts and shape reads that assume fhe-to-loops' output.
// expected-error @+1 {{fhec-abi expects a single-block function body (kernels are structured loops)}}
func.func @two_blocks(%x: memref<16x1xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 4, logq = 10>}) -> (memref<16x1xi64> {fhe.type = !fhe.poly<logN = 4, logq = 10>}) {
  %a = memref.alloc() : memref<16x1xi64>
  cf.br ^bb1
^bb1:
  return %a : memref<16x1xi64>
}

// -----

// expected-error @+1 {{result #0 has type 'i64': fhec-abi returns buffers (memrefs) only}}
func.func @scalar(%x: memref<16x1xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 4, logq = 10>}) -> (i64 {fhe.type = !fhe.poly<logN = 4, logq = 10>}) {
  %c = arith.constant 1 : i64
  return %c : i64
}
