#ifndef FHEC_FHE_DIALECT_TD
#define FHEC_FHE_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def FHE_Dialect : Dialect {
  let name = "fhe";
  let cppNamespace = "::fhec::fhe";
  let summary = "Kernel-level FHE: the CRT, NTT, Hadamard, iNTT, iCRT vocabulary";
  let description = [{
    The five kernel phases of HE Mul (Jung et al. 2021, Fig. 2) on BigInt
    polynomials (`!fhe.poly`) and their residue-number-system form
    (`!fhe.rns`). Optimization passes record their decisions as attributes on
    these ops; `fhe-to-loops` reads them.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    // Discardable attributes of the ABI, written by the lowering and read by
    // the manifest (one definition each).
    /// Argument/result role: "ct<i>.ax|bx", "evk.ax|bx", "key", "keyrns".
    static constexpr ::llvm::StringLiteral getRoleAttrName() { return "fhe.role"; }
    /// The fhe type an argument had before fhe-to-loops (TypeAttr).
    static constexpr ::llvm::StringLiteral getTypeAttrName() { return "fhe.type"; }
    /// Function: (logq, logp, slots) of each input / output ciphertext.
    static constexpr ::llvm::StringLiteral getCtInputsAttrName() { return "fhe.ct_inputs"; }
    static constexpr ::llvm::StringLiteral getCtOutputsAttrName() { return "fhe.ct_outputs"; }
    /// Slots of each !ckks.pt argument of a lowered function (array<i64>), in order.
    static constexpr ::llvm::StringLiteral getPtInputsAttrName() { return "fhe.pt_inputs"; }
    /// Argument: an out-parameter (a former result).
    static constexpr ::llvm::StringLiteral getOutputAttrName() { return "fhe.output"; }
    /// Table argument: kind, basis and parameter.
    static constexpr ::llvm::StringLiteral getTableAttrName() { return "fhe.table"; }
    static constexpr ::llvm::StringLiteral getBasisAttrName() { return "fhe.basis"; }
    static constexpr ::llvm::StringLiteral getParamAttrName() { return "fhe.param"; }
    /// Constant argument: the symbol of the constant global (an encoded
    /// plaintext) the runtime passes, copied to the device for GPU targets.
    static constexpr ::llvm::StringLiteral getConstantAttrName() { return "fhe.constant"; }
    /// Workspace argument, and the function's workspace size in bytes.
    static constexpr ::llvm::StringLiteral getWorkspaceAttrName() { return "fhe.workspace"; }
    static constexpr ::llvm::StringLiteral getWorkspaceBytesAttrName() { return "fhe.workspace_bytes"; }
    /// Module: the manifest text and the entry functions.
    static constexpr ::llvm::StringLiteral getManifestAttrName() { return "fhe.manifest"; }
    static constexpr ::llvm::StringLiteral getEntriesAttrName() { return "fhe.entries"; }
    /// Module: the target the module was lowered for.
    static constexpr ::llvm::StringLiteral getTargetAttrName() { return "fhe.target"; }
    /// Module of client kernels: the largest Hamming weight of a secret its
    /// decrypt kernels are exact for (their windows' bases rely on it).
    static constexpr ::llvm::StringLiteral getClientSecretWeightAttrName() { return "fhe.client_secret_weight"; }
  }];
}

// `coeff_scaled` holds iCRT's temp_j = x_j * (P/p_j)^-1 mod p_j (Jung et al.
// 2021, Algo. 5 line 3): an iNTT whose last stage already applied that factor
// (fhe-fuse) feeds an iCRT that skips its pre-multiplication.
def FHE_Domain : I32EnumAttr<"Domain", "polynomial representation of RNS residues", [
    I32EnumAttrCase<"coeff", 0>, I32EnumAttrCase<"eval", 1>, I32EnumAttrCase<"coeff_scaled", 2>]> {
  let cppNamespace = "::fhec::fhe";
  let genSpecializedAttr = 0;
}

def FHE_Layout : I32EnumAttr<"Layout", "memory order of an (m, N) residue matrix", [
    I32EnumAttrCase<"prime_major", 0>, I32EnumAttrCase<"coeff_major", 1>]> {
  let cppNamespace = "::fhec::fhe";
  let genSpecializedAttr = 0;
}

def FHE_Order : I32EnumAttr<"Order", "loop order of a CRT or iCRT kernel", [
    I32EnumAttrCase<"operand_scan", 0>, I32EnumAttrCase<"matrix", 1>]> {
  let cppNamespace = "::fhec::fhe";
  let genSpecializedAttr = 0;
}
def FHE_OrderAttr : EnumAttr<FHE_Dialect, FHE_Order, "order"> {
  let summary = "CRT/iCRT loop order: operand scanning (Algo. 1/5) or matrix form (Algo. 6)";
}

def FHE_Space : I32EnumAttr<"Space", "iteration space of a fused kernel", [
    I32EnumAttrCase<"residue", 0>, I32EnumAttrCase<"coefficient", 1>, I32EnumAttrCase<"transform", 2>,
    I32EnumAttrCase<"rows", 3>]> {
  let cppNamespace = "::fhec::fhe";
  let genSpecializedAttr = 0;
}
def FHE_SpaceAttr : EnumAttr<FHE_Dialect, FHE_Space, "space"> {
  let summary = "residue: one (prime, coefficient) at a time; coefficient: one coefficient block at a time; "
                "transform: one prime at a time for a batch of NTTs or iNTTs; "
                "rows: one prime at a time through a pipeline of transform and residue kernels";
}

class FHE_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<FHE_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class FHE_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<FHE_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif
