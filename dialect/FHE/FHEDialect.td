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
}

def FHE_Domain : I32EnumAttr<"Domain", "polynomial representation of RNS residues", [
    I32EnumAttrCase<"coeff", 0>, I32EnumAttrCase<"eval", 1>]> {
  let cppNamespace = "::fhec::fhe";
  let genSpecializedAttr = 0;
}

def FHE_Layout : I32EnumAttr<"Layout", "memory order of an (m, N) residue matrix", [
    I32EnumAttrCase<"prime_major", 0>, I32EnumAttrCase<"coeff_major", 1>]> {
  let cppNamespace = "::fhec::fhe";
  let genSpecializedAttr = 0;
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
