// RUN: fhec-opt --fhec-emit-abi %s -verify-diagnostics

// expected-error @+1 {{fhec-emit-abi: the module has no manifest; run fhec-abi first}}
module {
  llvm.func @f() {
    llvm.return
  }
}
