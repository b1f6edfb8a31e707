#ifndef FHEC_CKKS_ATTRIBUTES_TD
#define FHEC_CKKS_ATTRIBUTES_TD

include "dialect/CKKS/CKKSDialect.td"

def CKKS_ParamsAttr : CKKS_Attr<"Params", "params"> {
  let summary = "CKKS scheme parameters of a module";
  let description = [{
    Ring dimension N = 2^logN, top modulus Q = 2^logQ (bits), scaling factor
    p = 2^logp (bits). The evaluation key lives mod Q^2. Paper default
    (Jung et al. 2021, Table 6): `#ckks.params<logN = 16, logQ = 1200, logp = 30>`.
  }];
  let parameters = (ins "unsigned":$logN, "unsigned":$logQ, "unsigned":$logp);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif
