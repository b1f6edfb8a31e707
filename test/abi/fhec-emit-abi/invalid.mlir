// RUN: fhec-opt --fhec-emit-abi %s -split-input-file -verify-diagnostics

// expected-error @+1 {{fhec-emit-abi: the module has no manifest; run fhec-abi first}}
module {
  llvm.func @f() {
    llvm.return
  }
}

// -----

// A malformed entry list is a diagnostic, not a crash.
// expected-error @+1 {{fhec-emit-abi: 'fhe.entries' must list function names (C identifiers), got 1 : i32}}
module attributes {fhe.manifest = "fhec-manifest 4\n", fhe.entries = [1 : i32]} {
  llvm.func @f() {
    llvm.return
  }
}

// -----

// expected-error @+1 {{fhec-emit-abi: 'fhe.manifest' must be a string and 'fhe.entries' an array of function names}}
module attributes {fhe.manifest = 3 : i64, fhe.entries = ["f"]} {
  llvm.func @f() {
    llvm.return
  }
}

// -----

// expected-error @+1 {{'fhe.entries' must list function names (C identifiers), got "a b"}}
module attributes {fhe.manifest = "fhec-manifest 4\n", fhe.entries = ["a b"]} {
  llvm.func @"a b"() {
    llvm.return
  }
}

// -----

// An entry point whose function is missing (or not in the LLVM dialect).
// expected-error @+1 {{fhec-emit-abi: function 'g' was not lowered to the LLVM dialect}}
module attributes {fhe.manifest = "fhec-manifest 4\n", fhe.entries = ["g"]} {
  func.func @g() {
    return
  }
}
