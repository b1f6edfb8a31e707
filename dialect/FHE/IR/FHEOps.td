#ifndef FHEC_FHE_OPS_TD
#define FHEC_FHE_OPS_TD

include "dialect/FHE/IR/FHEDialect.td"
include "dialect/FHE/IR/FHEAttributes.td"
include "dialect/FHE/IR/FHETypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

class FHE_Op<string mnemonic, list<Trait> traits = []>
    : Op<FHE_Dialect, mnemonic, !listconcat(traits, [Pure])> {
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// BigInt <-> RNS
//===----------------------------------------------------------------------===//

def FHE_CrtOp : FHE_Op<"crt"> {
  let summary = "CRT: BigInt coefficients to residues mod each prime (Algo. 1)";
  let description = [{
    OUT[j][i] = IN[i] mod p_j, computed as sum_k IN[i][k] * (beta^k mod p_j)
    in a 3-word accumulator followed by a Shoup reduction (Jung et al. 2021, Algo. 1),
    i.e. the matrix product (N, limbs) x (limbs, m) of the coefficients with
    the beta^k mod p_j table. `order` (set by fhe-reorder-icrt) selects the
    loop order: `operand_scan` (default; Algo. 1: per coefficient, per prime)
    or `matrix` (per block of `block` coefficients, one prime row at a time,
    so each row is written contiguously). `lazy` (fhe-fuse, when every user is
    a forward NTT, whose Harvey butterflies take inputs in [0, 4p)): the
    residues may be left in [0, 4p) instead of [0, p). `centered`: the input
    is read as a signed integer in [-2^(logq-1), 2^(logq-1)) (two's complement
    mod 2^logq: a coefficient x >= 2^(logq-1) stands for x - 2^logq), for small
    signed polynomials (a secret key, an encryption's ternary v) and the
    centered lift of a polynomial mod q. `window = array<i64: offset, bits>`:
    the input coefficient read is floor(IN[i] / 2^offset) mod 2^bits, an
    unsigned integer of `bits` bits (one bit-window of a wide polynomial,
    whose product then needs a basis of the window's size; `fhe.icrt_sum`
    puts the windows' products back together).
    ```mlir
    %r = fhe.crt %p : !fhe.poly<logN = 16, logq = 1200>
        -> !fhe.rns<logN = 16, basis = #fhe.basis<min_bits = 2419>, domain = coeff, layout = prime_major>
    %w = fhe.crt %p {window = array<i64: 339, 339>} : !fhe.poly<logN = 16, logq = 1200>
        -> !fhe.rns<logN = 16, basis = #fhe.basis<min_bits = 349>, domain = coeff, layout = prime_major>
    ```
  }];
  let arguments = (ins FHE_PolyType:$input, OptionalAttr<FHE_OrderAttr>:$order,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$block, UnitAttr:$lazy,
                       UnitAttr:$centered, OptionalAttr<DenseI64ArrayAttr>:$window);
  let extraClassDeclaration = [{
    /// The bits read from each input coefficient: [offset, offset + bits),
    /// the whole input (0, logq) without a window.
    std::pair<int64_t, int64_t> getWindowBits() {
      if (auto w = getWindow()) return {(*w)[0], (*w)[1]};
      return {0, int64_t(getInput().getType().getLogq())};
    }
  }];
  let results = (outs FHE_RnsType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def FHE_IcrtOp : FHE_Op<"icrt"> {
  let summary = "iCRT: residues back to BigInt coefficients mod 2^logq (Algo. 5 / 6)";
  let description = [{
    Centered reconstruction X in (-P/2, P/2) of sum_j temp_j * (P/p_j) with
    temp_j = x_j * (P/p_j)^-1 mod p_j, then X mod 2^logq of the result type
    (Jung et al. 2021, Algo. 5). The input is in the coefficient domain, or in
    `coeff_scaled` when the iNTT already produced temp_j (fhe-fuse).
    `order` (fhe-reorder-icrt): `operand_scan` (default; Algo. 5, a BigInt
    accumulator of PLimbs + 1 words per coefficient) or `matrix` (Algo. 6:
    temp (N, m) x T (m, L) accumulated column by column over blocks of `block`
    coefficients, with T = (P/p_j) mod 2^(64 L) and only the L = limbs(logq)
    columns the result keeps; the multiple k of P is subtracted as k * (P mod 2^(64 L))).
    `shift` s (fhe-fuse, from a poly_shr of the result): the result is
    floor(X / 2^s) mod 2^logq; kernels may then skip most of the low columns.
    `round` (with a shift): round(X / 2^s) = floor((X + 2^(s-1)) / 2^s)
    instead (HEAAN's encryption divides by Q with rounding; fhe-fuse's
    folding of a rounded poly_shr, a rounding rescale).
    `addend` e: a small signed polynomial (at most 30 bits, read centered as
    by a `centered` CRT) added to X before the shift: the result is that of
    the residues of X + e, which the kernel forms while it reads the input
    (an encryption's error, added to v * pk without a pass over the residues).
    ```mlir
    %ax = fhe.icrt %x plus %e {shift = 1200 : i64, round}
        : !fhe.rns<logN = 16, basis = #b, domain = coeff, layout = prime_major>, !fhe.poly<logN = 16, logq = 8>
        -> !fhe.poly<logN = 16, logq = 1200>
    ```
  }];
  let arguments = (ins FHE_RnsType:$input, Optional<FHE_PolyType>:$addend, OptionalAttr<FHE_OrderAttr>:$order,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$block,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$shift, UnitAttr:$round);
  let extraClassDeclaration = [{
    /// The `shift` attribute, 0 if absent.
    int64_t getShiftBits() { return getShift().value_or(0); }
  }];
  let results = (outs FHE_PolyType:$result);
  let builders = [
    // The plain iCRT: no addend, default order, no shift.
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$input), [{
      build($_builder, $_state, result, input, ::mlir::Value(), nullptr, nullptr, nullptr, false);
    }]>
  ];
  let assemblyFormat = [{
    $input (`plus` $addend^)? attr-dict `:` type($input) (`,` type($addend)^)? `->` type($result)
  }];
}

def FHE_IcrtSumOp : FHE_Op<"icrt_sum", [AttrSizedOperandSegments]> {
  let summary = "iCRT of bit-window products, summed at their offsets mod 2^logq";
  let description = [{
    The result is (e + sum_g X_g 2^offsets[g]) mod 2^logq, where X_g is the
    centered reconstruction of input g (as by `fhe.icrt`, each in its own
    basis; the producer guarantees |X_g| < P_g / 4) and e the optional
    `addend`, a polynomial mod 2^logq. A product
    x * y of a wide x cut into bit-windows x = sum_g x_g 2^off_g (`fhe.crt`
    with `window`) comes back in one pass: each window's product needs a
    basis of the window's size only, and the CRT and iCRT work, quadratic
    in a basis's primes, shrinks with it (the client's decryption,
    m = bx + ax s). On IFMA targets each window adds its columns
    sum_j temp_j T_j[c] - k_g P_g[c] (Algo. 6, with Winograd's inner
    products) to the result's 51-bit columns from offsets[g] / 51 on only.
    CPU targets only.
    ```mlir
    %m = fhe.icrt_sum %x0, %x1 plus %bx {offsets = array<i64: 0, 339>}
        : !fhe.rns<logN = 16, basis = #b, domain = coeff_scaled, layout = prime_major>,
          !fhe.rns<logN = 16, basis = #b, domain = coeff_scaled, layout = prime_major>
          plus !fhe.poly<logN = 16, logq = 600> -> !fhe.poly<logN = 16, logq = 600>
    ```
  }];
  let arguments = (ins Variadic<FHE_RnsType>:$inputs, Optional<FHE_PolyType>:$addend, DenseI64ArrayAttr:$offsets,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$block);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = [{
    $inputs (`plus` $addend^)? attr-dict `:` type($inputs) (`plus` type($addend)^)? `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// RNS operations
//===----------------------------------------------------------------------===//

def FHE_NttOp : FHE_Op<"ntt"> {
  let summary = "Forward negacyclic NTT per prime (Algo. 3, Cooley-Tukey)";
  let description = [{
    Coefficient domain to evaluation domain; the output is in bit-reversed order.
    Shoup multiplication by the twiddles psi^bitrev(i) (Algo. 2, Algo. 4) with
    Harvey's lazy reduction. `levels` (fhe-merge-ntt-levels) groups the
    radix-2 stages: each entry is the number of stages done in one pass over
    memory (a radix-2^k level); they sum to logN minus the result type's
    `incomplete` stages. Absent: one level per stage.
    ```mlir
    %e = fhe.ntt %c {levels = array<i64: 4, 4, 4, 4>} : !c -> !e
    ```
  }];
  let arguments = (ins FHE_RnsType:$input, OptionalAttr<DenseI64ArrayAttr>:$levels);
  let results = (outs FHE_RnsType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def FHE_InttOp : FHE_Op<"intt"> {
  let summary = "Inverse negacyclic NTT per prime (Gentleman-Sande, then times N^-1)";
  let description = [{
    Evaluation domain (bit-reversed) to coefficient domain. The factor N^-1
    is applied in the last stage; with a `coeff_scaled` result that factor is
    N^-1 (P/p_j)^-1, iCRT's pre-multiplication folded in (fhe-fuse).
    `levels` as for `fhe.ntt`.
  }];
  let arguments = (ins FHE_RnsType:$input, OptionalAttr<DenseI64ArrayAttr>:$levels);
  let results = (outs FHE_RnsType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def FHE_HadamardOp : FHE_Op<"hadamard", [SameOperandsAndResultType, Commutative]> {
  let summary = "Pointwise modular product of two evaluation-domain RNS polynomials";
  let description = [{
    `lazy` (fhe-fuse, when every user is an iNTT or a lazy fhe.sub): the
    residues may be left in [0, 2p), the iNTT's input range.
  }];
  let arguments = (ins FHE_RnsType:$lhs, FHE_RnsType:$rhs, UnitAttr:$lazy);
  let results = (outs FHE_RnsType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def FHE_AddOp : FHE_Op<"add", [SameOperandsAndResultType, Commutative]> {
  let summary = "Residue-wise sum mod p_j";
  let hasVerifier = 0;  // ODS traits and constraints say it all
  let arguments = (ins FHE_RnsType:$lhs, FHE_RnsType:$rhs);
  let results = (outs FHE_RnsType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def FHE_SubOp : FHE_Op<"sub", [SameOperandsAndResultType]> {
  let summary = "Residue-wise difference mod p_j";
  let description = [{
    `lazy` (fhe-fuse, when every user is an iNTT or a lazy fhe.sub): the
    operands may be lazy results in [0, 2p), and so may the result.
  }];
  let hasVerifier = 0;  // ODS traits and constraints say it all
  let arguments = (ins FHE_RnsType:$lhs, FHE_RnsType:$rhs, UnitAttr:$lazy);
  let results = (outs FHE_RnsType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def FHE_TransposeOp : FHE_Op<"transpose"> {
  let summary = "Change the layout of an RNS polynomial: (m, N) <-> (N, m)";
  let arguments = (ins FHE_RnsType:$input);
  let results = (outs FHE_RnsType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def FHE_BasisPrefixOp : FHE_Op<"basis_prefix"> {
  let summary = "View the residues of the first primes of a basis";
  let description = [{
    All bases come from one deterministic prime sequence, so the basis of a
    smaller bound is a prefix of a larger one. HE Mul at a lower level reads
    the evaluation key (prepared once, for the top level) through this view.
  }];
  let arguments = (ins FHE_RnsType:$input);
  let results = (outs FHE_RnsType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def FHE_AutomorphismOp : FHE_Op<"automorphism", [SameOperandsAndResultType]> {
  let summary = "The automorphism X -> X^g on the residues of a polynomial, in the coefficient or evaluation domain";
  let description = [{
    Coefficient domain, per prime p_j: coefficient i moves to i g mod 2N,
    negated mod p_j when that index is >= N (X^N = -1). These are the
    residues of the signed automorphism of HEAAN's leftRotate (-x, not
    q - x), so a rotation's key switching can start from the CRT of the
    unrotated polynomial. Evaluation domain (a complete NTT, bit-reversed
    order): the same automorphism as a permutation of the NTT slots, since
    phi_g(a)(psi^e) = a(psi^(e g)): slot t, the value at psi^(2 brv(t) + 1),
    takes slot t' with 2 brv(t') + 1 = (2 brv(t) + 1) g mod 2N. It commutes
    with the NTT: ntt(automorphism(x)) = automorphism(ntt(x)), which
    fhe-hoist-automorphisms uses to share one NTT among the rotations of a
    polynomial. `galois` is odd in [3, 2N): 5^r mod 2N rotates the slots
    left by r, 2N - 1 conjugates them.
    ```mlir
    %r = fhe.automorphism %c {galois = 5 : i64} : !fhe.rns<logN = 12, basis = #rns_basis, domain = coeff, layout = prime_major>
    %s = fhe.automorphism %e {galois = 5 : i64} : !fhe.rns<logN = 12, basis = #rns_basis, domain = eval, layout = prime_major>
    ```
  }];
  let arguments = (ins FHE_RnsType:$input, I64Attr:$galois);
  let results = (outs FHE_RnsType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Fused kernels and lowering helpers
//===----------------------------------------------------------------------===//

def FHE_FusedOp : FHE_Op<"fused", [IsolatedFromAbove, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "A fused kernel: fhe ops done in one pass over memory (HE-Booster's FMAC)";
  let description = [{
    The body computes its results from the block arguments (one per operand,
    same types) with fhe ops, exactly as the same ops outside would; the
    lowering emits them as one loop nest so intermediates never go to memory.
    `residue`: pointwise RNS ops (hadamard, add, sub), one (prime,
    coefficient) at a time. `coefficient`: a chain on one block of
    coefficients at a time (icrt, crt and the BigInt poly_* ops), BigInt
    intermediates kept in a per-block scratch (Jung et al. 2021, Section IV).
    `transform`: independent NTTs (or iNTTs) of one type and level grouping,
    one prime at a time for all of them, so that the prime's twiddle tables
    are read from memory once for the batch.
    `rows`: a pipeline of transform and residue kernels of one basis (NTTs,
    then a residue chain, then iNTTs), with the automorphisms between them
    (each permutes a prime row alone), one prime row at a time through all
    of them, so that a row one kernel writes is read by the next while it is
    still in cache instead of after the whole matrix went through memory.
    On GPU targets a rows kernel is a batch of forward NTTs and the residue
    kernel they feed, which the NTTs' last level computes from its tiles.
    ```mlir
    %ax, %bx = fhe.fused residue (%a1, %a2, %b1, %b2) : (!e, !e, !e, !e) -> (!e, !e) {
    ^bb0(%x1: !e, %x2: !e, %y1: !e, %y2: !e):
      %0 = fhe.hadamard %x1, %x2 : !e
      %1 = fhe.hadamard %y1, %y2 : !e
      fhe.yield %0, %1 : !e, !e
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, FHE_SpaceAttr:$space);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = "$space `(` $inputs `)` attr-dict `:` functional-type($inputs, $results) $region";
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The terminator of the body (SingleBlock's getBody()).
    YieldOp getYield();
  }];
}

def FHE_YieldOp : Op<FHE_Dialect, "yield", [Pure, Terminator, ReturnLike, HasParent<"FusedOp">]> {
  let summary = "Results of a fused kernel";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ /* empty yield */ }]>];
}

def FHE_PrimeCountOp : FHE_Op<"prime_count"> {
  let summary = "The number of primes of a basis, as a kernel parameter (lowering only)";
  let description = [{
    Kernels over prime-major residues loop over the primes of their basis up
    to this value instead of a literal, so that fhec-outline-kernels can make
    one kernel serve every basis size (every level of a program) and pass the
    count as an argument. It has no folder on purpose: the count stays
    symbolic until the outliner replaces the remaining ones by constants.
    ```mlir
    %m = fhe.prime_count #rns_basis
    ```
  }];
  let arguments = (ins FHE_BasisAttr:$basis);
  let results = (outs Index:$count);
  let assemblyFormat = "$basis attr-dict";
}

def FHE_KernelParamOp : FHE_Op<"kernel_param"> {
  let summary = "An index constant that a kernel takes as an argument (lowering only)";
  let description = [{
    Like arith.constant, but fhec-outline-kernels passes it to the kernel
    that reads it instead of cloning it in, so kernels that differ only in
    this value (rotations by different amounts) are one kernel. No folder.
    ```mlir
    %g = fhe.kernel_param 4093
    ```
  }];
  let hasVerifier = 0;
  let arguments = (ins I64Attr:$value);
  let results = (outs Index:$result);
  let assemblyFormat = "$value attr-dict";
}

def FHE_TableOp : FHE_Op<"table"> {
  let summary = "A precomputed table of one RNS basis (lowering only)";
  let description = [{
    The table `kind` (fhec/runtime/Abi.h: prime_consts, ntt_twiddles, ...)
    of `basis`; `param` is the kind's extra parameter (the input limbs of
    crt_powers, the output limbs of icrt_columns, 0 otherwise). Kernels read
    tables through this op; fhec-abi turns each distinct table into a leading
    function argument that the runtime fills. The table is a memref of its
    64-bit words, or of their 32-bit halves (low first, twice the columns).
    ```mlir
    %t = fhe.table "ntt_twiddles" #rns_basis param 0 : memref<41x65536xi64>
    ```
  }];
  let arguments = (ins StrAttr:$kind, FHE_BasisAttr:$basis, I64Attr:$param);
  let results = (outs AnyStaticShapeMemRef:$table);
  let assemblyFormat = "$kind $basis `param` $param attr-dict `:` type($table)";
}

//===----------------------------------------------------------------------===//
// BigInt pointwise operations (mod q = 2^logq)
//===----------------------------------------------------------------------===//

def FHE_PolyAddOp : FHE_Op<"poly_add", [SameOperandsAndResultType, Commutative]> {
  let summary = "Coefficient-wise BigInt sum mod q";
  let hasVerifier = 0;  // ODS traits and constraints say it all
  let arguments = (ins FHE_PolyType:$lhs, FHE_PolyType:$rhs);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def FHE_PolySubOp : FHE_Op<"poly_sub", [SameOperandsAndResultType]> {
  let summary = "Coefficient-wise BigInt difference mod q";
  let hasVerifier = 0;  // ODS traits and constraints say it all
  let arguments = (ins FHE_PolyType:$lhs, FHE_PolyType:$rhs);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def FHE_PolyNegateOp : FHE_Op<"poly_negate", [SameOperandsAndResultType]> {
  let summary = "Coefficient-wise BigInt negation mod q";
  let hasVerifier = 0;  // ODS traits and constraints say it all
  let arguments = (ins FHE_PolyType:$input);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def FHE_PolyShrOp : FHE_Op<"poly_shr"> {
  let summary = "Right shift of every coefficient: floor(x / 2^shift), or round(x / 2^shift) with `round`; logq -= shift";
  let description = [{
    HEAAN's rightShift: rescaling and region 2's division by Q. With `round`,
    round(x / 2^shift) = floor((x + 2^(shift-1)) / 2^shift) instead: a rounding
    rescale, whose error has mean 0 where the floor's is -1/2 on every
    coefficient (a constant offset that lands on slot 0 with weight about N/pi).
    ```mlir
    %r = fhe.poly_shr %p {shift = 30 : i64, round} : !fhe.poly<logN = 12, logq = 90> -> !fhe.poly<logN = 12, logq = 60>
    ```
  }];
  let arguments = (ins FHE_PolyType:$input, I64Attr:$shift, UnitAttr:$round);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def FHE_PolyAddScalarOp : FHE_Op<"poly_add_scalar", [SameOperandsAndResultType]> {
  let summary = "Add a non-negative integer constant to every coefficient mod q";
  let description = [{
    x + value mod 2^logq for every coefficient x, 0 <= value < 2^logq. Hybrid
    key switching's balanced digits (Han–Ki 2020): digit j of a, in
    [-2^(B-1), 2^(B-1)), is bits [jB, jB + B) of a + sum_{i<j} 2^(iB + B - 1)
    read centered, which `poly_add_scalar`, `poly_shr`, `poly_reduce` and a
    centered `crt` compute in one fused kernel.
    ```mlir
    %r = fhe.poly_add_scalar %p {value = 2147483648 : i64} : !fhe.poly<logN = 12, logq = 90>
    ```
  }];
  let arguments = (ins FHE_PolyType:$input, APIntAttr:$value);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def FHE_PolyReduceOp : FHE_Op<"poly_reduce"> {
  let summary = "Reduce every coefficient mod a smaller power of two";
  let arguments = (ins FHE_PolyType:$input);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def FHE_PolyModRaiseOp : FHE_Op<"poly_mod_raise"> {
  let summary = "Centred lift of every coefficient to a larger power of two";
  let description = [{
    Each coefficient x in [0, 2^logq) is read as its centred representative
    (x - 2^logq when x >= 2^(logq - 1)) and taken mod 2^logq of the result:
    the sign extension of a logq-bit two's complement number. Bootstrapping's
    modulus raise (Cheon, Han, Kim, Kim, Song 2018, Sec. 3).
    ```mlir
    %r = fhe.poly_mod_raise %p : !fhe.poly<logN = 12, logq = 60> -> !fhe.poly<logN = 12, logq = 240>
    ```
  }];
  let arguments = (ins FHE_PolyType:$input);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def FHE_PolyMulScalarOp : FHE_Op<"poly_mul_scalar", [SameOperandsAndResultType]> {
  let summary = "Multiply every coefficient by a signed integer constant mod q";
  let hasVerifier = 0;  // ODS traits and constraints say it all
  let arguments = (ins FHE_PolyType:$input, APIntAttr:$value);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def FHE_PolyAutomorphismOp : FHE_Op<"poly_automorphism", [SameOperandsAndResultType]> {
  let summary = "The automorphism X -> X^g on BigInt coefficients mod q";
  let description = [{
    Coefficient i moves to i g mod 2N, negated mod q (q - x) when that index
    is >= N. `galois` as for `fhe.automorphism`.
  }];
  let arguments = (ins FHE_PolyType:$input, I64Attr:$galois);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def FHE_PolyMulMonomialOp : FHE_Op<"poly_mul_monomial", [SameOperandsAndResultType]> {
  let summary = "Multiplication by the monomial X^k on BigInt coefficients mod q";
  let description = [{
    Coefficient i moves to i + k mod 2N, negated mod q (q - x) when that
    index is >= N (X^N = -1); 0 <= k < 2N. HEAAN's multByMonomial (imult is
    k = N/2). The same signed gather as `fhe.poly_automorphism`.
    ```mlir
    %r = fhe.poly_mul_monomial %p {k = 2048} : !fhe.poly<logN = 12, logq = 240>
    ```
  }];
  let arguments = (ins FHE_PolyType:$input, I64Attr:$k);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def FHE_PolyConstantOp : FHE_Op<"poly_constant"> {
  let summary = "A constant polynomial: an encoded plaintext, mod q";
  let description = [{
    `value` holds the N coefficients as signed integers (any width; an
    encoded plaintext's are small); the result is each one mod 2^logq.
    ```mlir
    %m = fhe.poly_constant {value = dense<[3, -1, 0, 7]> : tensor<4xi64>} : !fhe.poly<logN = 2, logq = 100>
    ```
  }];
  let arguments = (ins AnyIntElementsAttr:$value);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def FHE_PolyAddConstantTermOp : FHE_Op<"poly_add_constant_term", [SameOperandsAndResultType]> {
  let summary = "Add a signed integer constant to coefficient 0 mod q";
  let hasVerifier = 0;  // ODS traits and constraints say it all
  let arguments = (ins FHE_PolyType:$input, APIntAttr:$value);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

#endif
