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
