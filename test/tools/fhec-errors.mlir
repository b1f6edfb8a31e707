// RUN: not fhec %s --target=tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not fhec %s --emit=exe 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not fhec %s --emit=so 2>&1 | FileCheck %s --check-prefix=SO
// RUN: not fhec %s.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not fhec %S/Inputs/ill-typed.mlir 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not fhec run %S/Inputs/ill-typed.mlir 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not fhec %S/Inputs/malformed.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX

module attributes {ckks.params = #ckks.params<logN = 6, logQ = 80, logp = 20, security = "none">} {
}
// TARGET: fhec: error: unknown target 'tpu' (available: cpu, cpu-avx512, cuda, cuda-emu, auto)
// EMIT: fhec: error: unknown --emit=exe
// SO: fhec: error: --emit=so needs an output file
// MISSING: fhec: error: {{.*}}missing
// TYPE: ill-typed.mlir:6:10: error: 'ckks.mul' op result logp must be 40 (sum of the operands' logp), got 20
// SYNTAX: malformed.mlir:3:{{[0-9]+}}: error:
// RUN: not fhec %s -O3 2>&1 | FileCheck %s --check-prefix=OLEVEL
// RUN: not fhec %s --disable-pass=fhe-vectorize 2>&1 | FileCheck %s --check-prefix=DISABLE
// RUN: not fhec %s --target=cuda-emu --emit=mlir --disable-pass=fhec-plan-workspace 2>&1 | FileCheck %s --check-prefix=GPUPLAN
// RUN: not fhec %s --pass-option=fhe-fuse 2>&1 | FileCheck %s --check-prefix=OPTSYNTAX
// RUN: not fhec %s --pass-option='fhe-tile{size=4}' 2>&1 | FileCheck %s --check-prefix=OPTPASS
// RUN: not fhec %s --pass-option='fhe-fuse{speed=fast}' 2>&1 | FileCheck %s --check-prefix=OPTNAME
// RUN: not fhec %S/Inputs/mul.mlir --emit=fhe --pass-option='fhe-merge-ntt-levels{radix-log=7}' 2>&1 | FileCheck %s --check-prefix=RADIX
// RUN: not fhec %S/Inputs/mul.mlir --emit=fhe --pass-option='fhe-merge-ntt-levels{skip-levels=6}' 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: fhec --help | FileCheck %s --check-prefix=HELP
// RUN: not fhec run %S/Inputs/mul.mlir --compare='--threads=x' 2>&1 | FileCheck %s --check-prefix=CMPTHREADS
// RUN: not fhec %S/Inputs/mul.mlir --emit=fhe -o %t.missing/dir/out 2>&1 | FileCheck %s --check-prefix=OUTDIR
// RUN: not fhec %S/Inputs/mul.mlir --emit=so -o %t.missing/dir/out.so 2>&1 | FileCheck %s --check-prefix=SODIR
// CMPTHREADS: fhec: error: --compare='--threads=x': --threads needs a number
// OUTDIR: fhec: error: cannot open output file
// SODIR: fhec: error: cannot write '{{.*}}missing/dir/out.so': No such file or directory
// RUN: not fhec run %S/Inputs/tiny-ring.mlir 2>&1 | FileCheck %s --check-prefix=TINY
// TINY: tiny-ring.mlir:3:46: error: a sparse secret needs its Hamming weight h in [1, N = 32], not 64
// OLEVEL: fhec: error: unknown optimization level -O3 (expected -O0, -O1 or -O2)
// DISABLE: fhec: error: --disable-pass=fhe-vectorize: no such optimization pass (passes: fhe-hoist-automorphisms, fhe-reorder-icrt, fhe-merge-ntt-levels, fhe-insert-transposes, fhe-hoist-constants, fhe-fuse, fhec-plan-workspace)
// GPUPLAN: fhec: error: --disable-pass=fhec-plan-workspace: a GPU target needs it (its buffers live in the workspace)
// OPTSYNTAX: fhec: error: --pass-option='fhe-fuse': expected NAME{key=value ...}
// OPTPASS: fhec: error: --pass-option: no optimization pass named 'fhe-tile'
// OPTNAME: error: options of fhe-fuse: {{.*}}speed
// RADIX: error: fhe-merge-ntt-levels: radix-log = 7 is above the 6 stages of the NTT (logN = 6, 0 skipped)
// SKIP: error: fhe-merge-ntt-levels: skip-levels = 6 leaves no stage of the 6 of a 2^6-point NTT (it must be below 6)
// HELP: fhec options:
// HELP: --allow-insecure
// HELP: --disable-pass=<name>
// HELP: --pass-option=<name{options}>
// HELP-NOT: --x86-
// HELP-NOT: --amdgpu
// RUN: not fhec %S/Inputs/mul.mlir --target=cuda --gpu-trace -o %t.so 2>&1 | FileCheck %s --check-prefix=GPUTRACE
// GPUTRACE: fhec: error: --gpu-trace instruments the cuda-emu target's kernels only (got --target=cuda)
