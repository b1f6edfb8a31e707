// The client side at NTT speed: the ring products of key generation,
// encryption and decryption (Keys.h's ClientArithmetic) done by a compiled
// client module's kernels (Abi.h, kClient*: CRT, NTT, Hadamard, iNTT, iCRT,
// multi-threaded like every module) instead of GMP. The sampling stays in
// Keys.cpp, so for one random stream both arithmetics give the same keys and
// ciphertexts bit for bit.
#pragma once
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Module.h"

#include <mutex>

namespace fhec::rt {

class KernelArithmetic final : public ClientArithmetic {
public:
  /// `module`: the client kernels of `params` (codegen/ClientKernels.h;
  /// `fhec --emit=client`), which must outlive this object. Throws Error if
  /// the module lacks them or was compiled for other parameters.
  KernelArithmetic(const CompiledModule &module, const Params &params);
  /// Wipes the secret key's NTT form and the workspace.
  ~KernelArithmetic() override;

  BigPoly keyB(const Params &params, const SecretKey &sk, const BigPoly &a, const std::vector<int64_t> &e,
               const std::vector<int64_t> &t) override;
  std::pair<BigPoly, BigPoly> encrypt(const Params &params, const PublicKey &pk, const std::vector<int8_t> &v,
                                      const std::vector<int64_t> &e0, const std::vector<int64_t> &e1,
                                      const BigPoly &m) override;
  /// With the decrypt kernel of the ciphertext's logq, or else of the
  /// smallest larger one the module holds (the ciphertext read at that
  /// modulus, the result reduced: (bx + ax s mod 2^l) mod 2^logq is the same).
  BigPoly decrypt(const SecretKey &sk, const Ciphertext &ct) override;

  /// The moduli (logq) the module has decrypt kernels for, ascending.
  const std::vector<int> &decryptLevels() const { return decryptLevels_; }
  const CompiledModule &module() const { return module_; }

private:
  void checkParams(const Params &params) const;
  /// Prepares the NTT form of sk (or pk) unless it is the one prepared last.
  void useSecret(const SecretKey &sk);
  void usePublic(const PublicKey &pk);

  const CompiledModule &module_;
  Params params_;
  Executor exec_;
  std::vector<int> decryptLevels_;
  std::mutex mu_;  ///< one call at a time: the executor's workspace is shared
  KeySetId secretKeySet_, publicKeySet_;
  bool secretReady_ = false, publicReady_ = false;
};

} // namespace fhec::rt
