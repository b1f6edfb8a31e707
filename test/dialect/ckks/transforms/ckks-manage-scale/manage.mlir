// RUN: fhec-opt %s --ckks-manage-scale --split-input-file | FileCheck %s
// Managing twice changes nothing more (managed programs are a fixed point).
// RUN: fhec-opt %s --ckks-manage-scale --split-input-file | fhec-opt --ckks-manage-scale --split-input-file | FileCheck %s

// x^3 + 0.5 x written without rescales: every product is rescaled back to
// the module's scale, operands are brought to one level.
!x = !ckks.ct<logN = 12, logq = 240, logp = 30, slots = 8>
!x60 = !ckks.ct<logN = 12, logq = 240, logp = 60, slots = 8>
!x90 = !ckks.ct<logN = 12, logq = 240, logp = 90, slots = 8>
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 240, logp = 30, security = "none">} {
  // CHECK-LABEL: func.func @cube
  // CHECK-SAME: -> !ckks.ct<logN = 12, logq = 180, logp = 30, slots = 8>
  func.func @cube(%x: !x) -> !x90 {
    // CHECK: %[[XX:.*]] = ckks.mul %[[X:.*]], %[[X]] : ({{.*}}) -> <logN = 12, logq = 240, logp = 60, slots = 8>
    // CHECK: %[[X2:.*]] = ckks.rescale %[[XX]] {round} : {{.*}} -> <logN = 12, logq = 210, logp = 30, slots = 8>
    %0 = ckks.mul %x, %x : (!x, !x) -> !x60
    // CHECK: %[[XD:.*]] = ckks.mod_down %[[X]] : {{.*}} -> <logN = 12, logq = 210, logp = 30, slots = 8>
    // CHECK: %[[X3W:.*]] = ckks.mul %[[X2]], %[[XD]]
    // CHECK: %[[X3:.*]] = ckks.rescale %[[X3W]] {round} : {{.*}} -> <logN = 12, logq = 180, logp = 30, slots = 8>
    %1 = ckks.mul %0, %x : (!x60, !x) -> !x90
    // CHECK: %[[HW:.*]] = ckks.mul_const %[[X]] {value = 5.000000e-01 : f64}
    // CHECK: %[[H:.*]] = ckks.rescale %[[HW]] {round} : {{.*}} -> <logN = 12, logq = 210, logp = 30, slots = 8>
    %2 = ckks.mul_const %x {value = 0.5 : f64} : !x -> !x60
    // CHECK: %[[HD:.*]] = ckks.mod_down %[[H]] : {{.*}} -> <logN = 12, logq = 180, logp = 30, slots = 8>
    // CHECK: %[[S:.*]] = ckks.add %[[X3]], %[[HD]] : <logN = 12, logq = 180, logp = 30, slots = 8>
    %3 = ckks.add %1, %2 : (!x90, !x60) -> !x90
    // CHECK: return %[[S]]
    return %3 : !x90
  }
}

// -----

// Rotations are normalized mod N/2 (by 0: nothing); plaintext products are rescaled too.
!y = !ckks.ct<logN = 4, logq = 100, logp = 20, slots = 4>
!y40 = !ckks.ct<logN = 4, logq = 100, logp = 40, slots = 4>
module attributes {ckks.params = #ckks.params<logN = 4, logQ = 100, logp = 20, security = "none">} {
  // CHECK-LABEL: func.func @rotations
  func.func @rotations(%y: !y) -> !y40 {
    // CHECK: %[[P:.*]] = ckks.mul_plain
    // CHECK: %[[PR:.*]] = ckks.rescale %[[P]] {round} : {{.*}} -> <logN = 4, logq = 80, logp = 20, slots = 4>
    %0 = ckks.mul_plain %y {values = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>} : !y -> !y40
    // CHECK: %[[R:.*]] = ckks.rotate %[[PR]] [7]
    %1 = ckks.rotate %0 [7] : !y40
    // CHECK: ckks.conjugate %[[R]]
    %2 = ckks.conjugate %1 : !y40
    return %2 : !y40
  }
}

// -----

