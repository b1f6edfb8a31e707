// fhec --print-targets: the one target table that lit (lit.cfg.py) and the
// benches (bench/machine.py) read, with the features this CPU lacks (keys in
// alphabetical order, as llvm::json prints them).
// RUN: fhec --print-targets | FileCheck %s
// RUN: env FHEC_MASK_CPU_FEATURES=avx512ifma fhec --print-targets | FileCheck %s --check-prefix=MASKED
// On a CPU with AVX-512 IFMA, the mask is all that is missing:
// RUN: %if avx512ifma %{ env FHEC_MASK_CPU_FEATURES=avx512ifma fhec --print-targets | FileCheck %s --check-prefix=ONLY %}
// CHECK: "cpu_features": [],
// CHECK-NEXT: "emulated": false,
// CHECK-NEXT: "gpu": false,
// CHECK-NEXT: "missing_here": [],
// CHECK-NEXT: "name": "cpu"
// CHECK: "cpu_features": [
// CHECK-NEXT: "avx512f",
// CHECK-NEXT: "avx512dq",
// CHECK-NEXT: "avx512vl",
// CHECK-NEXT: "avx512ifma"
// CHECK: "name": "cpu-avx512"
// CHECK: "emulated": false,
// CHECK-NEXT: "gpu": true,
// CHECK: "name": "cuda"
// CHECK: "emulated": true,
// CHECK-NEXT: "gpu": true,
// CHECK: "name": "cuda-emu"
// MASKED: "name": "cpu"
// MASKED: "missing_here": [{{$}}
// MASKED-NOT: "name"
// MASKED: "avx512ifma"
// MASKED-NEXT: ],
// MASKED-NEXT: "name": "cpu-avx512"
// ONLY: "missing_here": [{{$}}
// ONLY-NEXT: "avx512ifma"
// ONLY-NEXT: ],
// ONLY-NEXT: "name": "cpu-avx512"
