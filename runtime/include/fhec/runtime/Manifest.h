// A compiled module's manifest: what it says about itself (target,
// parameters, RNS bases, functions and the ABI of their arguments), and its
// one text codec. The compiler writes it (abi/Manifest.cpp, through
// writeManifest) into the module; the runtime reads it back when loading
// (parseManifest). The format, one record per line of key=value fields
// after an "fhec-manifest <ABI version>" header, is in docs/design.md.
#pragma once
#include "fhec/runtime/Abi.h"
#include "fhec/runtime/KernelPlace.h"
#include "fhec/runtime/Params.h"
#include "fhec/runtime/Secret.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fhec::rt {

struct ManifestArg {
  enum class Kind { Table, Poly, Rns, Workspace, Constant } kind = Kind::Poly;
  bool output = false;
  abi::TableKind table = abi::TableKind::PrimeConsts;
  int basis = -1;     ///< index into Manifest::bases (tables, RNS arguments)
  int64_t param = 0;  ///< the table kind's parameter (Abi.h)
  int logq = 0;       ///< modulus bits of BigInt polynomial arguments
  std::string symbol; ///< constants: the module's global holding their words
  int64_t words = 0;  ///< constants: how many
  int bits = 64;      ///< RNS arguments: width of a residue word in memory (32 or 64)
  /// "ct<i>.ax|bx", "evk.ax|bx", "rk<g>.ax|bx", "key", "keyrns", or a
  /// plaintext argument's encoding (abi::plaintextRole)
  std::string role;
};

struct ManifestCiphertext {
  int logq = 0, logp = 0, slots = 0;
};

struct ManifestFunction {
  std::string name, entry;
  int64_t workspaceBytes = 0;  ///< size of the function's workspace argument
  std::vector<ManifestArg> args;
  std::vector<ManifestCiphertext> inputs, outputs;
  /// Slots of each plaintext argument (!ckks.pt), given as numbers when called.
  std::vector<int> plaintexts;
  /// The Galois elements of the rotation keys the function reads (sorted).
  std::vector<uint64_t> galoisElements() const;
  /// The q0 (bits) of the encapsulation keys the function reads (sorted;
  /// bootstrapping with a dense secret).
  std::vector<int> encapsulationModuli() const;
  /// Whether it reads the evaluation key (HE Mul).
  bool needsEvalKey() const;
};

/// What a module says about itself: target, parameters, RNS bases, functions.
struct Manifest {
  std::string target = "cpu";  ///< the target's name, for messages
  KernelPlace kernels = KernelPlace::Host;
  int shoupBits = 64;  ///< Shoup base of the module's tables
  std::vector<std::string> cpuFeatures;  ///< what the module's code needs (cpuid names)
  int logN = 0, logQ = 0, logp = 0;
  int dnum = 1;  ///< digits of key switching (hybrid when > 1)
  SecretKind secret = SecretKind::Ternary;  ///< the keys' secret (Secret.h)
  int h = 0;                                ///< its Hamming weight, if sparse
  /// Client kernels: the largest secret Hamming weight their decryption is
  /// exact for (0: any weight up to N).
  int64_t clientSecretWeight = 0;
  std::vector<std::vector<uint64_t>> bases;
  std::vector<ManifestFunction> functions;
  const ManifestFunction *find(const std::string &name) const;
  /// The function `name`, or (empty name) the module's only program function
  /// (any but the key preparation). Throws Error when there is no such
  /// function, or several and no name.
  const ManifestFunction &program(const std::string &name = "") const;
  /// The parameters the module was compiled for (sigma the default).
  Params params() const;
};

/// Parses the manifest text the compiler embeds; throws Error on malformed input.
Manifest parseManifest(const std::string &text);
/// The manifest's text, as the compiler embeds it (fhe.manifest) and
/// parseManifest reads it back; throws Error on a record the format cannot
/// hold (an empty name, a table kind without a name).
std::string writeManifest(const Manifest &m);

} // namespace fhec::rt
