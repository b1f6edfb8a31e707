#include "fhec/runtime/Secret.h"

namespace fhec::rt {

const char *secretKindName(SecretKind k) { return k == SecretKind::Sparse ? "sparse" : "ternary"; }

bool parseSecretKind(const std::string &s, SecretKind &out) {
  if (s == "ternary") out = SecretKind::Ternary;
  else if (s == "sparse") out = SecretKind::Sparse;
  else return false;
  return true;
}

std::string describeSecret(SecretKind k, int h) {
  return k == SecretKind::Sparse ? "sparse ternary, h = " + std::to_string(h) : "uniform ternary";
}

} // namespace fhec::rt
