// RUN: fhec-opt --fhec-abi %s -split-input-file -verify-diagnostics

// A kernel buffer the planner did not place would leak on every call.
func.func @unplanned(%x: memref<4xi64> {fhe.role = "x", fhe.type = !fhe.poly<logN = 2, logq = 10>}) -> (memref<4xi64> {fhe.type = !fhe.poly<logN = 2, logq = 10>}) {
  // expected-error @+1 {{is a kernel buffer outside the workspace; run fhec-plan-workspace before fhec-abi}}
  %a = memref.alloc() : memref<4xi64>
  memref.copy %x, %a : memref<4xi64> to memref<4xi64>
  return %x : memref<4xi64>
}

// -----

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
