#ifndef FHEC_CKKS_DIALECT_TD
#define FHEC_CKKS_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def CKKS_Dialect : Dialect {
  let name = "ckks";
  let cppNamespace = "::fhec::ckks";
  let summary = "Scheme-level CKKS (HEAAN) operations on ciphertexts";
  let description = [{
    What users and the Python tracer write: ciphertexts of HEAAN's power-of-two
    modulus form and the homomorphic operations on them. The module carries the
    scheme parameters as `ckks.params = #ckks.params<logN = 16, logQ = 1200, logp = 30>`.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral getParamsAttrName() { return "ckks.params"; }
  }];
}

class CKKS_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<CKKS_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class CKKS_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<CKKS_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif
