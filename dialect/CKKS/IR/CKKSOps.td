#ifndef FHEC_CKKS_OPS_TD
#define FHEC_CKKS_OPS_TD

include "dialect/CKKS/IR/CKKSDialect.td"
include "dialect/CKKS/IR/CKKSAttributes.td"
include "dialect/CKKS/IR/CKKSTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

class CKKS_Op<string mnemonic, list<Trait> traits = []>
    : Op<CKKS_Dialect, mnemonic, !listconcat(traits, [Pure])> {
  let hasVerifier = 1;
}

// Add and Sub: operands at different levels or scales are aligned first (the
// larger logq is reduced to the smaller, the smaller scale is multiplied up
// to the larger: x * 2^d mod q is exact for a power-of-two q). The result has
// the smaller logq and the larger logp. ckks-manage-scale rescales instead,
// so that managed programs only add aligned operands.
class CKKS_AlignedBinaryOp<string mnemonic, string what> : CKKS_Op<mnemonic> {
  let summary = what;
  let arguments = (ins CKKS_CiphertextType:$lhs, CKKS_CiphertextType:$rhs);
  let results = (outs CKKS_CiphertextType:$result);
  // `: !t` when all three types agree, `: (!t1, !t2) -> !t3` otherwise.
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` custom<BinaryTypes>(type($lhs), type($rhs), type($result))";
  let extraClassDeclaration = [{
    /// The result type of aligned operands of types a and b.
    static CiphertextType inferResultType(CiphertextType a, CiphertextType b);
    /// True when both operands already have the result's type.
    bool isAligned() { return getLhs().getType() == getType() && getRhs().getType() == getType(); }
  }];
}

def CKKS_AddOp : CKKS_AlignedBinaryOp<"add", "HE Add: coefficient-wise sum mod q"> {
  let description = [{
    ```mlir
    %c = ckks.add %a, %b : !ckks.ct<logN = 16, logq = 1200, logp = 30, slots = 32768>
    %d = ckks.add %x3, %x : (!ckks.ct<logN = 13, logq = 240, logp = 90, slots = 8>,
                            !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 8>)
                         -> !ckks.ct<logN = 13, logq = 240, logp = 90, slots = 8>
    ```
  }];
}

def CKKS_SubOp : CKKS_AlignedBinaryOp<"sub", "HE Sub: coefficient-wise difference mod q"> {
  let description = [{ Same typing as `ckks.add`. }];
}

def CKKS_NegateOp : CKKS_Op<"negate", [AllTypesMatch<["input", "result"]>]> {
  let summary = "HE Negate: -c mod q";
  let arguments = (ins CKKS_CiphertextType:$input);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def CKKS_MulOp : CKKS_Op<"mul"> {
  let summary = "HE Mul: tensor product and relinearization (HEAAN Scheme::mult)";
  let description = [{
    Operands share logN and slots; one at a higher level is first reduced to
    the other's logq. The result has that logq and logp = logp(lhs) +
    logp(rhs). Lowered by `ckks-to-fhe` into the five polynomial products of
    Jung et al. 2021, Fig. 2.
    ```mlir
    %c = ckks.mul %a, %b : (!ckks.ct<logN = 16, logq = 1200, logp = 30, slots = 32768>,
                           !ckks.ct<logN = 16, logq = 1200, logp = 30, slots = 32768>)
                           -> !ckks.ct<logN = 16, logq = 1200, logp = 60, slots = 32768>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$lhs, CKKS_CiphertextType:$rhs);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type($result)";
}

