// The target is attached once (fhec-attach-target) and every pass that reads
// it refuses a module whose fhe.target names no known target.
// RUN: not fhec-opt --fhec-attach-target=name=tpu %s 2>&1 | FileCheck %s --check-prefix=ATTACH
// RUN: not fhec-opt --fhe-select-basis %s 2>&1 | FileCheck %s
// RUN: not fhec-opt --fhe-fuse %s 2>&1 | FileCheck %s
// RUN: not fhec-opt --fhe-merge-ntt-levels %s 2>&1 | FileCheck %s
// RUN: not fhec-opt --fhe-insert-transposes %s 2>&1 | FileCheck %s
// RUN: not fhec-opt --fhe-reorder-icrt %s 2>&1 | FileCheck %s
// RUN: not fhec-opt --fhe-to-loops %s 2>&1 | FileCheck %s
// RUN: not fhec-opt --fhec-gpu-launch-to-runtime %s 2>&1 | FileCheck %s
// ATTACH: error: fhec-attach-target: unknown target 'tpu' (expected cpu, cpu-avx512, cuda, cuda-emu)
// CHECK: error: unknown target "tpu" in 'fhe.target' (expected one of cpu, cpu-avx512, cuda, cuda-emu)
module attributes {fhe.target = "tpu"} {
}
