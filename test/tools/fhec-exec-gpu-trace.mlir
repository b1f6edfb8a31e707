// RUN: fhec %s --target=cuda-emu --gpu-trace -o %t.traced.so
// RUN: fhec-exec %t.traced.so --random --function=add --gpu-trace=%t.json --trace-blocks=1 | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: fhec %s --target=cuda-emu -o %t.plain.so
// RUN: not fhec-exec %t.plain.so --random --function=add --gpu-trace=%t.trace 2>&1 | FileCheck %s --check-prefix=UNTRACED
// RUN: not fhec-exec %t.traced.so --random --function=add --gpu-trace=%t.trace --trace-blocks=0 2>&1 | FileCheck %s --check-prefix=BLOCKS
// fhec-exec --gpu-trace: one JSON object per launch of the first run, one
// block of each traced (bench/gpu/model.py reads them, docs/gpu-model.md).
// Every global access of every block must fall in the device's memory: a
// plaintext's words reach the kernels through a copy there (fhec-abi's
// constant arguments), as a GPU needs them.
// RUN: fhec %s --target=cpu -o %t.cpu.so
// RUN: fhec-exec %t.traced.so --random --function=add_plain --expect-from=%t.cpu.so --gpu-trace=%t.plain.json | FileCheck %s --check-prefix=PLAIN
// RUN: FileCheck %s --check-prefix=PLAIN-JSON < %t.plain.json
// Each call copies its ciphertexts in and its result back (N = 2^8 words of
// one limb per polynomial: 2048 bytes), counted by the runtime; the
// plaintext's constant went to the device once, when the module was loaded;
// a cpu module's code reads host memory and copies nothing.
// RUN: fhec-exec %t.cpu.so --random --function=add | FileCheck %s --check-prefix=CPU
// With --on-device the inputs are copied to the device once and the calls
// run on them there (the outputs stay, as a program's chained calls pass
// them): a call copies nothing, and its results are the cpu module's.
// RUN: fhec-exec %t.plain.so --random --function=add --on-device --repeat=3 --expect-from=%t.cpu.so --json=%t.dev.json | FileCheck %s --check-prefix=DEVICE
// RUN: FileCheck %s --check-prefix=DEVICE-JSON < %t.dev.json
// RUN: not fhec-exec %t.cpu.so --random --function=add --on-device 2>&1 | FileCheck %s --check-prefix=HOST
// --trace-sampled-only runs only the traced blocks (the cost model's trace of
// a program too long to emulate whole): its outputs are not the program's, so
// it is refused with anything that would check them. (Here each grid's 8
// blocks, one a 32-coefficient tile of the BigInt addition, are all traced:
// the footprint is not estimated; the runtime's GpuTrace tests check the
// estimate.)
// RUN: fhec-exec %t.traced.so --random --function=add --gpu-trace=%t.sampled.json --trace-blocks=8 --trace-sampled-only | FileCheck %s --check-prefix=SAMPLED
// RUN: FileCheck %s --check-prefix=SAMPLED-JSON < %t.sampled.json
// RUN: not fhec-exec %t.traced.so --random --function=add --gpu-trace=%t.s.json --trace-sampled-only --expect-from=%t.cpu.so 2>&1 | FileCheck %s --check-prefix=SAMPLED-CHECKED
// RUN: not fhec-exec %t.traced.so --random --function=add --trace-sampled-only 2>&1 | FileCheck %s --check-prefix=SAMPLED-CHECKED

// EXEC: @add on cuda-emu
// EXEC-NEXT: copied per call: 8192 bytes to the device, 4096 back
// CPU: copied per call: 0 bytes to the device, 0 back
// DEVICE: output 0: bit-identical
// DEVICE: copied per call: 0 bytes to the device, 0 back
// DEVICE-JSON: "on_device": true, "total_ms_median": {{.*}}, "bytes_to_device_per_call": 0, "bytes_to_host_per_call": 0
// HOST: fhec-exec: --on-device: 'add' runs on the host (a cpu module): pass ciphertexts in host memory, not on a device
// JSON: [
// JSON-NEXT: {"kernel": "add_kernel", "phase": "{{[A-Za-z]+}}", "grid": [{{[0-9]+}}, 1, 1], "block": [256, 1, 1], "blocks": {{[0-9]+}}, "traced_blocks": 1, "traced_warps": 8, "issue_slots": {{[1-9][0-9]*}},
// JSON-SAME: "global_requests": {{[1-9][0-9]*}}
// JSON: ]
// UNTRACED: fhec-exec: --gpu-trace: no traced launch (compile the module with --target=cuda-emu --gpu-trace)
// BLOCKS: usage: fhec-exec
// SAMPLED: output 0: not checked (--trace-sampled-only ran part of each launch)
// SAMPLED-JSON: "blocks": 8, "traced_blocks": 8,{{.*}}"footprint_estimated": false}
// SAMPLED-CHECKED: fhec-exec: --trace-sampled-only runs part of each launch: it needs --gpu-trace and --random, one run and no --expect-from
// PLAIN: output 0: bit-identical
// PLAIN: copied per call: 4096 bytes to the device, 4096 back
// PLAIN-JSON-NOT: "outside_device_memory": {{[1-9]}}

!ct = !ckks.ct<logN = 8, logq = 60, logp = 30, slots = 64>
module attributes {ckks.params = #ckks.params<logN = 8, logQ = 60, logp = 30, security = "none">} {
  func.func @add(%a: !ct, %b: !ct) -> !ct {
    %0 = ckks.add %a, %b : !ct
    return %0 : !ct
  }
  func.func @add_plain(%a: !ct) -> !ct {
    %0 = ckks.add_plain %a {values = dense<(0.5, -0.25)> : tensor<64xcomplex<f64>>} : !ct
    return %0 : !ct
  }
}