def CKKS_RescaleOp : CKKS_Op<"rescale"> {
  let summary = "Rescale: divide by 2^d (q <- q / 2^d, logp <- logp - d)";
  let description = [{
    d = logq(input) - logq(result) = logp(input) - logp(result) > 0; the result
    keeps at least one bit of modulus. Both polynomials are divided by 2^d
    with truncation, floor(x / 2^d) (HEAAN's rightShift), or with `round`
    to the nearest, round(x / 2^d): the truncation's error of -1/2 on every
    coefficient of both polynomials decrypts to -(1 + s)/2 (1 + X + ... +
    X^(N-1)), which shifts slot 0 by about N |1 + s(zeta_0)| / (pi 2^logp(result))
    with |s(zeta_0)| about sqrt(h) (sqrt(2N/3) for the ternary secret: 2^-12.4
    at N = 2^13, logp 30); the rounding's has mean 0. ckks-manage-scale
    emits rounding rescales.
    ```mlir
    %r = ckks.rescale %c {round} : !ckks.ct<logN = 16, logq = 1200, logp = 60, slots = 32768>
                                -> !ckks.ct<logN = 16, logq = 1170, logp = 30, slots = 32768>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input, UnitAttr:$round);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def CKKS_ModDownOp : CKKS_Op<"mod_down"> {
  let summary = "Modulus switching down: reduce mod a smaller q (level alignment)";
  let arguments = (ins CKKS_CiphertextType:$input);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def CKKS_ModRaiseOp : CKKS_Op<"mod_raise"> {
  let summary = "Modulus raising: the centred lift from mod q to a larger modulus (bootstrapping's first step)";
  let description = [{
    Every coefficient of both polynomials is read as its centred
    representative in [-q/2, q/2) and taken mod 2^logq of the result (for
    power-of-two moduli, a sign extension). The result decrypts to
    m + q I(X) mod 2^logq(result), where I has small integer coefficients
    (|I_i| <= (h + 1) / 2 for a secret of Hamming weight h): bootstrapping's
    EvalMod removes q I (Cheon, Han, Kim, Kim, Song 2018, Sec. 3). logN,
    logp and slots are kept. The slot-value evaluator keeps the input's
    values, those of m: exact once the result is reduced back to q, and what
    EvalMod recovers.
    ```mlir
    %r = ckks.mod_raise %c : !ckks.ct<logN = 13, logq = 60, logp = 30, slots = 8>
                          -> !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 8>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def CKKS_EncapsulateOp : CKKS_Op<"encapsulate", [AllTypesMatch<["input", "result"]>]> {
  let summary = "Sparse-secret encapsulation: key switching at q0 from the main secret to an ephemeral sparse one";
  let description = [{
    Bootstrapping with a dense secret (Bossuat, Troncoso-Pastoriza, Hubaux
    2022, Sec. 5): the ciphertext, at q0 = 2^logq, is switched from the main
    secret s to an ephemeral secret s' of Hamming weight 32 with the small
    switching key (ax, -ax s' + e + P' s) mod q0 P' (P' = 2^(logq + 16),
    rt::EncapsulationKey, role "ek<logq>.sparse"): round((a' k mod q0 P') /
    P'), a' the centred ax. `ckks.mod_raise` then lifts it under s', whose
    small weight keeps I(X) small (|I_i| <= 17), and `ckks.decapsulate`
    switches it back. The type is kept; the slot-value evaluator keeps the
    values.
    ```mlir
    %e = ckks.encapsulate %c : !ckks.ct<logN = 12, logq = 42, logp = 30, slots = 8>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let builders = [OpBuilder<(ins "mlir::Value":$input), [{
    build($_builder, $_state, input.getType(), input);
  }]>];
}

def CKKS_DecapsulateOp : CKKS_Op<"decapsulate", [AllTypesMatch<["input", "result"]>]> {
  let summary = "The end of sparse-secret encapsulation: key switching from the ephemeral secret back to the main one";
  let description = [{
    Switches a ciphertext under the ephemeral secret of the encapsulation at
    q0 = 2^mod_logq (`ckks.encapsulate`) back to the main secret, at any
    level, with that pair's key mod PQ (role "ek<mod_logq>.dense", parts as
    a rotation key's): a rotation's key switch without the automorphism.
    The type is kept; the slot-value evaluator keeps the values.
    ```mlir
    %d = ckks.decapsulate %r {mod_logq = 42} : !ckks.ct<logN = 12, logq = 700, logp = 30, slots = 8>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input, I64Attr:$mod_logq);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def CKKS_DivByPo2Op : CKKS_Op<"div_by_po2"> {
  let summary = "Divide every slot by 2^d keeping the scale (HEAAN divByPo2): q <- q / 2^d, logp unchanged";
  let description = [{
    Both polynomials are shifted right by d = logq(input) - logq(result)
    bits (floor, as a truncating `ckks.rescale`), so the message is divided by 2^d while
    its scale stays 2^logp. Bootstrapping's SubSum uses it to remove its
    factor N / (2 slots).
    ```mlir
    %r = ckks.div_by_po2 %c : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 8>
                           -> !ckks.ct<logN = 13, logq = 230, logp = 30, slots = 8>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def CKKS_RelabelOp : CKKS_Op<"relabel"> {
  let summary = "Read the same polynomials at another scale or slot count (no data changes)";
  let description = [{
    The result has the input's polynomials, logN and logq:
    - scale: read at 2^logp(result), every slot value is multiplied by
      2^(logp(input) - logp(result)) (bootstrapping sets the scale after the
      modulus raise, as HEAAN's bootstrap assigns `logp`);
    - slots: n slots read as m > n repeat the n values m / n times (a sparse
      polynomial of Z[X^(N / 2n)] lies in Z[X^(N / 2m)]; HEAAN's sparse
      bootstrapping works on 2n slots); m slots read as n < m give slot j the
      mean of slots j, j + n, ... (decoding n slots reads only the subring's
      coefficients).
    ```mlir
    %r = ckks.relabel %c : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 8>
                        -> !ckks.ct<logN = 13, logq = 240, logp = 40, slots = 16>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def CKKS_MulConstOp : CKKS_Op<"mul_const"> {
  let summary = "Multiply every slot by a real constant";
  let description = [{
    Multiplies by round(value * 2^s) (HEAAN multByConst), where the
    constant's scale s = logp(result) - logp(input) > 0 is the module's logp
    in the programs that ckks-manage-scale and the tracer build (bootstrapping
    chooses larger ones for precision); logq is unchanged.
    ```mlir
    %r = ckks.mul_const %c {value = 0.25 : f64} : !ckks.ct<logN = 16, logq = 1200, logp = 30, slots = 8>
                                               -> !ckks.ct<logN = 16, logq = 1200, logp = 60, slots = 8>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input, F64Attr:$value);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let extraClassDeclaration = [{
    /// The constant's scale s in bits: logp(result) - logp(input).
    unsigned getConstantLogScale() { return getType().getLogp() - getInput().getType().getLogp(); }
  }];
}

def CKKS_AddConstOp : CKKS_Op<"add_const", [AllTypesMatch<["input", "result"]>]> {
  let summary = "Add a real constant to every slot";
  let description = [{
    Adds round(value * 2^logp(input)) to the constant coefficient of bx.
    ```mlir
    %r = ckks.add_const %c {value = 0.5 : f64} : !ckks.ct<logN = 16, logq = 1200, logp = 30, slots = 8>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input, F64Attr:$value);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def CKKS_RotateOp : CKKS_Op<"rotate"> {
  let summary = "Slot rotations of one ciphertext: in result i, slot j takes slot j + offsets[i] (HEAAN leftRotateFast)";
  let description = [{
    One result per offset, each the automorphism X -> X^g with
    g = 5^offset mod 2N on both polynomials, then key switching of the
    rotated ax with the rotation key of g through region 2 of HE Mul
    (docs/design.md). 0 < offset < N/2, no offset twice; a right rotation by r
    is the left rotation by N/2 - r (HEAAN's rightRotateFast). The rotations
    of one op (like any rotations of one ciphertext) share the decomposition
    of ax: fhe-hoist-automorphisms computes its CRT and NTT once.
    ```mlir
    %r = ckks.rotate %c [1] : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 4096>
    %s:3 = ckks.rotate %c [1, 2, 4] : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 4096>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input, DenseI64ArrayAttr:$offsets);
  let results = (outs Variadic<CKKS_CiphertextType>:$results);
  let assemblyFormat = "$input $offsets attr-dict `:` custom<RotateTypes>(type($input), type($results), ref($offsets))";
  let builders = [
    // One result of x's type per offset.
    OpBuilder<(ins "::mlir::Value":$input, "::llvm::ArrayRef<int64_t>":$offsets)>
  ];
  let extraClassDeclaration = [{
    /// The Galois element 5^offsets[i] mod 2N of result i.
    uint64_t getGaloisElement(unsigned i);
  }];
}

def CKKS_ConjugateOp : CKKS_Op<"conjugate", [AllTypesMatch<["input", "result"]>]> {
  let summary = "Slot-wise complex conjugation (HEAAN conjugate)";
  let description = [{
    The automorphism X -> X^(2N - 1) with key switching, like `ckks.rotate`.
    ```mlir
    %r = ckks.conjugate %c : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 4096>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let extraClassDeclaration = [{
    /// The Galois element 2N - 1.
    uint64_t getGaloisElement();
  }];
}

def CKKS_MulMonomialOp : CKKS_Op<"mul_monomial", [AllTypesMatch<["input", "result"]>]> {
  let summary = "Multiply by the monomial X^k (HEAAN multByMonomial; imult is k = N/2)";
  let description = [{
    Both polynomials times X^k mod (X^N + 1, q): coefficient i moves to
    i + k mod 2N, negated mod q when that index is >= N (X^N = -1). No key,
    no noise, logq and logp unchanged. Slot j (the value at zeta^(5^j),
    zeta = e^(i pi / N)) is multiplied by zeta^(k 5^j): k = N/2 multiplies
    every slot by i, as bootstrapping's CoeffToSlot and EvalMod need
    (Cheon, Han, Kim, Kim, Song 2018). 0 <= k < 2N, and k a multiple of
    N / (2 slots), so that a sparse ciphertext stays in its subring
    Z[X^(N / (2 slots))].
    ```mlir
    %r = ckks.mul_monomial %c {k = 4096} : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 4096>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input, I64Attr:$k);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def CKKS_PolyEvalOp : CKKS_Op<"poly_eval"> {
  let summary = "Evaluate a polynomial slot-wise: baby-step giant-step on the Chebyshev basis";
  let description = [{
    `coefficients` (lowest degree first) in the `basis` "power" (sum c_i x^i)
    or "chebyshev" (sum c_i T_i(t), t = (2x - a - b) / (b - a) mapping the
    `domain` [a, b], default [-1, 1], to [-1, 1]). Its semantics is the
    managed sequence of ckks ops that `ckks-expand-poly-eval` builds
    (dialect/CKKS/Transforms/PolyEval.h, docs/ckks.md): depth ceil(log2(d + 1)), plus one for
    the interval scaling unless [a, b] = [-1, 1], and about 2 sqrt(d) + log2 d
    products of ciphertexts. The result has the module's logp and the logq
    that evaluation leaves (the expansion reports the right type otherwise).
    ```mlir
    %y = ckks.poly_eval %x {basis = "chebyshev", coefficients = array<f64: 0.0, 1.2, 0.0, -0.2>,
                            domain = array<f64: -4.0, 4.0>}
        : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 4096> -> !ckks.ct<logN = 13, logq = 150, logp = 30, slots = 4096>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input, DenseF64ArrayAttr:$coefficients, StrAttr:$basis,
                       OptionalAttr<DenseF64ArrayAttr>:$domain);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let extraClassDeclaration = [{
    /// The domain [a, b] ([-1, 1] when absent).
    std::pair<double, double> getInterval();
  }];
}

def CKKS_BootstrapOp : CKKS_Op<"bootstrap"> {
  let summary = "Bootstrapping: a fresh modulus for a ciphertext (Cheon, Han, Kim, Kim, Song 2018)";
  let description = [{
    `ckks-expand-bootstrap` replaces it by its managed sequence of ckks ops
    (dialect/CKKS/Transforms/Bootstrap.h, docs/bootstrapping.md), which is its semantics:
    mod_down to q0 = 2^mod_logq and mod_raise to the module's logQ; SubSum
    (rotations by slots * 2^i and div_by_po2) onto the sparse subring;
    CoeffToSlot as two linear transforms of the 2 slots view and its
    conjugate, or, factored (more than 32 slots, or `level_budget` = [CoeffToSlot
    levels, SlotToCoeff levels] given; default [3, 3]), as the special FFT's
    butterfly stages grouped into that many linear transforms, with EvalMod
    on the real and the imaginary parts (Chen-Chillotti-Song 2019);
    EvalMod, x - round(x) as sin(2 pi x) / 2 pi, from a Chebyshev
    interpolation of cos(2 pi (x - 1/4) / 2^double_angles) on
    [-bound - 1, bound + 1] of `degree` and `double_angles` double-angle
    steps (Han-Ki 2020); SlotToCoeff as one linear transform, and a rescale
    back to the input's scale. From CoeffToSlot on they compute at the
    working scale 2^log_scale (constants and rescales; default mod_logq + 8),
    each level using log_scale bits. The message keeps mod_logq - logp bits
    of headroom below q0, so EvalMod's sine error stays near
    2^-(2 (mod_logq - logp) - 3) relative. The result has the input's logp
    and slots and the logq the sequence leaves (the expansion names it
    otherwise).
    ```mlir
    %r = ckks.bootstrap %c {mod_logq = 42} : !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8>
                                          -> !ckks.ct<logN = 12, logq = 92, logp = 30, slots = 8>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input, I64Attr:$mod_logq,
                       DefaultValuedAttr<I64Attr, "16">:$bound,
                       DefaultValuedAttr<I64Attr, "31">:$degree,
                       DefaultValuedAttr<I64Attr, "4">:$double_angles,
                       OptionalAttr<I64Attr>:$log_scale,
                       OptionalAttr<DenseI64ArrayAttr>:$level_budget);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def CKKS_LinearTransformOp : CKKS_Op<"linear_transform"> {
  let summary = "Plaintext matrix times encrypted vector by its diagonals, baby-step giant-step";
  let description = [{
    y[j] = sum_i diagonals[i][j] * x[(j + offsets[i]) mod slots]: the matrix
    whose generalized diagonal offsets[i] (M[j][(j + d) mod slots]) is
    diagonals[i] (one f64 or complex<f64> per slot; Halevi–Shoup). With
    d = giant + baby (BsgsPlan, `baby_step` or the cheapest power of two):
      y = sum_giant rot_giant( sum_baby mul_plain(rot_baby(x), rot_-giant(diag_d)) )
    where every mul_plain is exact mod q (not rescaled), the inner sums are
    added mod q, and the giant rotations act on those sums. The baby
    rotations of x share one decomposition (fhe-hoist-automorphisms); each
    inner sum is accumulated in the evaluation domain and leaves it by one
    iNTT/iCRT per polynomial (exact: the RNS basis holds the whole sum). The
    rotated diagonals are encoded at compile time at scale 2^s,
    s = logp(result) - logp(input) > 0 (the module's logp in managed
    programs), like mul_plain.
    ```mlir
    %y = ckks.linear_transform %x {offsets = array<i64: 0, 1>,
                                   diagonals = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>}
        : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 2> -> !ckks.ct<logN = 13, logq = 240, logp = 60, slots = 2>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input, DenseI64ArrayAttr:$offsets, ElementsAttr:$diagonals,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$baby_step);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let extraClassDeclaration = [{
    /// The schedule: baby and giant steps of every diagonal.
    BsgsPlan getPlan();
    /// The diagonals' slot values, one row per offset.
    std::vector<std::vector<std::complex<double>>> getDiagonalRows();
    /// The rotation offsets it needs (nonzero babies and giants), ascending.
    std::vector<int64_t> getRotationOffsets();
    /// Their Galois elements 5^offset mod 2N.
    std::vector<uint64_t> getGaloisElements();
    /// The diagonals' scale s in bits: logp(result) - logp(input).
    unsigned getConstantLogScale() { return getType().getLogp() - getInput().getType().getLogp(); }
  }];
}

def CKKS_MulPlainOp : CKKS_Op<"mul_plain"> {
  let summary = "Multiply slot-wise by a plaintext vector (HEAAN multByPoly)";
  let description = [{
    The plaintext is either a constant, `values` (one f64 or complex<f64> per
    slot), or a `!ckks.pt` argument of the function (`by %pt`), given when
    the function is called. It is encoded at scale 2^s, s = logp(result) -
    logp(input) > 0 (the module's logp in managed programs; canonical
    embedding, rounded to integers) mod the input's q, and both polynomials
    are multiplied by it mod q; logq is unchanged.
    ```mlir
    %r = ckks.mul_plain %c {values = dense<[1.0, -2.0, 0.5, 0.0]> : tensor<4xf64>}
        : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 4> -> !ckks.ct<logN = 13, logq = 240, logp = 60, slots = 4>
    %s = ckks.mul_plain %c by %w : !ckks.pt<logN = 13, slots = 4>
        : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 4> -> !ckks.ct<logN = 13, logq = 240, logp = 60, slots = 4>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input, Optional<CKKS_PlaintextType>:$plain,
                       OptionalAttr<ElementsAttr>:$values);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = [{
    $input (`by` $plain^ `:` type($plain))? attr-dict `:` type($input) `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// The constant's slot values as complex numbers (a `values` op only).
    std::vector<std::complex<double>> getSlotValues();
    /// The plaintext's scale s in bits: logp(result) - logp(input).
    unsigned getConstantLogScale() { return getType().getLogp() - getInput().getType().getLogp(); }
  }];
}

def CKKS_AddPlainOp : CKKS_Op<"add_plain", [AllTypesMatch<["input", "result"]>]> {
  let summary = "Add a plaintext vector slot-wise";
  let description = [{
    The plaintext, a constant (`values`, one f64 or complex<f64> per slot)
    or a `!ckks.pt` argument (`plus %pt`, with `negate`: minus it), is encoded
    at the input's scale 2^logp and added to bx mod q.
    ```mlir
    %r = ckks.add_plain %c {values = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>}
        : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 4>
    %s = ckks.add_plain %c plus %w : !ckks.pt<logN = 13, slots = 4> {negate}
        : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 4>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input, Optional<CKKS_PlaintextType>:$plain,
                       OptionalAttr<ElementsAttr>:$values, UnitAttr:$negate);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = [{
    $input (`plus` $plain^ `:` type($plain))? attr-dict `:` type($result)
  }];
  let extraClassDeclaration = [{
    /// The constant's slot values as complex numbers (a `values` op only).
    std::vector<std::complex<double>> getSlotValues();
  }];
}

#endif
