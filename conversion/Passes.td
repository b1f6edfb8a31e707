#ifndef FHEC_CONVERSION_PASSES_TD
#define FHEC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def CKKSToFHE : Pass<"ckks-to-fhe", "::mlir::ModuleOp"> {
  let summary = "Lower ckks ops to the CRT/NTT/Hadamard/iNTT/iCRT dataflow of HE Mul";
  let description = [{
    Every ciphertext becomes its two BigInt polynomials (ax, bx). HE Mul
    becomes the five polynomial products of HEAAN's Scheme::mult
    (Jung et al. 2021, Fig. 2): region 1 in Karatsuba form (a1 a2, b1 b2,
    (a1 + b1)(a2 + b2)) and region 2 (relinearization with the evaluation
    key, held in RNS/NTT form and passed as extra arguments `evk.ax`,
    `evk.bx`, and with dnum > 1 the further parts `evk.ax.1`, `evk.bx.1`,
    ...). Rotations and conjugation switch keys the same way with the
    rotation keys `rk<g>.ax`, `rk<g>.bx`, and bootstrapping's encapsulation
    with the keys `ek<q0>.sparse.*` and `ek<q0>.dense.*`. CRT'd and NTT'd
    operands are shared between products. The pass also emits
    `__fhec_evk_prepare`, the CRT + NTT the runtime runs once on each
    evaluation- and rotation-key polynomial (and `__fhec_ek_prepare_<q0>`
    for the key to the ephemeral secret). RNS bases carry only their bound
    (`#fhe.basis<min_bits = ...>`) until `fhe-select-basis`.
  }];
  let dependentDialects = ["::fhec::fhe::FHEDialect", "::mlir::func::FuncDialect"];
}

def FHEToLoops : Pass<"fhe-to-loops", "::mlir::ModuleOp"> {
  let summary = "Lower fhe kernel ops to scf loop nests over memrefs with modarith arithmetic";
  let description = [{
    A dialect conversion: every !fhe.poly becomes memref<N x limbs x i64>
    and every !fhe.rns memref<m x N x iW> (prime-major, rows padded to
    N + 24 words) or memref<N x m x iW> (coefficient-major), W the target's
    residue word (64 bits on the CPU targets, 32 on cuda and cuda-emu).
    One pattern family per kernel (conversion/FHEToLoops/): CRT (Algo. 1),
    NTT/iNTT in the levels of `fhe-merge-ntt-levels` with Harvey's lazy
    butterflies, residue-space kernels (Hadamard, add, sub,
    fused chains, incomplete-NTT small products, transposes), iCRT (Algo. 5,
    or Algo. 6 when `fhe-reorder-icrt` chose the matrix form), the BigInt
    chains, and fused coefficient-space kernels. Lowering reads the passes'
    decisions from the ops' attributes. Kernel results are memref.alloc'ed
    (placed by `fhec-plan-workspace`), tables are `fhe.table` ops (made
    arguments by `fhec-abi`), parallel loops are scf.parallel.
  }];
  let options = [
    Option<"phaseTimers", "phase-timers", "bool", /*default=*/"true",
           "Call the runtime's fhec_rt_phase_begin/end around every kernel">,
    Option<"icrtExactAlways", "icrt-exact-always", "bool", /*default=*/"false",
           "Testing: shifted digit iCRTs always take their exact path">,
    Option<"gpuLaunches", "gpu-launches", "bool", /*default=*/"true",
           "GPU targets: the NTT's merged levels as gpu.launch with shared memory and barriers "
           "(false: scf loops only, to run the target's arithmetic on the host)">,
    Option<"dropGpuBarrier", "drop-gpu-barrier", "bool", /*default=*/"false",
           "Testing: leave out the barrier before the last sub-level of each GPU NTT level (a data race)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect", "::fhec::modarith::ModArithDialect",
                           "::mlir::gpu::GPUDialect"];
}

def ModArithToArith : Pass<"modarith-to-arith"> {
  let summary = "Expand modarith ops into arith for the portable targets";
  let description = [{
    Shoup products with a base of the integer width (2^64 for i64), Barrett
    reduction of the double-word product, lazy add/sub/reduce with
    branch-free conditional subtractions (unsigned minima), and the
    three-word multiply-accumulate; elementwise on scalars or vectors.
    Used for every target but cpu-avx512. With word-bits=32 (the cuda and
    cuda-emu targets, primes < 2^30), residue arithmetic
    (add, sub, reduce, Shoup with base 2^32, Barrett) is done on i32 words,
    which GPUs multiply natively (mul.lo/mul.hi); the multi-word BigInt
    accumulations stay 64-bit.
  }];
  let options = [
    Option<"wordBits", "word-bits", "unsigned", /*default=*/"64",
           "Width of the residue words and the Shoup base 2^word-bits (64 or 32)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ModArithToAVX512 : Pass<"modarith-to-avx512"> {
  let summary = "Lower modarith ops for the cpu-avx512 target: IFMA products in base 2^52";
  let description = [{
    Shoup and Barrett products and 52-bit digit multiply-accumulates on
    vector<8xi64> become AVX-512 IFMA (`llvm.x86.avx512.vpmadd52l.uq.512`,
    `...vpmadd52h...` via llvm.call_intrinsic); scalar ops of the module use
    the same base 2^52 with 64-bit multiplies. Shoup: q = floor(x w' / 2^52),
    w' = floor(w 2^52 / p), r = x w - q p in [0, 2p) (x < 2^52). Barrett for
    b-bit primes (b <= 50): mu = floor(2^(b+50) / p), r < 3p. Residues are
    lazily in [0, 4p) < 2^52. add/sub/reduce and the accumulations are the
    portable lowerings.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect"];
}

def FHECCopyToParallelLoops : Pass<"fhec-copy-to-parallel-loops"> {
  let summary = "Rewrite memref.copy as an scf.parallel nest of loads and stores";
  let description = [{
    GPU targets: a copy of the host code (e.g. the limbs ckks.mod_down keeps)
    must become a kernel like every other memory access; as a parallel loop
    it is mapped to a grid with the rest. Static shapes only.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"];
}

def FHECSerialCodeToParallel : Pass<"fhec-serial-code-to-parallel", "::mlir::func::FuncOp"> {
  let summary = "Wrap host code that touches memory into one-iteration scf.parallel loops";
  let description = [{
    GPU targets: after inlining, some kernels leave serial code at the top
    level of a function (e.g. ckks.add_const changes the constant coefficient
    with a carry chain over its limbs). Each run of such code between two
    parallel loops or calls becomes a one-iteration scf.parallel, which the
    GPU mapping turns into a one-thread kernel; its stack buffers
    (memref.alloca) become the thread's own. A run whose values are used
    after it is left alone (fhec-gpu-kernel-module then reports it).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def FHECPromoteThreadScratch : Pass<"fhec-promote-thread-scratch", "::mlir::func::FuncOp"> {
  let summary = "Unroll the small loops that index a thread's scratch arrays, so they live in registers";
  let description = [{
    GPU targets: a memref.alloca inside an scf.parallel body is one thread's
    scratch (a BigInt's words, a coefficient's digits). Indexed by a loop's
    induction variable it is an array in local memory (the "stack frame" of
    `ptxas -v`, DRAM behind L1). Per parallel loop, all or nothing: when the
    scratch arrays of its body hold at most 64 words together (more spill
    from a thread's 255 registers) and are indexed only by
    constants and induction variables of scf.for loops with a constant trip
    count of at most `max-trip-count`, whose unrolled bodies stay within
    `max-unrolled-ops` operations, those loops are fully unrolled (deepest
    first); every index then folds to a constant and LLVM's SROA keeps the
    arrays in registers. Otherwise nothing changes: with one array left in
    local memory, unrolling for the others only adds register pressure (the
    paper-size iCRT kernels, measured 17% slower on an H200 that way on
    2026-11-26, commit b16147d).
  }];
  let options = [
    Option<"maxTripCount", "max-trip-count", "int64_t", "64", "Largest trip count to unroll">,
    Option<"maxUnrolledOps", "max-unrolled-ops", "int64_t", "8192",
           "Largest operation count of an unrolled loop (trip count x body)">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def FHECNormalizeParallelLoops : Pass<"fhec-normalize-parallel-loops"> {
  let summary = "Give every scf.parallel dimension lower bound 0 and step 1";
  let description = [{
    GPU targets tile each parallel loop into blocks x threads with
    `scf-parallel-loop-tiling{no-min-max-bounds}`, whose bounds guard is only
    right for unit steps (it scales the already scaled inner index by the
    step again, so a step-64 loop kept one thread in 32). This pass runs
    first: iv in [lb, ub) step s becomes lb + s * j for j in [0, ceil((ub - lb) / s)).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::affine::AffineDialect"];
}

def FHECGPUKernelModule : Pass<"fhec-gpu-kernel-module", "::mlir::ModuleOp"> {
  let summary = "Gather the outlined GPU kernels into one gpu.module and check the host code";
  let description = [{
    After `gpu-kernel-outlining` every launch has a gpu.module of its own.
    This pass moves every kernel into one `gpu.module @fhec_kernels` (one PTX
    module per program, loaded once by the runtime), each named after its
    former module, and updates the launches. The host functions of a GPU
    target may then only compute addresses (views, subviews, casts), call the
    runtime's hooks and launch kernels: memory they would read or write lives
    on the device. Any other access is reported with its location.
    `data-layout` (the device's LLVM data layout) goes on the gpu.module as
    `llvm.data_layout`: without it i64 accesses are taken as 4-byte aligned
    and NVPTX splits every one into two 32-bit loads or stores.
  }];
  let options = [
    Option<"dataLayout", "data-layout", "std::string", /*default=*/"\"\"",
           "LLVM data layout of the device (empty: none)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect"];
}

def FHECGPULaunchToRuntime : Pass<"fhec-gpu-launch-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Turn gpu.launch_func into calls of the fhec runtime's launch hooks";
  let description = [{
    Every kernel argument is stored in an 8-byte slot of a stack array
    (memrefs as their aligned pointer: kernels use the bare-pointer
    convention; index and integers zero-extended), and the launch becomes
      cuda:     fhec_rt_gpu_cuda_launch(ptx, name, gx, gy, gz, bx, by, bz,
                                        shared_bytes, slots, num_slots)
      cuda-emu: fhec_rt_gpu_emu_launch(trampoline, gx, gy, gz, bx, by, bz,
                                       shared_bytes, slots, flags)
    (flags: the kernel has workgroup buffers or barriers, so the CPU
    execution runs a block's threads together).
    For cuda the PTX of `gpu.binary @fhec_kernels` becomes the global
    `__fhec_gpu_ptx` and each kernel's name a string global; for cuda-emu each
    kernel gets a declared trampoline `__fhec_emu_<kernel>(slots)` that
    `fhec-gpu-emu-trampolines` defines once the kernel is lowered.
    A kernel argument that is a view of a `memref.get_global` is an error:
    the host's memory is out of a GPU's reach (fhec-abi turns constant
    globals into arguments the runtime fills with device copies).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def FHECGPUToEmu : Pass<"fhec-gpu-to-emu", "::mlir::ModuleOp"> {
  let summary = "Make the kernels of gpu.module @fhec_kernels host functions of the CPU execution";
  let description = [{
    The cuda-emu target runs the outlined kernels on the CPU with the GPU's
    semantics (docs/gpu.md, "cuda-emu"): each gpu.func becomes a
    private func.func of the host module; gpu.thread_id, block_id, block_dim
    and grid_dim become calls of fhec_rt_gpu_thread_id(dim) ... (the runtime
    keeps them per emulated thread) and gpu.barrier a call of
    fhec_rt_gpu_barrier(), a real barrier of the block's threads. Workgroup
    buffers become memref.view's of fhec_rt_gpu_shared_memory(), the block's
    48 KiB (CUDA's static limit, checked here), one after the other. Run after
    fhec-gpu-launch-to-runtime (nothing may launch the gpu.module any more).
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect"];
}

def FHECGPUEmuTrace : Pass<"fhec-gpu-emu-trace", "::mlir::ModuleOp"> {
  let summary = "Instrument the cuda-emu kernels for the GPU cost model";
  let description = [{
    Run after fhec-gpu-to-emu (`fhec --target=cuda-emu --gpu-trace`). In each
    kernel function (`__fhec_kernel_*`), every memref.load and memref.store
    first calls fhec_rt_gpu_trace_access(site, byte address, bytes, kind),
    kind = 2 * space + store, where the space (global, shared, local) comes
    from the memref's root: a kernel argument, a view of the block's shared
    memory, an alloca; a memref of any other origin is an error. Every basic
    block calls fhec_rt_gpu_trace_ops(weight) with its issue weight in 32-bit
    instruction slots of an sm_90 GPU, and the kernel's entry
    fhec_rt_gpu_trace_kernel(name). The runtime records sampled blocks and
    counts sectors, bank conflicts and instructions per warp (docs/gpu-model.md).
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect"];
}

def FHECGPUEmuTrampolines : Pass<"fhec-gpu-emu-trampolines", "::mlir::ModuleOp"> {
  let summary = "Define the cuda-emu trampolines that unpack argument slots and call a kernel";
  let description = [{
    On the LLVM dialect: each declaration `__fhec_emu_<kernel>(ptr slots)`
    left by fhec-gpu-launch-to-runtime gets a body that loads the kernel's
    parameters from the 8-byte slots (pointers, i64, or the low half for i32)
    and calls the lowered kernel.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif
