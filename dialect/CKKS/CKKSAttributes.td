#ifndef FHEC_CKKS_ATTRIBUTES_TD
#define FHEC_CKKS_ATTRIBUTES_TD

include "dialect/CKKS/CKKSDialect.td"

def CKKS_ParamsAttr : CKKS_Attr<"Params", "params"> {
  let summary = "CKKS scheme parameters of a module";
  let description = [{
    Ring dimension N = 2^logN, top modulus Q = 2^logQ (bits), scaling factor
    p = 2^logp (bits). The evaluation key lives mod Q^2. Paper default
    (Jung et al. 2021, Table 6): `#ckks.params<logN = 16, logQ = 1200, logp = 30>`.

    `security` is the classical security level (bits) the driver requires of
    the parameters' estimate (fhec/runtime/Security.h): "128" (the default
    when absent), "192" or "256"; "none" opts out of the check, like OpenFHE's
    HEStd_NotSet (the estimate is still printed). The paper's parameters
    estimate below 128 bits (Q^2 = 2^2400 at N = 2^16), so its examples say
    `security = "none"`.

    `keyswitch` is the form of key switching (relinearization, rotations):
    "centered" (the default when absent) decomposes the switched polynomial
    through its centered representative in [-q/2, q/2), "heaan" through the
    unsigned one in [0, q) as HEAAN 2.1 does, bit-compatible with it but with
    a larger error at the top level (docs/design.md, "Key switching").
  }];
  let parameters = (ins "unsigned":$logN, "unsigned":$logQ, "unsigned":$logp,
                        OptionalParameter<"::mlir::StringAttr">:$security,
                        OptionalParameter<"::mlir::StringAttr">:$keyswitch);
  let builders = [
    AttrBuilder<(ins "unsigned":$logN, "unsigned":$logQ, "unsigned":$logp), [{
      return $_get($_ctxt, logN, logQ, logp, ::mlir::StringAttr(), ::mlir::StringAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    /// The required security level in bits; 0 for `security = "none"`.
    unsigned getRequiredSecurityBits() const;
    /// log2 of the largest modulus keys are made for: the evaluation key's Q^2.
    unsigned getLargestLogModulus() const { return 2 * getLogQ(); }
    /// Whether key switching uses HEAAN 2.1's unsigned decomposition
    /// (`keyswitch = "heaan"`) rather than the centered one.
    bool isHeaanKeySwitch() const { return getKeyswitch() && getKeyswitch().getValue() == "heaan"; }
  }];
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif
