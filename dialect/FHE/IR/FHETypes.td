#ifndef FHEC_FHE_TYPES_TD
#define FHEC_FHE_TYPES_TD

include "dialect/FHE/IR/FHEDialect.td"
include "dialect/FHE/IR/FHEAttributes.td"

def FHE_PolyType : FHE_Type<"Poly", "poly"> {
  let summary = "BigInt polynomial of Z_q[X]/(X^N + 1), q = 2^logq";
  let description = [{
    N = 2^logN coefficients in [0, q), each ceil(logq / 64) little-endian
    64-bit limbs; memory shape (N, limbs), coefficient-major.
    Example: `!fhe.poly<logN = 16, logq = 1200>`.
  }];
  let parameters = (ins "unsigned":$logN, "unsigned":$logq);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getLimbs() const { return (getLogq() + 63) / 64; }
    int64_t getN() const { return int64_t(1) << getLogN(); }
  }];
}

def FHE_RnsType : FHE_Type<"Rns", "rns"> {
  let summary = "A polynomial in RNS form: residues mod each prime of a basis";
  let description = [{
    m = |basis| residue polynomials of N = 2^logN words each, in the
    coefficient or evaluation (NTT) domain; memory shape (m, N) when
    `prime_major`, (N, m) when `coeff_major`. In the evaluation domain,
    `incomplete = k` (default 0) says the last k NTT stages were skipped
    (cuTraNTT's incomplete NTT): each evaluation point is a polynomial of 2^k
    coefficients mod (X^(2^k) - zeta_b), so a Hadamard product multiplies
    these small polynomials.
    Example: `!fhe.rns<logN = 16, basis = #fhe.basis<min_bits = 2433>, domain = eval, layout = prime_major>`.
  }];
  let parameters = (ins "unsigned":$logN, "BasisAttr":$basis, "Domain":$domain, "Layout":$layout,
                        DefaultValuedParameter<"unsigned", "0">:$incomplete);
  let assemblyFormat = "`<` struct(params) `>`";
  let builders = [
    TypeBuilder<(ins "unsigned":$logN, "BasisAttr":$basis, "Domain":$domain, "Layout":$layout), [{
      return $_get($_ctxt, logN, basis, domain, layout, 0);
    }]>
  ];
  let skipDefaultBuilders = 0;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getN() const { return int64_t(1) << getLogN(); }
    RnsType withDomain(Domain d) const {
      return get(getContext(), getLogN(), getBasis(), d, getLayout(), d == Domain::eval ? getIncomplete() : 0);
    }
    RnsType withLayout(Layout l) const { return get(getContext(), getLogN(), getBasis(), getDomain(), l, getIncomplete()); }
    RnsType withBasis(BasisAttr b) const { return get(getContext(), getLogN(), b, getDomain(), getLayout(), getIncomplete()); }
    RnsType withIncomplete(unsigned k) const { return get(getContext(), getLogN(), getBasis(), getDomain(), getLayout(), k); }
    /// True for the coefficient domains (plain or iCRT-scaled residues).
    bool isCoeff() const { return getDomain() != Domain::eval; }
  }];
}

#endif
