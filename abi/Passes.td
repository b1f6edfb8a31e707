// The loop- and ABI-level passes: kernels outlined, the workspace planned,
// buffers freed, the C ABI and the manifest emitted.
#ifndef FHEC_ABI_PASSES_TD
#define FHEC_ABI_PASSES_TD

include "mlir/Pass/PassBase.td"

def FHECOutlineKernels : Pass<"fhec-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Outline each kernel loop nest into a private function and merge identical kernels";
  let description = [{
    Every top-level scf.parallel / scf.for of a lowered function becomes a
    private function (`<function>_kernel`, kept out of line) of the buffers
    and values it captures, called in its place; constants it reads are
    cloned into it. Kernels with equal argument types and equal bodies are
    merged into one. A program repeats its kernels (each product runs the
    same CRT, NTT and iCRT of its basis, each rotation the same key
    switching), so code size and the LLVM compile time follow the number of
    distinct kernels rather than the number of operations. Results are
    unchanged.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::func::FuncDialect", "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numKernels", "kernels", "Distinct kernels outlined">,
    Statistic<"numReused", "reused", "Kernel instances merged into an identical one">,
  ];
}

def FHECPlanWorkspace : Pass<"fhec-plan-workspace", "::mlir::ModuleOp"> {
  let summary = "Place every kernel temporary of a function in one workspace, reusing dead buffers";
  let description = [{
    Memory planning (an optimization of -O1 and above; on GPU targets it runs
    at every level, since their buffers must be device memory the runtime
    allocates); runs after fhe-to-loops. Each top-level memref.alloc of a
    function (a kernel's result buffer) is live from its allocation to the last top-level
    op using it or a view of it; buffers with disjoint live ranges share
    bytes. Placement is greedy by decreasing size at the lowest free 64-byte
    aligned offset. The allocations become memref.view's of a trailing
    `memref<S x i8>` argument marked `fhe.workspace`, and the function records
    S in `fhe.workspace_bytes`; the runtime allocates the workspace once per
    executor, so a call allocates nothing. Returned buffers are left for
    fhec-abi, which makes them out-parameters.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

def FHECFreeBuffers : Pass<"fhec-free-buffers", "::mlir::ModuleOp"> {
  let summary = "Free each kernel buffer left on the heap after its last use";
  let description = [{
    The lowering without memory planning (-O0 on the CPU targets, or with
    fhec-plan-workspace disabled): every top-level memref.alloc of a
    function that is not returned gets a memref.dealloc right after the last top-level op that
    uses it or a view of it, so a call allocates and frees each temporary
    (malloc/free) as the first fhec did. After fhec-plan-workspace no such
    buffer is left.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def FHECABI : Pass<"fhec-abi", "::mlir::ModuleOp"> {
  let summary = "Rewrite lowered functions to fhec's calling convention and record the manifest";
  let description = [{
    Results become trailing out-parameters (a returned kernel buffer is
    replaced by its out-parameter; anything else is copied into it), each
    distinct `fhe.table` becomes a leading argument (kind, basis, parameter),
    so does each constant global a function reads (`fhe.constant`: an encoded
    plaintext, which the runtime passes from the module's own copy on CPU
    targets and from a copy on the device for GPU targets), the workspace
    argument stays last. The module's ABI manifest (target,
    parameters, bases, functions and the role of every argument; parsed by
    the runtime) is stored in `fhe.manifest`, the entry names in `fhe.entries`.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def FHECEmitABI : Pass<"fhec-emit-abi", "::mlir::ModuleOp"> {
  let summary = "Emit the C ABI of a lowered module: entry wrappers, manifest and version globals";
  let description = [{
    Runs on the LLVM dialect. For each function named in `fhe.entries` adds
    `void __fhec_entry_<name>(void **args)` which loads one pointer per
    argument and calls the bare-pointer function; adds the globals
    `__fhec_abi_version` (i32) and `__fhec_manifest` (NUL-terminated text).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // FHEC_ABI_PASSES_TD
