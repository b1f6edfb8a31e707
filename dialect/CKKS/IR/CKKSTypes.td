#ifndef FHEC_CKKS_TYPES_TD
#define FHEC_CKKS_TYPES_TD

include "dialect/CKKS/IR/CKKSDialect.td"

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

def CKKS_PlaintextType : CKKS_Type<"Plaintext", "pt"> {
  let summary = "A plaintext vector of `slots` slot values given when the function is called";
  let description = [{
    A function argument that the caller passes as numbers, one per slot; the
    runtime encodes it (canonical embedding) at each use's scale and modulus,
    so the compiled function serves any values. Example:
    `!ckks.pt<logN = 13, slots = 4096>`.
  }];
  let parameters = (ins "unsigned":$logN, "unsigned":$slots);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif
