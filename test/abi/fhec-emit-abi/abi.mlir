// RUN: fhec-opt --fhe-to-loops --fhec-plan-workspace --fhec-abi --fhec-cpu-lower-to-llvm %s | FileCheck %s

#b = #fhe.basis<min_bits = 15, prime_bits = 20, primes = [1048193]>
!p = !fhe.poly<logN = 4, logq = 10>
!e = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>

// The entry wrapper loads one pointer per argument (2 tables + input + output)
// and calls the bare-pointer function.
// CHECK-LABEL: llvm.func @__fhec_entry_to_rns(%{{.*}}: !llvm.ptr)
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK-NOT: llvm.load
// CHECK: llvm.call @to_rns(
// CHECK-DAG: llvm.mlir.global external constant @__fhec_abi_version(13 : i32)
// CHECK-DAG: llvm.mlir.global external constant @__fhec_manifest("fhec-manifest 13\0A
// CHECK-NOT: fhe.manifest =
func.func @to_rns(%x: !p {fhe.role = "x"}) -> !e {
  %0 = fhe.crt %x : !p -> !e
  return %0 : !e
}
