#ifndef FHEC_PASSES_TD
#define FHEC_PASSES_TD

include "mlir/Pass/PassBase.td"

def CKKSToFHE : Pass<"ckks-to-fhe", "::mlir::ModuleOp"> {
  let summary = "Lower ckks ops to the CRT/NTT/Hadamard/iNTT/iCRT dataflow of HE Mul";
  let description = [{
    Every ciphertext becomes its two BigInt polynomials (ax, bx). HE Mul
    becomes the five polynomial products of HEAAN's Scheme::mult
    (Jung et al. 2021, Fig. 2): region 1 in Karatsuba form (a1 a2, b1 b2,
    (a1 + b1)(a2 + b2)) and region 2 (relinearization with the evaluation
    key, held in RNS/NTT form and passed as two extra arguments `evk.ax`,
    `evk.bx`). CRT'd and NTT'd operands are shared between products. The
    pass also emits `__fhec_evk_prepare`, the CRT + NTT the runtime runs once
    on each evaluation-key polynomial. RNS bases carry only their bound
    (`#fhe.basis<min_bits = ...>`) until `fhe-select-basis`.
  }];
  let dependentDialects = ["::fhec::fhe::FHEDialect", "::mlir::func::FuncDialect"];
}

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

def FHEToLoops : Pass<"fhe-to-loops", "::mlir::ModuleOp"> {
  let summary = "Lower fhe kernel ops to scf/arith/memref loop nests with modular arithmetic";
  let description = [{
    Every !fhe.poly becomes memref<N x limbs x i64> and every !fhe.rns
    memref<m x N x i64> (prime-major) or memref<N x m x i64> (coefficient-major).
    Kernels: CRT (Algo. 1, 3-word accumulator, Shoup reduction), NTT/iNTT
    (Algo. 3/4, Shoup butterflies), Hadamard (Barrett), iCRT (Algo. 5 with a
    floating-point estimate of the multiple of P, exact thanks to the basis
    margin), BigInt add/sub/shift with carries. Parallel loops are
    scf.parallel. Results become trailing out-parameters; the precomputed
    tables each kernel reads become leading arguments, built by the runtime
    (fhec/runtime/Abi.h). Records the module's ABI manifest in `fhec.manifest`.
  }];
  let options = [
    Option<"phaseTimers", "phase-timers", "bool", /*default=*/"true",
           "Call the runtime's fhec_rt_phase_begin/end around every kernel">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"];
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
