// RUN: fhec run %s --repeat 3 --json %t.json --save %t.dir | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// Re-running from the saved keys and ciphertexts gives the same outputs.
// RUN: fhec run %s --load %t.dir --save %t.again | FileCheck %s
// RUN: cmp %t.dir/in0.ct %t.again/in0.ct
// RUN: cmp %t.dir/out0.ct %t.again/out0.ct
// A corrupted key file is reported, not used.
// RUN: cp -r %t.dir %t.bad && printf 'X' | dd of=%t.bad/evk.bin bs=1 seek=100 conv=notrunc 2>/dev/null
// RUN: not fhec run %s --load %t.bad 2>&1 | FileCheck %s --check-prefix=CORRUPT
// Keys made for other parameters are refused.
// RUN: not fhec run %S/Inputs/other-params.mlir --load %t.dir 2>&1 | FileCheck %s --check-prefix=PARAMS

!ct = !ckks.ct<logN = 9, logq = 120, logp = 30, slots = 256>
!ct60 = !ckks.ct<logN = 9, logq = 120, logp = 60, slots = 256>
!out = !ckks.ct<logN = 9, logq = 90, logp = 30, slots = 256>

module attributes {ckks.params = #ckks.params<logN = 9, logQ = 120, logp = 30>} {
  func.func @he_mul(%a: !ct, %b: !ct) -> !out {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct60
    %1 = ckks.rescale %0 : !ct60 -> !out
    return %1 : !out
  }
}
// CHECK: fhec run: @he_mul on logN=9 logQ=120 logp=30
// CHECK: CRT
// CHECK: NTT
// CHECK: Hadamard
// CHECK: iNTT
// CHECK: iCRT
// CHECK: total
// CHECK: GMP reference: bit-identical
// CHECK: bound 2^-10: ok
// CHECK: PASS
// JSON: "pass":true
// JSON-SAME: "phases_ms_median":{"CRT":
// CORRUPT: fhec run: error: cannot read evaluation key: checksum mismatch (file is corrupted)
// PARAMS: fhec run: error: --load: the saved parameters (logN=9 logQ=120 logp=30 h=64 sigma=3.2) differ from the program's (logN=9 logQ=150 logp=30 h=64 sigma=3.2)
