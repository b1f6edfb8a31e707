// RUN: fhec-opt --fhec-attach-target=name=cuda-emu --fhec-gpu-launch-to-runtime %s -verify-diagnostics
// A kernel argument that is (a view of) a host global is refused: a GPU's
// kernels cannot read the host's memory (fhec-abi passes constants as
// arguments, which the runtime fills with copies on the device).

module attributes {gpu.container_module} {
  memref.global "private" constant @words : memref<8xi64> = dense<[1, 2, 3, 4, 5, 6, 7, 8]>
  gpu.module @fhec_kernels {
    gpu.func @k(%a: memref<4xi64, strided<[1], offset: 4>>) kernel {
      gpu.return
    }
  }
  func.func @f() {
    %c1 = arith.constant 1 : index
    %g = memref.get_global @words : memref<8xi64>
    %v = memref.subview %g[4] [4] [1] : memref<8xi64> to memref<4xi64, strided<[1], offset: 4>>
    // expected-error @+1 {{kernel argument #0 is the host's global @words, which the GPU cannot read}}
    gpu.launch_func @fhec_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%v : memref<4xi64, strided<[1], offset: 4>>)
    return
  }
}
