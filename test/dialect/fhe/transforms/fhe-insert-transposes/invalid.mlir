// RUN: not fhec-opt --fhe-insert-transposes %s 2>&1 | FileCheck %s
// CHECK: error: unknown target "fpga" in 'fhe.target' (expected one of cpu, cpu-avx512, cuda, cuda-emu)
module attributes {fhe.target = "fpga"} {
  func.func @f() {
    return
  }
}
