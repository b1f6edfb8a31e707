#include "fhec/runtime/Params.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Limits.h"

#include <sstream>

namespace fhec::rt {

void Params::validate() const {
  if (logN < int(limits::kMinLogN) || logN > int(limits::kMaxLogN))
    throw Error("invalid parameters: logN = " + std::to_string(logN) + " (N must be a power of two 2^logN with " +
                std::to_string(limits::kMinLogN) + " <= logN <= " + std::to_string(limits::kMaxLogN) + ")");
  if (logQ < 1 || logQ > int(limits::kMaxLogQ))
    throw Error("invalid parameters: logQ = " + std::to_string(logQ) + " is outside [1, " +
                std::to_string(limits::kMaxLogQ) + "]");
  if (logp < 1 || logp >= logQ)
    throw Error("invalid parameters: logp = " + std::to_string(logp) + " must be in [1, logQ)");
  if (secret != SecretKind::Ternary && secret != SecretKind::Sparse)
    throw Error("invalid parameters: unknown secret distribution " + std::to_string(int(secret)) +
                " (expected ternary or sparse)");
  if (secret == SecretKind::Sparse && (h < 1 || size_t(h) > N()))
    throw Error("invalid parameters: sparse secret's Hamming weight h = " + std::to_string(h) + " must be in [1, N = " +
                std::to_string(N()) + "]: use a ring of at least " + std::to_string(h) + " coefficients");
  if (secret == SecretKind::Ternary && h != 0)
    throw Error("invalid parameters: h = " + std::to_string(h) +
                " is set for a uniform ternary secret, whose weight is not fixed (use secret = sparse for a fixed h)");
  if (dnum < 1 || dnum > logQ)
    throw Error("invalid parameters: dnum = " + std::to_string(dnum) + " (digits of key switching) must be in [1, logQ = " +
                std::to_string(logQ) + "]");
  if ((dnum - 1) * logP() >= logQ)
    throw Error("invalid parameters: dnum = " + std::to_string(dnum) + " digits of logP = ceil(logQ / dnum) = " +
                std::to_string(logP()) + " bits leave the last one empty at logQ = " + std::to_string(logQ) +
                ": use fewer digits");
  if (!(sigma > 0.0) || sigma > 64.0)
    throw Error("invalid parameters: sigma = " + std::to_string(sigma) + " must be in (0, 64]");
}

void Params::validateCiphertext(int logq, int ctLogp, int slots) const {
  if (logq < 1 || logq > logQ)
    throw Error("invalid ciphertext: logq = " + std::to_string(logq) + " must be in [1, logQ = " +
                std::to_string(logQ) + "]");
  if (ctLogp < 0 || ctLogp >= logq)
    throw Error("invalid ciphertext: logp = " + std::to_string(ctLogp) + " must be in [0, logq = " +
                std::to_string(logq) + ")");
  if (slots < 1 || (slots & (slots - 1)) != 0 || size_t(slots) > N() / 2)
    throw Error("invalid ciphertext: slots = " + std::to_string(slots) +
                " must be a power of two <= N/2 = " + std::to_string(N() / 2));
}

std::string Params::str() const {
  std::ostringstream os;
  os << "logN=" << logN << " logQ=" << logQ << " logp=" << logp << " secret=" << secretKindName(secret);
  if (secret == SecretKind::Sparse) os << " h=" << h;
  os << " sigma=" << sigma;
  if (dnum != 1) os << " dnum=" << dnum;
  return os.str();
}

} // namespace fhec::rt
