// RUN: fhec-opt %s --ckks-expand-bootstrap --split-input-file --verify-diagnostics | FileCheck %s
// ckks.bootstrap of 8 slots at N = 4096 (gap 256: 8 SubSum rotations), q0 =
// 2^42, working scale 2^50: its managed sequence; then 16 full slots at N = 32,
// factored.

!in = !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8>
!out = !ckks.ct<logN = 12, logq = 142, logp = 30, slots = 8>
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 700, logp = 30, secret = "sparse", h = 64>} {
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
  // CoeffToSlot: A w + B conj(w) (with EvalMod's 1 / (K + 1)), at the working scale.
  // CHECK: ckks.conjugate
  // CHECK: ckks.linear_transform {{.*}} -> <logN = 12, logq = 692, logp = 92, slots = 16>
  // CHECK: ckks.linear_transform {{.*}} -> <logN = 12, logq = 692, logp = 92, slots = 16>
  // CHECK: %[[Y:.*]] = ckks.add {{.*}} : <logN = 12, logq = 650, logp = 50, slots = 16>
  // EvalMod: the Chebyshev series on [-1, 1] (no scaling of its input) and 4 double angles.
  // CHECK-NOT: ckks.mul_const %[[Y]] {value = 5.8
  // CHECK-COUNT-4: ckks.add_const %{{.*}} {value = -1.000000e+00 : f64}
  // SlotToCoeff, then the message's scale and slots, and back to 2^30.
  // CHECK: ckks.linear_transform
  // CHECK: ckks.relabel %{{.*}} -> <logN = 12, logq = 150, logp = 38, slots = 8>
  // CHECK: %[[R:.*]] = ckks.rescale %{{.*}} -> <logN = 12, logq = 142, logp = 30, slots = 8>
  // CHECK: return %[[R]]
  func.func @boot(%x: !in) -> !out {
    %r = ckks.bootstrap %x {mod_logq = 42} : !in -> !out
    return %r : !out
  }
}

// -----

// The dense default secret: ModRaise under an ephemeral sparse secret
// (sparse-secret encapsulation), times 2^8 (an exact mul_const, so that the
// key switch's noise lands 8 bits below t), then back to the main secret at
// Q; 8 bits less modulus out than the sparse secret's.
!din = !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8>
!dout = !ckks.ct<logN = 12, logq = 134, logp = 30, slots = 8>
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 700, logp = 30, security = "none">} {
  // CHECK-LABEL: func.func @dense
  // CHECK: %[[Q0:.*]] = ckks.mod_down %{{.*}} -> <logN = 12, logq = 42, logp = 30, slots = 8>
  // CHECK: %[[E:.*]] = ckks.encapsulate %[[Q0]] : <logN = 12, logq = 42, logp = 30, slots = 8>
  // CHECK: %[[R:.*]] = ckks.mod_raise %[[E]] : {{.*}} -> <logN = 12, logq = 700, logp = 30, slots = 8>
  // CHECK: %[[L:.*]] = ckks.mul_const %[[R]] {value = 1.000000e+00 : f64} : {{.*}} -> <logN = 12, logq = 700, logp = 38, slots = 8>
  // CHECK: %[[D:.*]] = ckks.decapsulate %[[L]] {mod_logq = 42 : i64} : <logN = 12, logq = 700, logp = 38, slots = 8>
  // CHECK: ckks.rotate %[[D]] [8]
  // CHECK: ckks.relabel %{{.*}} -> <logN = 12, logq = {{[0-9]+}}, logp = 50, slots = 16>
  // CHECK: ckks.rescale %{{.*}} -> <logN = 12, logq = 134, logp = 30, slots = 8>
  func.func @dense(%x: !din) -> !dout {
    %r = ckks.bootstrap %x {mod_logq = 42} : !din -> !dout
    return %r : !dout
  }
}

// -----

