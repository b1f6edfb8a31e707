// REQUIRES: ptxas
// RUN: fhec %S/cuda.mlir --target=cuda --emit=ptx -o %t.sm90.ptx
// RUN: %ptxas -arch=sm_90 --warning-as-error %t.sm90.ptx -o %t.sm90.cubin
// RUN: fhec %S/cuda.mlir --target=cuda --gpu-arch=sm_80 --emit=ptx -o %t.sm80.ptx
// RUN: FileCheck %s < %t.sm80.ptx
// RUN: %ptxas -arch=sm_80 --warning-as-error %t.sm80.ptx -o %t.sm80.cubin
// Every kernel of HE Mul (CRT, NTT, Hadamard, iNTT, iCRT, rescale) is valid
// PTX for both GPUs the cuda target supports, checked by NVIDIA's assembler.
// CHECK: .target sm_80