// A product the program rescales itself is left to it: already managed
// programs are unchanged (the paper's HE Mul, the sigmoid example).
!a = !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 8>
!a60 = !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8>
!b = !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 8>
!c = !ckks.ct<logN = 12, logq = 140, logp = 30, slots = 8>
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30, security = "none">} {
  // CHECK-LABEL: func.func @managed
  // CHECK-SAME: -> (!ckks.ct<logN = 12, logq = 170, logp = 30, slots = 8>, !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 8>, !ckks.ct<logN = 12, logq = 140, logp = 30, slots = 8>)
  func.func @managed(%a: !a, %b: !a) -> (!b, !a60, !c) {
    // CHECK: %[[M:.*]] = ckks.mul
    // (The program's own rescale keeps its truncation: no {round}.)
    // CHECK-NEXT: %[[R:.*]] = ckks.rescale %[[M]] : {{.*}} -> <logN = 12, logq = 170, logp = 30, slots = 8>
    // CHECK-NEXT: ckks.mod_down %[[R]] : {{.*}} -> <logN = 12, logq = 140, logp = 30, slots = 8>
    // CHECK-NEXT: return
    %m = ckks.mul %a, %b : (!a, !a) -> !a60
    %r = ckks.rescale %m : !a60 -> !b
    %d = ckks.mod_down %r : !b -> !c
    return %r, %m, %d : !b, !a60, !c
  }
  // A program's own rounding rescale stays rounding.
  // CHECK-LABEL: func.func @own_rounding
  // CHECK: ckks.mul
  // CHECK-NEXT: ckks.rescale %{{.*}} {round} : {{.*}} -> <logN = 12, logq = 170, logp = 30, slots = 8>
  // CHECK-NEXT: return
  func.func @own_rounding(%a: !a) -> !b {
    %m = ckks.mul %a, %a : (!a, !a) -> !a60
    %r = ckks.rescale %m {round} : !a60 -> !b
    return %r : !b
  }
}

// -----

// A sum of operands at different scales: the larger one is rescaled down.
!s20 = !ckks.ct<logN = 4, logq = 100, logp = 20, slots = 2>
!s40 = !ckks.ct<logN = 4, logq = 100, logp = 40, slots = 2>
module attributes {ckks.params = #ckks.params<logN = 4, logQ = 100, logp = 20, security = "none">} {
  // CHECK-LABEL: func.func @scales
  func.func @scales(%u: !s20, %v: !s40) -> !s40 {
    // CHECK: %[[VR:.*]] = ckks.rescale %{{.*}} {round} : {{.*}} -> <logN = 4, logq = 80, logp = 20, slots = 2>
    // CHECK: %[[UD:.*]] = ckks.mod_down %{{.*}} : {{.*}} -> <logN = 4, logq = 80, logp = 20, slots = 2>
    // CHECK: ckks.sub %[[UD]], %[[VR]] : <logN = 4, logq = 80, logp = 20, slots = 2>
    %0 = ckks.sub %u, %v : (!s20, !s40) -> !s40
    return %0 : !s40
  }
}

// -----

// Bootstrapping's ops: mod_raise keeps its target modulus, div_by_po2 its
// shift, and relabel the same change of scale from the managed operand's
// (the product is rescaled to 2^30 first, so 2^60 -> 2^50 becomes 2^30 -> 2^20).
!lo = !ckks.ct<logN = 12, logq = 100, logp = 30, slots = 8>
!lo60 = !ckks.ct<logN = 12, logq = 100, logp = 60, slots = 8>
!lo50 = !ckks.ct<logN = 12, logq = 100, logp = 50, slots = 16>
!hi = !ckks.ct<logN = 12, logq = 240, logp = 30, slots = 8>
!hd = !ckks.ct<logN = 12, logq = 236, logp = 30, slots = 8>
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 240, logp = 30, security = "none">} {
  // CHECK-LABEL: func.func @boot
  func.func @boot(%x: !lo) -> (!hd, !lo50) {
    // CHECK: %[[R:.*]] = ckks.mod_raise %{{.*}} : {{.*}} -> <logN = 12, logq = 240, logp = 30, slots = 8>
    %0 = ckks.mod_raise %x : !lo -> !hi
    // CHECK: ckks.div_by_po2 %[[R]] : {{.*}} -> <logN = 12, logq = 236, logp = 30, slots = 8>
    %1 = ckks.div_by_po2 %0 : !hi -> !hd
    // CHECK: %[[P:.*]] = ckks.rescale %{{.*}} {round} : {{.*}} -> <logN = 12, logq = 70, logp = 30, slots = 8>
    %2 = ckks.mul %x, %x : (!lo, !lo) -> !lo60
    // CHECK: ckks.relabel %[[P]] : {{.*}} -> <logN = 12, logq = 70, logp = 20, slots = 16>
    %3 = ckks.relabel %2 : !lo60 -> !lo50
    return %1, %3 : !hd, !lo50
  }
}
