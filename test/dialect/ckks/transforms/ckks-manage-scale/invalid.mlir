// RUN: fhec-opt %s --ckks-manage-scale --split-input-file --verify-diagnostics

// Running out of modulus ("too little depth left") cannot happen here: a
// valid unmanaged program keeps every product's scale below its modulus, and
// management divides value, modulus and scale alike. The Python tracer, which
// builds programs op by op through the same ScaleManager, reports it
// (test/python/test_errors.py, test_too_little_depth_left).

// Ops of other dialects are not managed.
module attributes {ckks.params = #ckks.params<logN = 4, logQ = 100, logp = 30, security = "none">} {
  func.func @foreign(%x: !ckks.ct<logN = 4, logq = 100, logp = 30, slots = 2>) -> i32 {
    // expected-error @+1 {{'arith.constant' op is not supported by ckks-manage-scale}}
    %c = arith.constant 1 : i32
    return %c : i32
  }
}

// -----

// A program's own rescale that the managed scale no longer affords: the
// product is rescaled after the mul, so the sum is at scale 2^30.
module attributes {ckks.params = #ckks.params<logN = 4, logQ = 100, logp = 30, security = "none">} {
  func.func @own_rescale(%x: !ckks.ct<logN = 4, logq = 100, logp = 30, slots = 2>) -> !ckks.ct<logN = 4, logq = 60, logp = 20, slots = 2> {
    %0 = ckks.mul %x, %x : (!ckks.ct<logN = 4, logq = 100, logp = 30, slots = 2>, !ckks.ct<logN = 4, logq = 100, logp = 30, slots = 2>) -> !ckks.ct<logN = 4, logq = 100, logp = 60, slots = 2>
    %1 = ckks.add %0, %x : (!ckks.ct<logN = 4, logq = 100, logp = 60, slots = 2>, !ckks.ct<logN = 4, logq = 100, logp = 30, slots = 2>) -> !ckks.ct<logN = 4, logq = 100, logp = 60, slots = 2>
    // expected-error @+1 {{cannot rescale by 2^40: the ciphertext's scale is only 2^30}}
    %2 = ckks.rescale %1 : !ckks.ct<logN = 4, logq = 100, logp = 60, slots = 2> -> !ckks.ct<logN = 4, logq = 60, logp = 20, slots = 2>
    return %2 : !ckks.ct<logN = 4, logq = 60, logp = 20, slots = 2>
  }
}
