// RUN: not fhec-opt --fhe-insert-transposes="target=fpga" %s 2>&1 | FileCheck %s
// CHECK: error: fhe-insert-transposes: unknown target 'fpga' (expected cpu, cpu-avx512, cuda, cuda-emu)
func.func @f() {
  return
}
