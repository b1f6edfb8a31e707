// Versioned binary serialization of parameters, keys and ciphertexts.
//
// Layout (little-endian): "FHEC" | u32 format version | u32 object kind |
// u64 payload bytes | payload | u64 FNV-1a checksum of the payload. Every
// payload starts with the Params it was made for; keys and ciphertexts are in
// coefficient form (limbs mod 2^logq, or mod Q^2 for the evaluation key), so one
// file serves every target. Readers check everything and throw Error saying
// what is wrong (truncation, corruption, version, kind, mismatched parameters).
#pragma once
#include "fhec/runtime/Ciphertext.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Params.h"

#include <string>

namespace fhec::rt {

constexpr uint32_t kSerialVersion = 1;
enum class ObjectKind : uint32_t { Params = 1, Ciphertext = 2, SecretKey = 3, PublicKey = 4, EvalKey = 5 };

std::string serialize(const Params &p);
std::string serialize(const Params &p, const Ciphertext &c);
std::string serialize(const Params &p, const SecretKey &k);
std::string serialize(const Params &p, const PublicKey &k);
std::string serialize(const Params &p, const EvalKey &k);

Params deserializeParams(const std::string &bytes);
/// The `expected` overloads also check that the object was made for those parameters.
Ciphertext deserializeCiphertext(const std::string &bytes, const Params &expected);
SecretKey deserializeSecretKey(const std::string &bytes, const Params &expected);
PublicKey deserializePublicKey(const std::string &bytes, const Params &expected);
EvalKey deserializeEvalKey(const std::string &bytes, const Params &expected);
/// Params recorded in any serialized object.
Params paramsOf(const std::string &bytes);

void writeFile(const std::string &path, const std::string &bytes);
std::string readFile(const std::string &path);

} // namespace fhec::rt
