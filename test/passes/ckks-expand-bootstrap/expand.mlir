// RUN: fhec-opt %s --ckks-expand-bootstrap --split-input-file --verify-diagnostics | FileCheck %s
// ckks.bootstrap of 8 slots at N = 4096 (gap 256: 8 SubSum rotations), q0 =
// 2^42, working scale 2^50: its managed sequence.

!in = !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8>
!out = !ckks.ct<logN = 12, logq = 92, logp = 30, slots = 8>
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 700, logp = 30>} {
  // CHECK-LABEL: func.func @boot
  // CHECK-NOT: ckks.bootstrap
  // ModRaise: q0, then Q.
  // CHECK: ckks.mod_down %{{.*}} -> <logN = 12, logq = 42, logp = 30, slots = 8>
  // CHECK: ckks.mod_raise %{{.*}} -> <logN = 12, logq = 700, logp = 30, slots = 8>
  // SubSum: rotations by 8, 16, ..., 1024, and a division by 2^8.
  // CHECK: ckks.rotate %{{.*}} [8]
  // CHECK: ckks.rotate %{{.*}} [1024]
  // CHECK: ckks.div_by_po2 %{{.*}} -> <logN = 12, logq = 692, logp = 30, slots = 8>
  // The 16 slots view at scale q0.
  // CHECK: ckks.relabel %{{.*}} -> <logN = 12, logq = 692, logp = 42, slots = 16>
  // CoeffToSlot: A w + B conj(w), at the working scale.
  // CHECK: ckks.conjugate
  // CHECK: ckks.linear_transform {{.*}} -> <logN = 12, logq = 692, logp = 92, slots = 16>
  // CHECK: ckks.linear_transform {{.*}} -> <logN = 12, logq = 692, logp = 92, slots = 16>
  // CHECK: ckks.add {{.*}} : <logN = 12, logq = 650, logp = 50, slots = 16>
  // EvalMod: the interval's scaling, then the Chebyshev series and 4 double angles.
  // CHECK: ckks.mul_const
  // CHECK-COUNT-4: ckks.add_const %{{.*}} {value = -1.000000e+00 : f64}
  // SlotToCoeff, then the message's scale and slots, and back to 2^30.
  // CHECK: ckks.linear_transform
  // CHECK: ckks.relabel %{{.*}} -> <logN = 12, logq = 100, logp = 38, slots = 8>
  // CHECK: %[[R:.*]] = ckks.rescale %{{.*}} -> <logN = 12, logq = 92, logp = 30, slots = 8>
  // CHECK: return %[[R]]
  func.func @boot(%x: !in) -> !out {
    %r = ckks.bootstrap %x {mod_logq = 42} : !in -> !out
    return %r : !out
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 12, logQ = 700, logp = 30>} {
  func.func @wrong_type(%x: !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8>) -> !ckks.ct<logN = 12, logq = 80, logp = 30, slots = 8> {
    // expected-error @+1 {{result type must be '!ckks.ct<logN = 12, logq = 92, logp = 30, slots = 8>', the type bootstrapping gives}}
    %r = ckks.bootstrap %x {mod_logq = 42} : !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 80, logp = 30, slots = 8>
    return %r : !ckks.ct<logN = 12, logq = 80, logp = 30, slots = 8>
  }
}

// -----

// Twelve levels of 2^50 do not fit 2^400.
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 400, logp = 30>} {
  func.func @too_small(%x: !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8>) -> !ckks.ct<logN = 12, logq = 80, logp = 30, slots = 8> {
    // expected-error @+1 {{too little depth left}}
    %r = ckks.bootstrap %x {mod_logq = 42} : !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 80, logp = 30, slots = 8>
    return %r : !ckks.ct<logN = 12, logq = 80, logp = 30, slots = 8>
  }
}
