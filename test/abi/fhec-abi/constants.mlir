// RUN: fhec-opt --fhe-to-loops --fhec-plan-workspace --fhec-abi %s | FileCheck %s
// A constant polynomial (an encoded plaintext) reaches the kernels as an
// argument the runtime fills: the module's own words on CPU targets, a copy
// in the device's memory on GPU targets, whose kernels cannot read the
// host's (test/tools/fhec-exec-gpu-trace.mlir runs one on cuda-emu).

// One argument per constant global, shared by its uses; the global is public
// so that the runtime finds the words the manifest names.
// CHECK: arg kind=constant symbol=[[G:__fhec_plaintext_[0-9A-F]+]] words=4\0Aarg kind=poly
// CHECK-NOT: arg kind=constant
// CHECK: memref.global constant @[[G]] : memref<4x1xi64> = dense<{{\[\[}}1], [-2], [3], [4]]>
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @twice(
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<4x1xi64> {fhe.constant = @[[G]]}
// CHECK-NOT: memref.get_global
// CHECK: return

!p = !fhe.poly<logN = 2, logq = 10>
module attributes {ckks.params = #ckks.params<logN = 2, logQ = 10, logp = 5, security = "none">} {
  func.func @twice(%x: !p {fhe.role = "x"}) -> (!p, !p) {
    %c = fhe.poly_constant {value = dense<[1, -2, 3, 4]> : tensor<4xi64>} : !p
    %d = fhe.poly_constant {value = dense<[1, -2, 3, 4]> : tensor<4xi64>} : !p
    %0 = fhe.poly_add %x, %c : !p
    %1 = fhe.poly_add %x, %d : !p
    return %0, %1 : !p, !p
  }
}
