// The client side at NTT speed: the ring products of key generation,
// encryption and decryption (Keys.h's ClientArithmetic) done by a compiled
// client module's kernels (Abi.h, kClient*: CRT, NTT, Hadamard, iNTT, iCRT,
// multi-threaded like every module) instead of GMP. The sampling stays in
// Keys.cpp, so for one random stream both arithmetics give the same keys and
// ciphertexts bit for bit.
#pragma once
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Module.h"

#include <map>
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
               const std::vector<int64_t> &t, int tShift) override;
  std::pair<BigPoly, BigPoly> encrypt(const Params &params, const PublicKey &pk, const std::vector<int8_t> &v,
                                      const std::vector<int64_t> &e0, const std::vector<int64_t> &e1,
                                      const BigPoly &m) override;
  /// With the decrypt kernel of the ciphertext's logq, or else of the
  /// smallest larger one the module holds (the ciphertext read at that
  /// modulus, the result reduced: (bx + ax s mod 2^l) mod 2^logq is the same).
  ///
  /// Narrow decryption first, where the module has it (Abi.h): a message
  /// is far smaller than q, and the decryption mod 2^w of ax's lowest
  /// window alone, c (read centered), is the whole decryption when
  /// Y - c is a multiple k 2^logq of q, where Y = bx + ax s over Z. The
  /// kernel also gives r = Y - c mod a prime p; the client accepts c when
  /// every r 2^-logq mod p is a k in [-w, w + 1], w the Hamming weight of
  /// the secret in use (-w (q - 1) <= Y <= (w + 1)(q - 1) bounds the true k:
  /// Y's ax s part sums w products of |a_i| < q), and else decrypts with all
  /// windows.
  /// So a correct c is never refused, and a wrong c (a message beyond
  /// 2^(w-1), w = 241 bits at the paper's size) is taken only if, at every
  /// coefficient where c is wrong by j 2^w, k + j 2^(w-logq) mod p is an
  /// allowed k: for a j not chosen against p, a chance of about
  /// 2 (2w + 2) / p (2^-42 with h = 64 and p near 2^50, 2^-31.6 with a
  /// ternary secret at N = 2^16, w about 2N/3; the 2: r comes back mod
  /// 2^b < p, read both ways). Coefficients wrong by the same j pass or
  /// fail together; ClientTest checks that no possible j (0 < |j| <=
  /// 2^(logq-w-1)) up to 2^16 passes for the primes and levels it tries. (A server that chose j against p
  /// could as well have sent a ciphertext of that message.)
  BigPoly decrypt(const SecretKey &sk, const Ciphertext &ct) override;
  /// decrypt's values, mod 2^w when the narrow decryption holds them.
  BigPoly decryptMessage(const SecretKey &sk, const Ciphertext &ct) override;

  /// The moduli (logq) the module has decrypt kernels for, ascending.
  const std::vector<int> &decryptLevels() const { return decryptLevels_; }
  const CompiledModule &module() const { return module_; }

private:
  void checkParams(const Params &params) const;
  /// Prepares the NTT form of sk (or pk) unless it is the one prepared last.
  void useSecret(const SecretKey &sk);
  void usePublic(const PublicKey &pk);
  /// A narrow decrypt kernel (Abi.h): its result's width w, the check's
  /// prime p and the bits b of the check's result.
  struct Narrow {
    int width = 0;
    uint64_t prime = 0;
    int checkBits = 0;
  };
  /// Whether a narrow decryption's check accepts it for a ciphertext mod 2^logq (see decrypt).
  bool narrowHolds(const Narrow &n, const BigPoly &check, int logq) const;

  const CompiledModule &module_;
  Params params_;
  Executor exec_;
  std::vector<int> decryptLevels_;
  std::map<int, Narrow> narrow_;  ///< by level (logq)
  std::mutex mu_;  ///< one call at a time: the executor's workspace is shared
  KeySetId secretKeySet_, publicKeySet_;
  bool secretReady_ = false, publicReady_ = false;
  uint64_t secretWeight_ = 0;  ///< Hamming weight of the prepared secret (narrowHolds)
};

} // namespace fhec::rt
