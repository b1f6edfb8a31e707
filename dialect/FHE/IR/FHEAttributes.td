#ifndef FHEC_FHE_ATTRIBUTES_TD
#define FHEC_FHE_ATTRIBUTES_TD

include "dialect/FHE/IR/FHEDialect.td"

def FHE_BasisAttr : FHE_Attr<"Basis", "basis"> {
  let summary = "An RNS basis: primes p_j with P = prod p_j >= 2^min_bits";
  let description = [{
    `min_bits` is the bound the products in this basis need (P > 2 * max|X|
    with margin, docs/design.md). Before `fhe-select-basis` only the bound is known:
    `#fhe.basis<min_bits = 2433>`. Afterwards the primes (all of `prime_bits`
    bits, p = 1 mod 2N, in the deterministic order of the shared generator)
    are recorded:
    `#fhe.basis<min_bits = 60, prime_bits = 31, primes = [2147352577, 2146959361]>`.
  }];
  let parameters = (ins "unsigned":$minBits, "unsigned":$primeBits,
                        ArrayRefParameter<"uint64_t">:$primes);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "unsigned":$minBits), [{
      return $_get($_ctxt, minBits, 0, ::llvm::ArrayRef<uint64_t>{});
    }]>
  ];
  let extraClassDeclaration = [{
    /// True once fhe-select-basis recorded the primes.
    bool isResolved() const { return !getPrimes().empty(); }
    size_t size() const { return getPrimes().size(); }
  }];
}

#endif
