// fhec run on rotations, conjugation and plaintext operands: rotation keys
// are generated for the Galois elements the program uses, the outputs are
// bit-identical to the GMP reference and decrypt to the plaintext result.
// RUN: fhec run %s --threads=1 --save %t.dir | FileCheck %s
// CHECK: keygen {{.*}} (3 rotation key(s))
// CHECK: GMP reference [0]: bit-identical
// CHECK: PASS
// The rotation keys are saved and loaded back with the other keys.
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// FILES: rk1023.bin
// FILES: rk125.bin
// FILES: rk5.bin
// RUN: fhec run %s --load %t.dir --threads=1 | FileCheck %s
// A missing rotation key is an error naming the file.
// RUN: rm -rf %t.missing && cp -r %t.dir %t.missing && rm %t.missing/rk5.bin
// RUN: not fhec run %s --load %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: fhec run: error: cannot open '{{.*}}rk5.bin'
// A rotation key stored under another Galois element's name is refused.
// RUN: rm -rf %t.swap && cp -r %t.dir %t.swap && cp %t.dir/rk125.bin %t.swap/rk5.bin
// RUN: not fhec run %s --load %t.swap 2>&1 | FileCheck %s --check-prefix=SWAP
// SWAP: fhec run: error: --load: '{{.*}}rk5.bin' holds the rotation key of Galois element 125

!ct = !ckks.ct<logN = 9, logq = 120, logp = 30, slots = 64>
!ct60 = !ckks.ct<logN = 9, logq = 120, logp = 60, slots = 64>
!out = !ckks.ct<logN = 9, logq = 90, logp = 30, slots = 64>

module attributes {ckks.params = #ckks.params<logN = 9, logQ = 120, logp = 30, security = "none">} {
  func.func @f(%a: !ct, %b: !ct) -> (!out, !ct) {
    %0 = ckks.rotate %a [1] : !ct
    %1 = ckks.rotate %b [3] : !ct
    %2 = ckks.conjugate %1 : !ct
    %3 = ckks.mul_plain %0 {values = dense<0.25> : tensor<64xf64>} : !ct -> !ct60
    %4 = ckks.rescale %3 : !ct60 -> !out
    %5 = ckks.add_plain %2 {values = dense<(0.5, -0.5)> : tensor<64xcomplex<f64>>} : !ct
    return %4, %5 : !out, !ct
  }
}
