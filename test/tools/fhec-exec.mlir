// RUN: rm -rf %t && fhec run %s --target=cpu --save=%t > /dev/null
// fhec-exec runs a module with the runtime alone on the keys and inputs `fhec
// run --save` wrote, and compares its outputs with the saved ones bit for bit:
// results do not depend on the target, so a cuda-emu module (its tables and
// keys staged through the emulated device) matches the cpu run's outputs.
// RUN: fhec %s --target=cuda-emu -o %t/emu.so
// RUN: fhec-exec %t/emu.so %t --repeat=2 | FileCheck %s
// (Every run's outputs are compared with the first run's too.)
// CHECK-NOT: DIFFERS
// CHECK: output 0: bit-identical
// CHECK: @he_mul on cuda-emu (logN=9 logQ=120): median {{[0-9.]+}} ms over 2 run(s)
// A module of other parameters, a missing file and a wrong output are reported.
// RUN: fhec %S/Inputs/other-params.mlir -o %t/other.so
// RUN: not fhec-exec %t/other.so %t 2>&1 | FileCheck %s --check-prefix=PARAMS
// PARAMS: fhec-exec: module was compiled for logN=
// RUN: rm -rf %t.bad && cp -r %t %t.bad && rm %t.bad/evk.bin
// RUN: not fhec-exec %t/emu.so %t.bad 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: fhec-exec: {{.*}}evk.bin
// RUN: cp %t.bad/in0.ct %t.bad/out0.ct && cp %t/evk.bin %t.bad/
// RUN: not fhec-exec %t/emu.so %t.bad | FileCheck %s --check-prefix=DIFFERS
// DIFFERS: output 0: DIFFERS from the expected one
// Fresh keys and inputs, checked against a cpu build of the program; JSON.
// RUN: fhec %s --target=cpu -O0 -o %t/cpu.so
// RUN: fhec-exec %t/emu.so --random --expect-from=%t/cpu.so --json=%t/r.json | FileCheck %s --check-prefix=RANDOM
// RUN: FileCheck %s --check-prefix=JSON < %t/r.json
// RANDOM: output 0: bit-identical
// RANDOM: NTT
// JSON: {"function": "he_mul", "target": "cuda-emu", "logN": 9, "logQ": 120, "runs": 1, "on_device": false, "total_ms_median": {{.*}}, "phases_ms_median": {"CRT": {{.*}}, "outputs": ["bit-identical"]}
// Hybrid key switching: keys of three parts saved by fhec run (format 4) and
// made afresh.
// RUN: rm -rf %t.hyb && fhec run %S/Inputs/hybrid.mlir --target=cpu --save=%t.hyb > /dev/null
// RUN: fhec %S/Inputs/hybrid.mlir --target=cuda-emu -o %t.hyb/emu.so
// RUN: fhec-exec %t.hyb/emu.so %t.hyb | FileCheck %s --check-prefix=HYBRID
// RUN: fhec-exec %t.hyb/emu.so --random | FileCheck %s --check-prefix=HYBRID
// HYBRID-NOT: DIFFERS
// HYBRID: @he_mul_rot on cuda-emu (logN=9 logQ=120)
// RUN: not fhec-exec %t/emu.so 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: usage: fhec-exec MODULE.so DIR

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
