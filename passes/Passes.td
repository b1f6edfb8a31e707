#ifndef FHEC_PASSES_TD
#define FHEC_PASSES_TD

include "mlir/Pass/PassBase.td"

def FHESelectBasis : Pass<"fhe-select-basis", "::mlir::ModuleOp"> {
  let summary = "Choose the primes of every RNS basis for the target";
  let description = [{
    Replaces each unresolved `#fhe.basis<min_bits = B>` by the shortest
    prefix of the shared deterministic NTT-prime sequence (p = 1 mod 2N,
    `prime-bits` wide) whose product is at least 2^B. The width depends on the
    target: 60 bits for portable 64-bit code (Shoup/Barrett need p < 2^62),
    50 for AVX-512 IFMA (52-bit multiplier), 30 for CUDA 32-bit arithmetic.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "Target whose arithmetic fixes the prime width: cpu, cpu-avx512 or cuda">,
    Option<"primeBits", "prime-bits", "unsigned", /*default=*/"0",
           "Prime width in bits, overriding the target's (0: by target)">,
  ];
}

def FHECPlanWorkspace : Pass<"fhec-plan-workspace", "::mlir::ModuleOp"> {
  let summary = "Place every kernel temporary of a function in one workspace, reusing dead buffers";
  let description = [{
    Runs after fhe-to-loops. Each top-level memref.alloc of a function (a
    kernel's result buffer) is live from its allocation to the last top-level
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

def FHECABI : Pass<"fhec-abi", "::mlir::ModuleOp"> {
  let summary = "Rewrite lowered functions to fhec's calling convention and record the manifest";
  let description = [{
    Results become trailing out-parameters (a returned kernel buffer is
    replaced by its out-parameter; anything else is copied into it), each
    distinct `fhe.table` becomes a leading argument (kind, basis, parameter),
    the workspace argument stays last. The module's ABI manifest (target,
    parameters, bases, functions and the role of every argument; parsed by
    the runtime) is stored in `fhe.manifest`, the entry names in `fhe.entries`.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def FHECEmitABI : Pass<"fhec-emit-abi", "::mlir::ModuleOp"> {
  let summary = "Emit the C ABI of a lowered module: entry wrappers, manifest and version globals";
  let description = [{
    Runs on the LLVM dialect. For each function named in `fhec.entries` adds
    `void __fhec_entry_<name>(void **args)` which loads one pointer per
    argument and calls the bare-pointer function; adds the globals
    `__fhec_abi_version` (i32) and `__fhec_manifest` (NUL-terminated text).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif
