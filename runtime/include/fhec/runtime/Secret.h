// The secret key's distribution, a part of the parameters (docs/security.md).
//
// - Ternary (the default): every coefficient uniform in {-1, 0, 1}, the
//   distribution the HE Standard's tables assume (expected Hamming weight 2N/3).
// - Sparse: exactly h nonzero coefficients in {-1, 1} (HWT(h), HEAAN 2.1's
//   form with h = 64); its security comes from a model of the hybrid attacks
//   on sparse secrets, never from the uniform-ternary tables.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace fhec::rt {

enum class SecretKind : int32_t { Ternary = 0, Sparse = 1 };

/// "ternary" or "sparse"; the spelling of #ckks.params and fhec.Params.
const char *secretKindName(SecretKind k);
/// Parses "ternary" / "sparse"; false for anything else.
bool parseSecretKind(const std::string &s, SecretKind &out);

/// The largest Hamming weight a secret of this kind has in a ring of n
/// coefficients: h for a sparse secret, n for a uniform ternary one (what the
/// bounds of decryption and key switching read).
inline size_t maxSecretWeight(SecretKind k, int h, size_t n) { return k == SecretKind::Sparse ? size_t(h) : n; }

/// "uniform ternary" or "sparse ternary, h = 64" (messages).
std::string describeSecret(SecretKind k, int h);

} // namespace fhec::rt