// Full slots: no SubSum; CoeffToSlot as the inverse butterfly stages S_4^-1
// S_3^-1 (offsets 0, +-4, 8), S_2^-1, S_1^-1 in three levels (the default
// budget), the first landing at the working scale; EvalMod on the real part
// u + conj(u) and on i (conj(u) - u), recombined by X^(N/2) (i in every slot);
// SlotToCoeff as S_2 S_1, S_3, S_4 with its constants at 2^logp.
!fin = !ckks.ct<logN = 5, logq = 90, logp = 30, slots = 16>
!fout = !ckks.ct<logN = 5, logq = 210, logp = 30, slots = 16>
module attributes {ckks.params = #ckks.params<logN = 5, logQ = 900, logp = 30, security = "none", secret = "sparse", h = 16>} {
  // CHECK-LABEL: func.func @full
  // CHECK: ckks.mod_raise %{{.*}} -> <logN = 5, logq = 900, logp = 30, slots = 16>
  // CHECK-NOT: ckks.rotate
  // CHECK: %[[T:.*]] = ckks.relabel %{{.*}} -> <logN = 5, logq = 900, logp = 42, slots = 16>
  // CHECK: ckks.linear_transform %[[T]] {{.*}}offsets = array<i64: 0, 4, 8, 12>} {{.*}} -> <logN = 5, logq = 900, logp = 92, slots = 16>
  // CHECK: ckks.rescale %{{.*}} -> <logN = 5, logq = 858, logp = 50, slots = 16>
  // CHECK: ckks.linear_transform {{.*}}offsets = array<i64: 0, 2, 14>}
  // CHECK: ckks.rescale
  // CHECK: ckks.linear_transform {{.*}}offsets = array<i64: 0, 1, 15>}
  // CHECK: %[[U:.*]] = ckks.rescale %{{.*}} -> <logN = 5, logq = 758, logp = 50, slots = 16>
  // CHECK: %[[C:.*]] = ckks.conjugate %[[U]]
  // CHECK: ckks.add %[[U]], %[[C]]
  // CHECK: %[[D:.*]] = ckks.sub %[[C]], %[[U]]
  // CHECK: ckks.mul_monomial %[[D]] {k = 16 : i64}
  // CHECK-COUNT-8: ckks.add_const %{{.*}} {value = -1.000000e+00 : f64}
  // CHECK: %[[I:.*]] = ckks.mul_monomial %{{.*}} {k = 16 : i64}
  // CHECK: %[[S:.*]] = ckks.add %{{.*}}, %[[I]]
  // CHECK: ckks.linear_transform %[[S]] {{.*}}offsets = array<i64: 0, 1, 2, 3, 13, 14, 15>} {{.*}} -> <logN = 5, logq = 308, logp = 80, slots = 16>
  // CHECK: ckks.linear_transform {{.*}}offsets = array<i64: 0, 4, 12>}
  // CHECK: ckks.linear_transform {{.*}}offsets = array<i64: 0, 8>}
  // CHECK: ckks.rescale %{{.*}} -> <logN = 5, logq = 218, logp = 50, slots = 16>
  // CHECK: ckks.relabel %{{.*}} -> <logN = 5, logq = 218, logp = 38, slots = 16>
  // CHECK: ckks.rescale %{{.*}} -> <logN = 5, logq = 210, logp = 30, slots = 16>
  func.func @full(%x: !fin) -> !fout {
    %r = ckks.bootstrap %x {mod_logq = 42} : !fin -> !fout
    return %r : !fout
  }
}

// -----


module attributes {ckks.params = #ckks.params<logN = 12, logQ = 700, logp = 30, secret = "sparse", h = 64>} {
  func.func @wrong_type(%x: !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8>) -> !ckks.ct<logN = 12, logq = 80, logp = 30, slots = 8> {
    // expected-error @+1 {{result type must be '!ckks.ct<logN = 12, logq = 142, logp = 30, slots = 8>', the type bootstrapping gives}}
    %r = ckks.bootstrap %x {mod_logq = 42} : !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 80, logp = 30, slots = 8>
    return %r : !ckks.ct<logN = 12, logq = 80, logp = 30, slots = 8>
  }
}

// -----

// Eleven levels of 2^50 do not fit 2^400.
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 400, logp = 30, secret = "sparse", h = 64>} {
  func.func @too_small(%x: !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8>) -> !ckks.ct<logN = 12, logq = 80, logp = 30, slots = 8> {
    // expected-error @+1 {{too little depth left}}
    %r = ckks.bootstrap %x {mod_logq = 42} : !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 80, logp = 30, slots = 8>
    return %r : !ckks.ct<logN = 12, logq = 80, logp = 30, slots = 8>
  }
}
