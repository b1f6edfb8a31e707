// The client kernels (`fhec --client`): at logQ = 1200, decryption by
// bit-windows, and a narrow decryption of the lowest window with its check
// in one prime (fhec/runtime/Client.h says how the client reads it).
// RUN: fhec %s --client --target=cpu --emit=fhe | FileCheck %s

// The check's basis: one 60-bit prime.
// CHECK: #[[ONE:rns_basis[0-9]*]] = #fhe.basis<min_bits = 59, prime_bits = 60, primes = [{{[0-9]+}}]>

// CHECK-LABEL: func.func @__fhec_client_decrypt_1200(
// CHECK: fhe.crt {{.*}}window = array<i64: 0, 231>}
// CHECK: fhe.crt {{.*}}window = array<i64: 1155, 45>}
// CHECK: fhe.icrt_sum {{.*}}offsets = array<i64: 0, 231, 462, 693, 924, 1155>{{.*}} -> <logN = 6, logq = 1200>

// CHECK-LABEL: func.func @__fhec_client_narrow_decrypt_1200(
// CHECK-SAME: -> (!fhe.poly<logN = 6, logq = 231> {fhe.role = "m"}, !fhe.poly<logN = 6, logq = 59> {fhe.role = "check"})
// CHECK: %[[BX:.*]] = fhe.poly_reduce %arg1 : <logN = 6, logq = 1200> -> <logN = 6, logq = 231>
// One pass over ax for the window and the check's CRT.
// CHECK: %[[AX:.*]]:2 = fhe.fused coefficient(%arg0)
// CHECK: fhe.crt {{.*}}window = array<i64: 0, 231>}
// CHECK: fhe.crt {{.*}}window = array<i64: 0, 1200>} {{.*}} -> <logN = 6, basis = #[[ONE]], domain = coeff
// CHECK: %[[CBX:.*]] = fhe.crt %arg1 {{.*}} -> <logN = 6, basis = #[[ONE]], domain = coeff
// CHECK: %[[LOW:.*]] = fhe.fused rows(%[[AX]]#0,
// CHECK: %[[M:.*]] = fhe.icrt_sum %[[LOW]] plus %[[BX]] {{.*}} -> <logN = 6, logq = 231>
// CHECK: %[[CM:.*]] = fhe.crt %[[M]] {{.*}}centered{{.*}} -> <logN = 6, basis = #[[ONE]], domain = coeff
// CHECK: %[[Y:.*]] = fhe.fused rows(%[[AX]]#1, %{{.*}}, %[[CBX]], %[[CM]])
// CHECK: fhe.add
// CHECK: fhe.sub
// CHECK: %[[R:.*]] = fhe.icrt %[[Y]] {{.*}} -> <logN = 6, logq = 59>
// CHECK: return %[[M]], %[[R]]

!ct = !ckks.ct<logN = 6, logq = 1200, logp = 30, slots = 32>
module attributes {ckks.params = #ckks.params<logN = 6, logQ = 1200, logp = 30, security = "none">} {
  func.func @id(%a: !ct) -> !ct {
    return %a : !ct
  }
}
