// RUN: fhec-opt --fhec-free-buffers %s -split-input-file -verify-diagnostics

// expected-error @+1 {{expects a single-block function body (a lowered fhe function)}}
func.func @blocks(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb1
^bb1:
  return
}
