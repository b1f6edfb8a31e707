// The fhe-level transforms: the papers' optimizations as rewrites of fhe ops.
#ifndef FHEC_FHE_TRANSFORMS_PASSES_TD
#define FHEC_FHE_TRANSFORMS_PASSES_TD

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
    Option<"primeBits", "prime-bits", "unsigned", /*default=*/"0",
           "Prime width in bits, overriding the target's (0: by target)">,
  ];
}

def FHEHoistAutomorphisms : Pass<"fhe-hoist-automorphisms", "::mlir::ModuleOp"> {
  let summary = "Hoisted rotations: one NTT per polynomial, the automorphisms applied to its evaluation domain";
  let description = [{
    A rotation (or conjugation) key-switches phi_g(a): the CRT of a, the
    automorphism on its residues, then an NTT per Galois element. Since the
    automorphism commutes with the NTT (a permutation of the NTT slots,
    `fhe.automorphism` on an eval-domain value), every
    `fhe.ntt(fhe.automorphism(x, g))` becomes `fhe.automorphism(fhe.ntt(x), g)`
    with one `fhe.ntt(x)` shared by all rotations of x: k rotations of one
    ciphertext do one CRT and one NTT instead of one CRT and k NTTs (hoisted
    key switching, Halevi-Shoup 2018; OpenFHE's EvalFastRotation). Only
    complete NTTs are rewritten (an incomplete NTT's evaluation domain is not
    a permutation of slots); the result is bit-identical.
  }];
}

def FHEReorderICRT : Pass<"fhe-reorder-icrt", "::mlir::ModuleOp"> {
  let summary = "Put iCRT and CRT in matrix-multiply form (Jung et al. 2021, Algo. 5 -> Algo. 6)";
  let description = [{
    iCRT becomes the matrix product temp (N x m) x T (m x L): one output
    column at a time over blocks of coefficients, each column a short
    (two- or three-word) accumulation instead of a BigInt accumulator per
    coefficient (Algo. 6). Since every consumer reduces mod 2^logq, only the
    L = limbs(logq) columns of (P/p_j) mod 2^(64 L) are kept (narrower
    digit columns on IFMA and GPU targets: IcrtDigits.cpp, IcrtGpu.cpp),
    and k P is subtracted as k (P mod 2^(64 L)), k from the double-precision
    estimate (exact under the basis margin; see conversion/FHEToLoops/Icrt.cpp). CRT
    likewise becomes (N x limbs) x (limbs x m) with beta^k mod p_j, one prime
    row at a time per block. Records `order = #fhe<order matrix>` and `block`
    on the ops; without this pass the lowering keeps Algo. 5 / Algo. 1.
  }];
  let options = [
    Option<"block", "block", "unsigned", /*default=*/"0",
           "Coefficients per block (a power of two; 0: the target's)">,
    Option<"crt", "crt", "bool", /*default=*/"true", "Also put CRT in matrix form">,
  ];
}

def FHEMergeNTTLevels : Pass<"fhe-merge-ntt-levels", "::mlir::ModuleOp"> {
  let summary = "Group NTT stages into levels done in one pass over memory (radix-2^k, cuTraNTT)";
  let description = [{
    Chooses the `levels` of every fhe.ntt / fhe.intt: the log N radix-2
    stages are grouped so that each level is one pass over memory. The
    target's cost model keeps a tail level (the last stages of the forward
    transform, the first of the inverse) whose contiguous blocks of 2^B words
    fit the cache and runs it depth-first, and splits the remaining strided
    stages into as few levels of at most H stages as possible; the lowering
    does each level in register sub-levels. `levels` overrides the choice.
    `skip-levels = k` makes the NTTs incomplete (cuTraNTT): the last k
    stages are not done, every evaluation-domain value becomes polynomials of
    2^k coefficients (`incomplete = k`), and Hadamard products multiply them.
  }];
  let options = [
    ListOption<"levels", "levels", "unsigned",
               "Stages per level of the forward transform (the inverse uses them in reverse); overrides the cost model">,
    Option<"radixLog", "radix-log", "unsigned", /*default=*/"0",
           "Group the stages in levels of at most this many (0: the cost model)">,
    Option<"skipLevels", "skip-levels", "unsigned", /*default=*/"0",
           "Incomplete NTT: skip this many last stages (0: complete)">,
  ];
}

def FHEInsertTransposes : Pass<"fhe-insert-transposes", "::mlir::ModuleOp"> {
  let summary = "Give every RNS value a layout, insert fhe.transpose where producer and consumer disagree, fold where cheaper";
  let description = [{
    Each op streams one layout naturally: CRT writes (N, m) coefficient-major
    in Algo. 1's order and (m, N) prime-major in the matrix order; NTT and
    iNTT read and write prime-major rows; iCRT reads the m residues of a
    coefficient together (coefficient-major); pointwise ops follow their
    operands. The pass gives CRT and iCRT their natural layouts, inserts an
    `fhe.transpose` (a cache-blocked transpose kernel) wherever a producer
    and a consumer disagree, then folds each transpose into its producer's
    stores (a CRT writing the other layout) or its consumers' loads (iCRTs
    reading it) when the target's cost table says the strided accesses cost
    less than the transpose's pass over memory. A kernel that works on fewer
    coefficients at a time than a cache line holds (Algo. 1/5's one at a
    time) pays the strided access once per coefficient, so it keeps the transpose.
  }];
  let options = [
    Option<"fold", "fold", "bool", /*default=*/"true",
           "Fold transposes into producers or consumers where the cost table favours it">,
  ];
}

def FHEHoistConstants : Pass<"fhe-hoist-constants", "::mlir::ModuleOp"> {
  let summary = "Compute what functions derive from constants alone once, when the module loads";
  let description = [{
    Every RNS value a function computes from its `fhe.poly_constant`s alone
    (a linear transform's encoded diagonals: their CRT and NTT into the
    basis of its products) and that the rest of the function reads moves,
    with the ops it needs, into the module's `__fhec_constants_prepare`
    (no arguments; one result per value, role "const<k>"). The function
    takes the value as an argument of that role, which the runtime binds to
    the result of the preparation it runs once when it loads the module and
    keeps (on the device for GPU targets). A call no longer converts the
    constants; the module keeps their evaluation forms, m N residues each
    (m primes of the basis), for as long as it is loaded. Values shared by
    several functions are prepared once per function.
  }];
}

def FHEFuse : Pass<"fhe-fuse", "::mlir::ModuleOp"> {
  let summary = "Kernel fusion: one pass over memory for chains of fhe ops (HE-Booster's FMAC, Jung et al. Section IV)";
  let description = [{
    (a) Residue chains: the pointwise RNS ops of one basis (Hadamard
    products, the Karatsuba sums and differences; the two evaluation-key
    Hadamards that read the same axax) become one `fhe.fused residue` kernel
    that reads each input once and writes only the values used outside.
    (b) An iNTT whose results only feed iCRTs (or icrt_sums) produces `coeff_scaled`
    residues: its last stage applies n^-1 (P/p_j)^-1, one constant per
    prime, and the iCRT skips its pre-multiplication.
    (c, d) Coefficient chains: an iCRT feeding a CRT (region 1's axax into
    region 2), and the closing BigInt chain (region 2's iCRT, the shift by
    logQ, the addition of region 1's iCRT, the rescale) become `fhe.fused
    coefficient` kernels that work block by block with the BigInt
    intermediates in a block-local scratch. A producer joins its consumers'
    kernel only when all its uses are inside (its buffer disappears). The
    bit-window CRTs of one BigInt (`window`) share a kernel, which reads the
    BigInt once for all of them, and a digit of hybrid key switching (an
    added scalar, a shift, a reduction) joins the centered CRT that reads it.
    (f) An iCRT whose only use is a right shift (region 2's division by Q,
    a rescale) computes the shifted value itself (`shift`, and `round` for a
    rounded shift): the kernel can skip the columns below the shift but two
    guard digits.
    (e) Transform batches: independent NTTs (or iNTTs) of one type and
    level grouping (HE Mul's four input NTTs, its three and two iNTTs)
    become one `fhe.fused transform` kernel that goes prime by prime through
    all of them, reading each prime's twiddles from memory once.
    (g) Row pipelines: a residue kernel, the transform kernels
    whose results only it reads and those that read only its results become
    one `fhe.fused rows` kernel that takes each prime row through NTTs,
    Hadamard chain and iNTTs in turn, so the rows pass from stage to stage
    in cache, not through memory. An automorphism whose result only the
    residue kernel reads joins it too (it permutes each prime row alone),
    with the transform whose result only the automorphism reads: a
    rotation's NTT, slot permutation, key products and iNTTs. On GPU
    targets only a batch of forward NTTs whose results only the residue
    kernel reads joins it (complete NTTs): the residue kernel becomes the
    epilogue of their last level's launch, computed from their results in
    shared memory.
    (h) A CRT whose results only feed forward NTTs is marked `lazy`: its
    residues may stay in [0, 4p), the range Harvey's butterflies take.
    (i) Hadamard products and differences whose results only feed iNTTs or
    such differences are marked `lazy`: their residues may stay in [0, 2p),
    the iNTT's input range.
    (j) On GPU targets, an evaluation-domain automorphism (complete NTT,
    prime-major) whose users all lie in one residue kernel joins it as a
    gather: the kernel reads the automorphism's input at the permuted slot
    (a warp's 32 slots come from one aligned run of 32), so a hoisted
    rotation's permuted digits never go to memory. On CPU targets (g)
    permutes whole rows instead.
    Groups are grown greedily and kept only while the graph of kernels stays
    acyclic; the function body is then re-sorted topologically.
  }];
  let options = [
    Option<"residue", "residue", "bool", /*default=*/"true", "(a) fuse pointwise RNS chains">,
    Option<"scaleIcrt", "scale-icrt", "bool", /*default=*/"true", "(b) fold iCRT's pre-multiplication into the iNTT">,
    Option<"coefficient", "coefficient", "bool", /*default=*/"true", "(c, d) fuse iCRT/CRT/BigInt chains">,
    Option<"transform", "transform", "bool", /*default=*/"true", "(e) batch NTTs/iNTTs of one type">,
    Option<"shiftIcrt", "shift-icrt", "bool", /*default=*/"true", "(f) fold a right shift into the iCRT">,
    Option<"lazyCrt", "lazy-crt", "bool", /*default=*/"true", "(h) let a CRT feeding only NTTs leave residues in [0, 4p)">,
    Option<"lazyProducts", "lazy-products", "bool", /*default=*/"true",
           "(i) let products and differences feeding only iNTTs leave residues in [0, 2p)">,
    Option<"gathers", "gathers", "bool", /*default=*/"true",
           "(j) GPU targets: an evaluation-domain automorphism joins the residue kernel that reads it">,
    Option<"rows", "rows", "bool", /*default=*/"true",
           "(g) take NTTs, automorphisms, the residue chain and iNTTs of one basis row by row (GPU targets: the "
           "forward NTTs and the residue chain they feed in one launch)">,
  ];
}

#endif // FHEC_FHE_TRANSFORMS_PASSES_TD
