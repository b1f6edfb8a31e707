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
    key, held in RNS/NTT form and passed as two extra arguments `evk.ax`,
    `evk.bx`). CRT'd and NTT'd operands are shared between products. The
    pass also emits `__fhec_evk_prepare`, the CRT + NTT the runtime runs once
    on each evaluation-key polynomial. RNS bases carry only their bound
    (`#fhe.basis<min_bits = ...>`) until `fhe-select-basis`.
  }];
  let dependentDialects = ["::fhec::fhe::FHEDialect", "::mlir::func::FuncDialect"];
}

def FHEToLoops : Pass<"fhe-to-loops", "::mlir::ModuleOp"> {
  let summary = "Lower fhe kernel ops to scf loop nests over memrefs with modarith arithmetic";
  let description = [{
    A dialect conversion: every !fhe.poly becomes memref<N x limbs x i64>
    and every !fhe.rns memref<m x N x i64> (prime-major) or memref<N x m x i64>
    (coefficient-major). One pattern family per kernel (conversion/FHEToLoops/):
    CRT (Algo. 1), NTT/iNTT in the levels of `fhe-merge-ntt-levels` with
    Harvey's lazy butterflies, residue-space kernels (Hadamard, add, sub,
    fused chains, incomplete-NTT small products, transposes), iCRT (Algo. 5,
    or Algo. 6 when `fhe-reorder-icrt` chose the matrix form), the BigInt
    chains, and fused coefficient-space kernels. Lowering reads the passes'
    decisions from the ops' attributes. Kernel results are memref.alloc'ed
    (placed by `fhec-plan-workspace`), tables are `fhe.table` ops (made
    arguments by `fhec-abi`), parallel loops are scf.parallel.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "Target whose arithmetic the kernels use: cpu, cpu-avx512 or cuda">,
    Option<"phaseTimers", "phase-timers", "bool", /*default=*/"true",
           "Call the runtime's fhec_rt_phase_begin/end around every kernel">,
    Option<"icrtExactAlways", "icrt-exact-always", "bool", /*default=*/"false",
           "Testing: shifted digit iCRTs always take their exact path">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect", "::fhec::modarith::ModArithDialect"];
}

def ModArithToArith : Pass<"modarith-to-arith"> {
  let summary = "Expand modarith ops into arith for the portable targets";
  let description = [{
    Shoup products with a base of the integer width (2^64 for i64), Barrett
    reduction of the double-word product, lazy add/sub/reduce with
    branch-free conditional subtractions (unsigned minima), and the
    three-word multiply-accumulate; elementwise on scalars or vectors.
    With word-bits=32 (the cuda target, primes < 2^30), residue arithmetic
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

#endif
