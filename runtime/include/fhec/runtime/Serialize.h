// Versioned binary serialization of parameters, keys and ciphertexts.
//
// Layout (little-endian): "FHEC" | u32 format version | u32 object kind |
// u64 payload bytes | payload | u64 checksum of the payload (payloadChecksum:
// XXH3-64 since version 3, FNV-1a in version 2, which is still read). Every
// payload starts with the Params it was made for; keys and ciphertexts then
// carry their KeySetId (u64 lo, u64 hi; version 2) and are in coefficient form
// (limbs mod 2^logq, or mod Q^2 for the evaluation key), so one file serves
// every target. Readers check everything and throw Error saying what is wrong
// (truncation, corruption, version, kind, mismatched parameters, a key without
// a key-set id, a secret key that is not ternary of Hamming weight h).
#pragma once
#include "fhec/runtime/Ciphertext.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Params.h"

#include <string>
#include <string_view>

namespace fhec::rt {

/// 2: keys and ciphertexts carry their KeySetId. 3: the checksum is XXH3-64
/// (tens of GB/s; FNV-1a's 1 GB/s was most of a ciphertext's
/// (de)serialization). 4: the parameters record dnum, and an evaluation or
/// rotation key its number of parts (hybrid key switching). 5: the parameters
/// record the secret's distribution (Secret.h). Versions 2 to 5 are read
/// (before 4 as dnum = 1, before 5 as a sparse secret of the recorded h, the
/// only kind they had), version 1 files are refused.
constexpr uint32_t kSerialVersion = 5;
enum class ObjectKind : uint32_t { Params = 1, Ciphertext = 2, SecretKey = 3, PublicKey = 4, EvalKey = 5, RotationKey = 6,
                                  EncapsulationKey = 7 };

/// The checksum of a payload in format `version` (2 to 5).
uint64_t payloadChecksum(uint32_t version, std::string_view payload);

std::string serialize(const Params &p);
std::string serialize(const Params &p, const Ciphertext &c);
std::string serialize(const Params &p, const SecretKey &k);
std::string serialize(const Params &p, const PublicKey &k);
std::string serialize(const Params &p, const EvalKey &k);
/// A rotation key also records its Galois element.
std::string serialize(const Params &p, const RotationKey &k);
/// An encapsulation key records its q0 (bits), the key to the ephemeral
/// secret (mod q0 P') and the parts of the key back.
std::string serialize(const Params &p, const EncapsulationKey &k);

Params deserializeParams(std::string_view bytes);
/// The `expected` overloads also check that the object was made for those parameters.
Ciphertext deserializeCiphertext(std::string_view bytes, const Params &expected);
/// Also refuses a coefficient outside {-1, 0, 1} or, for a sparse secret, a Hamming weight other than expected.h.
SecretKey deserializeSecretKey(std::string_view bytes, const Params &expected);
PublicKey deserializePublicKey(std::string_view bytes, const Params &expected);
EvalKey deserializeEvalKey(std::string_view bytes, const Params &expected);
/// Also refuses a Galois element that is not odd in [3, 2N).
RotationKey deserializeRotationKey(std::string_view bytes, const Params &expected);
/// Also refuses a q0 outside (0, logQ) or a key to the ephemeral secret of another modulus.
EncapsulationKey deserializeEncapsulationKey(std::string_view bytes, const Params &expected);
/// Params recorded in any serialized object.
Params paramsOf(std::string_view bytes);

/// Writes bytes to path (replacing it). With secret = true the file is
/// created with mode 0600 whatever the umask: the bytes go to a new file
/// (mkstemp, 0600) in the same directory, which is fsync'ed and renamed over
/// path, so no other mode and no reader of an older file ever sees them.
/// Throws Error naming the path and the system's reason.
void writeFile(const std::string &path, const std::string &bytes, bool secret = false);
/// The whole file, read into one buffer (no copies left behind for secret
/// files to wipe). Throws Error naming the path and the system's reason.
std::string readFile(const std::string &path);

/// serialize(p, sk) written with writeFile(path, ..., secret = true); the
/// serialized bytes are wiped afterwards.
void writeSecretKeyFile(const std::string &path, const Params &p, const SecretKey &sk);
/// readFile + deserializeSecretKey, wiping the file's bytes from memory
/// afterwards (also when the key is refused); errors name the path.
SecretKey readSecretKeyFile(const std::string &path, const Params &expected);

} // namespace fhec::rt
