#ifndef FHEC_CKKS_TYPES_TD
#define FHEC_CKKS_TYPES_TD

include "dialect/CKKS/CKKSDialect.td"

def CKKS_CiphertextType : CKKS_Type<"Ciphertext", "ct"> {
  let summary = "A CKKS ciphertext (ax, bx) mod q = 2^logq";
  let description = [{
    Two polynomials of Z_q[X]/(X^N + 1), N = 2^logN, q = 2^logq, encrypting
    `slots` complex numbers scaled by 2^logp. Example:
    `!ckks.ct<logN = 16, logq = 1200, logp = 30, slots = 32768>`.
  }];
  let parameters = (ins "unsigned":$logN, "unsigned":$logq, "unsigned":$logp, "unsigned":$slots);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif
