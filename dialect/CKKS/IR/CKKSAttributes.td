#ifndef FHEC_CKKS_ATTRIBUTES_TD
#define FHEC_CKKS_ATTRIBUTES_TD

include "dialect/CKKS/IR/CKKSDialect.td"

def CKKS_ParamsAttr : CKKS_Attr<"Params", "params"> {
  let summary = "CKKS scheme parameters of a module";
  let description = [{
    Ring dimension N = 2^logN, top modulus Q = 2^logQ (bits), scaling factor
    p = 2^logp (bits). Key-switching keys live mod P Q, P = 2^ceil(logQ / dnum):
    `dnum` (default 1, HEAAN's P = Q) is the number of digits of hybrid key
    switching (Han–Ki 2020), each key having one part per digit. Paper default
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

    `secret` is the secret key's distribution (docs/security.md): "ternary"
    (the default when absent: each coefficient uniform in {-1, 0, 1}, as the
    HE Standard assumes) or "sparse" with exactly `h` nonzero coefficients
    (HEAAN 2.1's form is `secret = "sparse", h = 64`, with `keyswitch =
    "heaan"` for bit-compatibility). `h` is given with "sparse" only. The
    security estimate reads it: a sparse secret's comes from a model of the
    hybrid attacks on sparse secrets.
  }];
  let parameters = (ins "unsigned":$logN, "unsigned":$logQ, "unsigned":$logp,
                        OptionalParameter<"::mlir::StringAttr">:$security,
                        OptionalParameter<"::mlir::StringAttr">:$keyswitch,
                        DefaultValuedParameter<"unsigned", "1">:$dnum,
                        OptionalParameter<"::mlir::StringAttr">:$secret,
                        DefaultValuedParameter<"unsigned", "0">:$h);
  let builders = [
    AttrBuilder<(ins "unsigned":$logN, "unsigned":$logQ, "unsigned":$logp), [{
      return $_get($_ctxt, logN, logQ, logp, ::mlir::StringAttr(), ::mlir::StringAttr(), 1u,
                   ::mlir::StringAttr(), 0u);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The required security level in bits; 0 for `security = "none"`.
    unsigned getRequiredSecurityBits() const;
    /// Bits of the special modulus P of key switching: ceil(logQ / dnum).
    unsigned getLogP() const { return (getLogQ() + getDnum() - 1) / getDnum(); }
    /// log2 of the largest modulus keys are made for: the keys' P Q.
    unsigned getLargestLogModulus() const { return getLogQ() + getLogP(); }
    /// Whether key switching uses HEAAN 2.1's unsigned decomposition
    /// (`keyswitch = "heaan"`) rather than the centered one.
    bool isHeaanKeySwitch() const { return getKeyswitch() && getKeyswitch().getValue() == "heaan"; }
    /// The secret's distribution: sparse for `secret = "sparse"`, else ternary.
    ::fhec::rt::SecretKind getSecretKind() const {
      return getSecret() && getSecret().getValue() == "sparse" ? ::fhec::rt::SecretKind::Sparse
                                                               : ::fhec::rt::SecretKind::Ternary;
    }
  }];
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif
