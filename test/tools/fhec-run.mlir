// RUN: fhec run %s --repeat 3 --json %t.json --save %t.dir --threads=1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// Several configurations timed in turn in one process, each checked against the reference.
// RUN: fhec run %s --repeat 2 --threads 2 --compare=-O0 --compare='-O0 --threads=1' --json %t.cmp.json | FileCheck %s --check-prefix=COMPARE
// RUN: FileCheck %s --check-prefix=CMPJSON < %t.cmp.json
// RUN: not fhec run %s --compare='-O0 --bogus' 2>&1 | FileCheck %s --check-prefix=BADFLAG
// RUN: not fhec run %s --threads=0 2>&1 | FileCheck %s --check-prefix=THREADS
// Re-running from the saved keys and ciphertexts gives the same outputs.
// RUN: fhec run %s --load %t.dir --save %t.again --threads=1 | FileCheck %s
// RUN: cmp %t.dir/in0.ct %t.again/in0.ct
// RUN: cmp %t.dir/out0.ct %t.again/out0.ct
// A corrupted key file is reported, not used.
// RUN: rm -rf %t.bad && cp -r %t.dir %t.bad && printf 'X' | dd of=%t.bad/evk.bin bs=1 seek=100 conv=notrunc 2>/dev/null
// RUN: not fhec run %s --load %t.bad 2>&1 | FileCheck %s --check-prefix=CORRUPT
// The secret key is written for its owner only.
// RUN: stat -c %%a %t.dir/sk.bin | FileCheck %s --check-prefix=MODE
// MODE: 600
// A public key from another key generation is refused.
// RUN: rm -rf %t.other %t.mix && fhec run %s --save %t.other --threads=1 > /dev/null
// RUN: cp -r %t.dir %t.mix && cp %t.other/pk.bin %t.mix/
// RUN: not fhec run %s --load %t.mix 2>&1 | FileCheck %s --check-prefix=MIX
// MIX: belongs to key set {{[0-9a-f]+}}, {{.*}}sk.bin' to key set {{[0-9a-f]+}}: they come from different key generations
// Keys made for other parameters are refused.
// RUN: not fhec run %S/Inputs/other-params.mlir --load %t.dir 2>&1 | FileCheck %s --check-prefix=PARAMS

!ct = !ckks.ct<logN = 9, logq = 120, logp = 30, slots = 256>
!ct60 = !ckks.ct<logN = 9, logq = 120, logp = 60, slots = 256>
!out = !ckks.ct<logN = 9, logq = 90, logp = 30, slots = 256>

module attributes {ckks.params = #ckks.params<logN = 9, logQ = 120, logp = 30, security = "none">} {
  func.func @he_mul(%a: !ct, %b: !ct) -> !out {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct60
    %1 = ckks.rescale %0 : !ct60 -> !out
    return %1 : !out
  }
}
// CHECK: fhec run: @he_mul on logN=9 logQ=120 logp=30
// CHECK: [0] -O2 --target={{cpu|cpu-avx512}} --threads=1: compile {{.*}} s, workspace {{[0-9.]+}} MiB
// CHECK: CRT
// CHECK: NTT
// CHECK: Hadamard
// CHECK: iNTT
// CHECK: iCRT
// CHECK: outside
// CHECK: total
// CHECK: GMP reference [0]: bit-identical
// CHECK: bound 2^-10: ok
// CHECK: PASS
// JSON: "pass":true
// JSON-SAME: "phases_ms_median":{"CRT":
// JSON-SAME: "threads":1
// JSON-SAME: "workspace_bytes":
// COMPARE: [0] -O2 --target=[[T:cpu|cpu-avx512]] --threads=2
// COMPARE-NEXT: [1] -O0 --target=[[T]] --threads=2
// COMPARE-NEXT: [2] -O0 --target=[[T]] --threads=1
// COMPARE: total {{ *[0-9.]+ +[0-9.]+ +[0-9.]+$}}
// COMPARE-NEXT: vs [0] {{ *}}1.00x
// COMPARE: GMP reference [0]: bit-identical
// COMPARE-NEXT: GMP reference [1]: bit-identical
// COMPARE-NEXT: GMP reference [2]: bit-identical
// COMPARE: PASS
// CMPJSON: "configs":[{
// CMPJSON-SAME: "opt_level":0
// BADFLAG: fhec: error: --compare='-O0 --bogus': unknown flag '--bogus'
// THREADS: fhec: error: --threads needs a positive number, got '0'
// CORRUPT: fhec run: error: cannot read evaluation key: checksum mismatch (file is corrupted)
// PARAMS: fhec run: error: --load: the saved parameters (logN=9 logQ=120 logp=30 secret=ternary sigma=3.2) differ from the program's (logN=9 logQ=150 logp=30 secret=ternary sigma=3.2)
