#ifndef FHEC_CKKS_OPS_TD
#define FHEC_CKKS_OPS_TD

include "dialect/CKKS/CKKSDialect.td"
include "dialect/CKKS/CKKSAttributes.td"
include "dialect/CKKS/CKKSTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

class CKKS_Op<string mnemonic, list<Trait> traits = []>
    : Op<CKKS_Dialect, mnemonic, !listconcat(traits, [Pure])> {
  let hasVerifier = 1;
}

class CKKS_BinaryOp<string mnemonic, string what>
    : CKKS_Op<mnemonic, [AllTypesMatch<["lhs", "rhs", "result"]>]> {
  let summary = what;
  let arguments = (ins CKKS_CiphertextType:$lhs, CKKS_CiphertextType:$rhs);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def CKKS_AddOp : CKKS_BinaryOp<"add", "HE Add: coefficient-wise sum mod q"> {
  let description = [{
    Both operands and the result have the same type (logq, logp, slots).
    ```mlir
    %c = ckks.add %a, %b : !ckks.ct<logN = 16, logq = 1200, logp = 30, slots = 32768>
    ```
  }];
}

def CKKS_SubOp : CKKS_BinaryOp<"sub", "HE Sub: coefficient-wise difference mod q"> {
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
    Operands share logN, logq and slots; the result keeps logq and has
    logp = logp(lhs) + logp(rhs). Lowered by `ckks-to-fhe` into the five
    polynomial products of Jung et al. 2021, Fig. 2.
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
    keeps at least one bit of modulus.
    ```mlir
    %r = ckks.rescale %c : !ckks.ct<logN = 16, logq = 1200, logp = 60, slots = 32768>
                        -> !ckks.ct<logN = 16, logq = 1170, logp = 30, slots = 32768>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def CKKS_ModDownOp : CKKS_Op<"mod_down"> {
  let summary = "Modulus switching down: reduce mod a smaller q (level alignment)";
  let arguments = (ins CKKS_CiphertextType:$input);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def CKKS_MulConstOp : CKKS_Op<"mul_const"> {
  let summary = "Multiply every slot by a real constant";
  let description = [{
    Multiplies by round(value * 2^logp) with the module's logp; the result's
    logp grows by the module's logp (HEAAN multByConst), logq is unchanged.
    ```mlir
    %r = ckks.mul_const %c {value = 0.25 : f64} : !ckks.ct<logN = 16, logq = 1200, logp = 30, slots = 8>
                                               -> !ckks.ct<logN = 16, logq = 1200, logp = 60, slots = 8>
    ```
  }];
  let arguments = (ins CKKS_CiphertextType:$input, F64Attr:$value);
  let results = (outs CKKS_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
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

#endif
