// RUN: fhec-opt --fhec-plan-workspace %s -split-input-file -verify-diagnostics

func.func @dynamic(%n: index) {
  // expected-error @+1 {{has no static identity-layout shape; the workspace cannot hold it}}
  %a = memref.alloc(%n) : memref<?xi64>
  return
}

// -----

// expected-error @+1 {{expects a single-block function body (a lowered fhe function)}}
func.func @blocks(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb1
^bb1:
  return
}
