// REQUIRES: ptxas
// RUN: fhec %S/cuda.mlir --target=cuda --emit=ptx -o %t.sm90.ptx
// RUN: %ptxas -arch=sm_90 --warning-as-error -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s --check-prefix=FRAME
// RUN: fhec %S/cuda.mlir --target=cuda --gpu-arch=sm_80 --emit=ptx -o %t.sm80.ptx
// RUN: FileCheck %s < %t.sm80.ptx
// RUN: %ptxas -arch=sm_80 --warning-as-error -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s --check-prefix=FRAME
// Every kernel of HE Mul (CRT, NTT, Hadamard, iNTT, iCRT, rescale) is valid
// PTX for both GPUs the cuda target supports, checked by NVIDIA's assembler;
// so are the kernels of every other op: add, sub, negate, constants,
// mod_down (Inputs/every-op.mlir), rotations, conjugation and plaintext
// operands (fhec-scheme-ops.mlir), and the sigmoid example's chain.
// RUN: fhec %S/Inputs/every-op.mlir --target=cuda --emit=ptx -o %t.ops90.ptx
// RUN: %ptxas -arch=sm_90 --warning-as-error -v %t.ops90.ptx -o %t.ops90.cubin 2>&1 | FileCheck %s --check-prefix=FRAME
// RUN: fhec %S/Inputs/every-op.mlir --target=cuda --gpu-arch=sm_80 --emit=ptx -o %t.ops80.ptx
// RUN: %ptxas -arch=sm_80 --warning-as-error -v %t.ops80.ptx -o %t.ops80.cubin 2>&1 | FileCheck %s --check-prefix=FRAME
// RUN: fhec %S/../tools/fhec-scheme-ops.mlir --target=cuda --emit=ptx -o %t.rot90.ptx
// RUN: %ptxas -arch=sm_90 --warning-as-error -v %t.rot90.ptx -o %t.rot90.cubin 2>&1 | FileCheck %s --check-prefix=FRAME
// RUN: fhec %S/../tools/fhec-scheme-ops.mlir --target=cuda --gpu-arch=sm_80 --emit=ptx -o %t.rot80.ptx
// RUN: %ptxas -arch=sm_80 --warning-as-error -v %t.rot80.ptx -o %t.rot80.cubin 2>&1 | FileCheck %s --check-prefix=FRAME
// RUN: fhec %fhec_src/examples/sigmoid.mlir --target=cuda --emit=ptx -o %t.sig90.ptx
// RUN: %ptxas -arch=sm_90 --warning-as-error -v %t.sig90.ptx -o %t.sig90.cubin 2>&1 | FileCheck %s --check-prefix=FRAME
// RUN: fhec %fhec_src/examples/sigmoid.mlir --target=cuda --gpu-arch=sm_80 --emit=ptx -o %t.sig80.ptx
// RUN: %ptxas -arch=sm_80 --warning-as-error -v %t.sig80.ptx -o %t.sig80.cubin 2>&1 | FileCheck %s --check-prefix=FRAME
// CHECK: .target sm_80
// ptxas -v: no kernel spills registers or keeps a stack frame: HE Mul's
// (the CRT batch, the NTT batches, the Hadamard chains, the tiled iCRTs),
// every op's in Inputs/every-op.mlir, the rotations' and the sigmoid chain's.
// FRAME: ptxas info
// FRAME-NOT: {{[1-9][0-9]*}} bytes stack frame
// FRAME-NOT: {{[1-9][0-9]*}} bytes spill
