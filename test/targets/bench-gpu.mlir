// The GPU benchmark's scripts (bench/gpu), with a cuda-emu bundle so that they
// run here: prepare.py compiles the case for the GPU target and for cpu (the
// oracle) and bundles fhec-exec and the runtime; run.py runs the GPU build on
// fresh keys and inputs, checks it bit for bit against the cpu build, and
// reports phases, bytes copied, the calls on ciphertexts kept on the device
// (none copied) and NTT rows.
// RUN: rm -rf %t && %python %fhec_src/bench/gpu/prepare.py --out %t/bundle --build %fhec_build --target cuda-emu --cases he_mul_logN12 | FileCheck %s --check-prefix=PREPARE
// RUN: %python %fhec_src/bench/gpu/run.py %t/bundle %t/out --repeat 1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t/out/results.json
// PREPARE: prepare: {{.*}}program.mlir --target=cuda-emu -O2
// PREPARE: prepare: {{.*}}program.mlir --target=cpu -O2
// PREPARE: holds {{[0-9.]+}} MiB
// CHECK: == he_mul_logN12:
// CHECK: output 0: bit-identical
// CHECK: @he_mul on cuda-emu (logN=12 logQ=300)
// CHECK: kernels (sum of the phases) {{[0-9.]+}} ms of the call's {{[0-9.]+}} ms, which copied 0.6 MiB to the GPU and 0.3 MiB back
// CHECK: --on-device: output 0: bit-identical
// CHECK: on the device (chained calls): {{[0-9.]+}} ms per call, {{[0-9.]+}} ms of kernels, 0 bytes copied
// CHECK: NTT: {{[0-9]+}} prime rows of 2^12, {{[0-9.]+}} us each
// JSON: "case": "he_mul_logN12"
// JSON: "chained": {
// JSON: "bytes_to_device_per_call": 0,
// JSON-NEXT: "bytes_to_host_per_call": 0
// JSON: "residue_word_bytes": 4
