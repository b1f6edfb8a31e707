// REQUIRES: mock-cuda
// The cuda target's runtime against a mock CUDA driver (test/runtime/mock-cuda:
// host memory, kernels that do not run, every driver call checked and logged),
// so that its driver-API code runs on machines without a GPU. The results are
// not HE Mul's (FAIL: the mock runs no kernel); the driver calls are checked.
// RUN: rm -f %t.log
// RUN: env LD_LIBRARY_PATH=%mock_cuda_dir FHEC_MOCK_CUDA_LOG=%t.log not fhec run %S/cuda.mlir --target=cuda --no-reference --repeat=4 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// RUN: not grep misuse %t.log
// RUN: grep -c "^run he_mul_kernel " %t.log | FileCheck %s --check-prefix=TWICE
// RUN: grep -c "^run __fhec_evk_prepare_kernel " %t.log | FileCheck %s --check-prefix=TWICE
// RUN: grep -c "cuGraphInstantiate" %t.log | FileCheck %s --check-prefix=TWICE
// RUN: not grep cuGraphExecKernelNodeSetParams %t.log
//
// A stream of its own. HE Mul's first two calls issue their kernels one at
// a time; the second launches the first's kernels, so it is instantiated as
// a graph that the later calls launch, on the same argument values (no node
// is updated). The evaluation key's two preparations (ax and bx) are
// instantiated too, after the second.
// The phase times come from events either way (1 ms per mock kernel).
// LOG: cuStreamCreate flags=1
// LOG: cuModuleLoadData
// LOG: cuLaunchKernel he_mul_kernel grid=
// LOG-NEXT: run he_mul_kernel args=[[ARGS:[0-9a-f]+]]
// LOG: cuLaunchKernel he_mul_kernel grid=
// LOG-NEXT: run he_mul_kernel args=[[ARGS]]
// LOG: cuGraphInstantiate kernels=[[K:[0-9]+]] events=[[E:[0-9]+]]
// LOG-NEXT: cuGraphLaunch kernels=[[K]] events=[[E]]
// LOG-NEXT: node he_mul_kernel args=[[ARGS]]
// LOG: cuGraphLaunch kernels=[[K]] events=[[E]]
// LOG-NEXT: node he_mul_kernel args=[[ARGS]]
// LOG-NOT: cuLaunchKernel he_mul
// TWICE: {{^}}2{{$}}
// OUT-NOT: error
// OUT: NTT {{[1-9][0-9]*\.[0-9]}}
// OUT: iCRT {{[1-9][0-9]*\.[0-9]}}
// OUT: GMP reference [0]: skipped
// OUT: FAIL
//
// Without a graph (instantiation refused, and not tried again), every call
// issues its kernels.
// RUN: rm -f %t.nograph.log
// RUN: env LD_LIBRARY_PATH=%mock_cuda_dir FHEC_MOCK_CUDA_LOG=%t.nograph.log FHEC_MOCK_CUDA_FAIL=cuGraphInstantiateWithFlags:0 not fhec run %S/cuda.mlir --target=cuda --no-reference --repeat=4 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: grep -c "^run he_mul_kernel " %t.nograph.log | FileCheck %s --check-prefix=FOUR
// RUN: grep -c "cuGraphInstantiate" %t.nograph.log | FileCheck %s --check-prefix=TWICE
// RUN: not grep -e misuse -e cuGraphLaunch %t.nograph.log
// FOUR: {{^}}4{{$}}
//
// fhec-exec, on fresh keys and inputs, exits 0 (every run's outputs the
// first run's: here the staging buffers' poison, the same each time), and
// leaves no sanitizer report at exit.
// RUN: fhec %S/cuda.mlir --target=cuda -o %t.so
// RUN: env LD_LIBRARY_PATH=%mock_cuda_dir FHEC_MOCK_CUDA_LOG=%t.exec.log fhec-exec %t.so --random --repeat=3 | FileCheck %s --check-prefix=EXEC
// RUN: not grep misuse %t.exec.log
// EXEC: output 0: not checked
// EXEC: @he_mul on cuda
//
// Errors: a message that says what failed (the kernel's name where there is
// one), exit 1, no crash.
// RUN: env LD_LIBRARY_PATH=%mock_cuda_dir FHEC_MOCK_CUDA_DEVICES=0 not fhec run %S/cuda.mlir --target=cuda 2>&1 | FileCheck %s --check-prefix=NODEV
// NODEV: fhec run: error: --target=cuda runs on an NVIDIA GPU, but there is none here (no CUDA device)
// RUN: env LD_LIBRARY_PATH=%mock_cuda_dir FHEC_MOCK_CUDA_FAIL=cuInit:1 not fhec run %S/cuda.mlir --target=cuda 2>&1 | FileCheck %s --check-prefix=INIT
// INIT: fhec run: error: --target=cuda runs on an NVIDIA GPU, but there is none here (the CUDA driver does not start (cuInit: initialization error))
// RUN: env LD_LIBRARY_PATH=%mock_cuda_dir FHEC_MOCK_CUDA_FAIL=cuMemAlloc_v2:5 not fhec run %S/cuda.mlir --target=cuda 2>&1 | FileCheck %s --check-prefix=OOM
// OOM: fhec run: error: cuda: allocating {{[0-9]+}} bytes of GPU memory failed: out of memory
// RUN: env LD_LIBRARY_PATH=%mock_cuda_dir FHEC_MOCK_CUDA_FAIL=cuModuleLoadData:1 not fhec run %S/cuda.mlir --target=cuda 2>&1 | FileCheck %s --check-prefix=PTX
// PTX: fhec run: error: cuda: kernel {{[_a-z0-9]+}}: loading the module's PTX failed: a PTX JIT compilation failed
// RUN: env LD_LIBRARY_PATH=%mock_cuda_dir FHEC_MOCK_CUDA_FAIL=cuLaunchKernel:6 not fhec run %S/cuda.mlir --target=cuda 2>&1 | FileCheck %s --check-prefix=LAUNCH
// LAUNCH: fhec run: error: cuda: kernel he_mul_kernel{{[_0-9]*}}: launch failed: too many resources requested for launch
// RUN: env LD_LIBRARY_PATH=%mock_cuda_dir FHEC_MOCK_CUDA_FAULT=12 not fhec run %S/cuda.mlir --target=cuda 2>&1 | FileCheck %s --check-prefix=FAULT
// FAULT: fhec run: error: cuda: a kernel failed (the last one issued: he_mul_kernel{{[_0-9]*}}): unspecified launch failure
// The 30th kernel run falls in the first graph launch (the calls before it run 24 kernels).
// RUN: env LD_LIBRARY_PATH=%mock_cuda_dir FHEC_MOCK_CUDA_FAULT=30 not fhec run %S/cuda.mlir --target=cuda --repeat=3 2>&1 | FileCheck %s --check-prefix=GRAPHFAULT
// GRAPHFAULT: fhec run: error: cuda: a kernel failed (the last one issued: he_mul_kernel{{[_0-9]*}}): unspecified launch failure
// RUN: env LD_LIBRARY_PATH=%mock_cuda_dir FHEC_MOCK_CUDA_FAIL=cuGraphLaunch:1 not fhec run %S/cuda.mlir --target=cuda --repeat=3 2>&1 | FileCheck %s --check-prefix=GRAPH
// A copy that fails where no kernel was issued (a device ciphertext's
// download, after fhec-exec --on-device's call) names the copy, not a kernel.
// RUN: env LD_LIBRARY_PATH=%mock_cuda_dir FHEC_MOCK_CUDA_FAIL=cuMemcpyDtoHAsync_v2:1 not fhec-exec %t.so --random --on-device 2>&1 | FileCheck %s --check-prefix=DOWNLOAD
// DOWNLOAD: fhec-exec: cuda: copying {{[0-9]+}} bytes to the host failed: invalid argument
// GRAPH: fhec run: error: cuda: launching the graph of {{[0-9]+}} kernels failed: too many resources requested for launch
