// RUN: fhec run %s --repeat 2 --threads=1 --save %t.dir | FileCheck %s
// RUN: fhec run %s --threads=1 --load %t.dir | FileCheck %s
// RUN: fhec run %s --threads=1 --target=cuda-emu | FileCheck %s
// A function with plaintext arguments (!ckks.pt): `fhec run` draws their
// values (saved as pt<j>.bin with --save), the runtime encodes them at each
// use, and the result is the GMP reference's bit for bit and decrypts to the
// plaintext computation.

!ct = !ckks.ct<logN = 9, logq = 150, logp = 30, slots = 256>
!ct60 = !ckks.ct<logN = 9, logq = 150, logp = 60, slots = 256>
!out = !ckks.ct<logN = 9, logq = 120, logp = 30, slots = 256>
!pt = !ckks.pt<logN = 9, slots = 256>

module attributes {ckks.params = #ckks.params<logN = 9, logQ = 150, logp = 30, security = "none">} {
  func.func @affine(%x: !ct, %w: !pt, %b: !pt) -> !out {
    %0 = ckks.mul_plain %x by %w : !pt : !ct -> !ct60
    %1 = ckks.rescale %0 : !ct60 -> !out
    %2 = ckks.add_plain %1 plus %b : !pt : !out
    %3 = ckks.add_plain %2 plus %w : !pt {negate} : !out
    return %3 : !out
  }
}

// CHECK: fhec run: @affine
// CHECK: GMP reference [0]: bit-identical
// CHECK: bound 2^-10: ok
// CHECK: PASS
