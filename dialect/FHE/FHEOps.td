#ifndef FHEC_FHE_OPS_TD
#define FHEC_FHE_OPS_TD

include "dialect/FHE/FHEDialect.td"
include "dialect/FHE/FHEAttributes.td"
include "dialect/FHE/FHETypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

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
    in a 3-word accumulator followed by a Shoup reduction (Jung et al. 2021, Algo. 1).
    ```mlir
    %r = fhe.crt %p : !fhe.poly<logN = 16, logq = 1200>
        -> !fhe.rns<logN = 16, basis = #fhe.basis<min_bits = 2419>, domain = coeff, layout = prime_major>
    ```
  }];
  let arguments = (ins FHE_PolyType:$input);
  let results = (outs FHE_RnsType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def FHE_IcrtOp : FHE_Op<"icrt"> {
  let summary = "iCRT: residues back to BigInt coefficients mod 2^logq (Algo. 5)";
  let description = [{
    Centered reconstruction X in (-P/2, P/2) of sum_j temp_j * (P/p_j) with
    temp_j = x_j * (P/p_j)^-1 mod p_j, then X mod 2^logq of the result type
    (Jung et al. 2021, Algo. 5). The input must be in the coefficient domain.
  }];
  let arguments = (ins FHE_RnsType:$input);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// RNS operations
//===----------------------------------------------------------------------===//

def FHE_NttOp : FHE_Op<"ntt"> {
  let summary = "Forward negacyclic NTT per prime (Algo. 3, Cooley-Tukey)";
  let description = [{
    Coefficient domain to evaluation domain; the output is in bit-reversed order.
    Shoup multiplication by the twiddles psi^bitrev(i) (Algo. 2, Algo. 4).
  }];
  let arguments = (ins FHE_RnsType:$input);
  let results = (outs FHE_RnsType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def FHE_InttOp : FHE_Op<"intt"> {
  let summary = "Inverse negacyclic NTT per prime (Gentleman-Sande, then times N^-1)";
  let arguments = (ins FHE_RnsType:$input);
  let results = (outs FHE_RnsType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def FHE_HadamardOp : FHE_Op<"hadamard", [SameOperandsAndResultType, Commutative]> {
  let summary = "Pointwise modular product of two evaluation-domain RNS polynomials";
  let arguments = (ins FHE_RnsType:$lhs, FHE_RnsType:$rhs);
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
  let hasVerifier = 0;  // ODS traits and constraints say it all
  let arguments = (ins FHE_RnsType:$lhs, FHE_RnsType:$rhs);
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
  let summary = "Right shift of every coefficient: floor(x / 2^shift), logq -= shift";
  let description = [{ HEAAN's rightShift: rescaling and region 2's division by Q. }];
  let arguments = (ins FHE_PolyType:$input, I64Attr:$shift);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def FHE_PolyReduceOp : FHE_Op<"poly_reduce"> {
  let summary = "Reduce every coefficient mod a smaller power of two";
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

def FHE_PolyAddConstantTermOp : FHE_Op<"poly_add_constant_term", [SameOperandsAndResultType]> {
  let summary = "Add a signed integer constant to coefficient 0 mod q";
  let hasVerifier = 0;  // ODS traits and constraints say it all
  let arguments = (ins FHE_PolyType:$input, APIntAttr:$value);
  let results = (outs FHE_PolyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

#endif
