// Key generation, encryption and decryption (HEAAN 2.1 / CKKS).
#pragma once
#include "fhec/runtime/Ciphertext.h"
#include "fhec/runtime/Params.h"
#include "fhec/runtime/Random.h"

#include <map>
#include <string>
#include <vector>

namespace fhec::rt {

/// The ternary secret s. Its coefficients are wiped (secureWipe) when the key
/// is destroyed or overwritten, and a moved-from key is left empty.
struct SecretKey {
  int logN = 0;
  std::vector<int8_t> s;  ///< ternary coefficients, Hamming weight h
  KeySetId keySet;

  SecretKey() = default;
  SecretKey(const SecretKey &o) = default;
  SecretKey(SecretKey &&o) noexcept : logN(o.logN), s(std::move(o.s)), keySet(o.keySet) {}
  SecretKey &operator=(const SecretKey &o) {
    if (this != &o) {
      secureWipe(s);
      logN = o.logN;
      s = o.s;
      keySet = o.keySet;
    }
    return *this;
  }
  SecretKey &operator=(SecretKey &&o) noexcept {
    if (this != &o) {
      secureWipe(s);
      logN = o.logN;
      s = std::move(o.s);
      keySet = o.keySet;
    }
    return *this;
  }
  ~SecretKey() { secureWipe(s); }
};

/// Encryption key (ax, bx = -ax*s + e) mod P Q (HEAAN 2.1, where P = Q:
/// encryption works mod q P and divides by P, so the fresh noise shrinks to
/// rounding noise).
struct PublicKey {
  BigPoly ax, bx;
  KeySetId keySet;
};

/// Evaluation (relinearization) key, one part per digit j < dnum of hybrid
/// key switching (Han–Ki 2020): ax[j] uniform and bx[j] = -ax[j] s + e_j +
/// P 2^(j logP) s^2 mod P Q, P = 2^logP (Params::logP). With dnum = 1 that is
/// HEAAN's (a, -a s + e + Q s^2) mod Q^2. In coefficient form; each target
/// derives its RNS/NTT form when loading it.
struct EvalKey {
  std::vector<BigPoly> ax, bx;
  KeySetId keySet;
};

/// Rotation (key-switching) key of the automorphism X -> X^g (HEAAN 2.1's
/// addLeftRotKey / addConjKey), per digit j < dnum: (ax[j], bx[j] = -ax[j] s +
/// e_j + P 2^(j logP) s(X^g)) mod P Q, in coefficient form like the
/// evaluation key. g = galoisForRotation(logN, r) for a left rotation by r,
/// galoisForConjugation(logN) for conjugation.
struct RotationKey {
  uint64_t galois = 0;
  std::vector<BigPoly> ax, bx;
  KeySetId keySet;
};

/// Sparse-secret encapsulation (Bossuat, Troncoso-Pastoriza, Hubaux 2022,
/// Sec. 5): the Hamming weight of the ephemeral secret s' that bootstrapping
/// raises the modulus under, and the extra bits of the small key's special
/// modulus P' = 2^(logq0 + kEncapsulationExtraBits) over q0.
constexpr int kEphemeralSecretWeight = 32;
constexpr int kEncapsulationExtraBits = 16;
inline int encapsulationLogP(int logq0) { return logq0 + kEncapsulationExtraBits; }
/// The modulus (bits) of the switching key to s' for ciphertexts at q0 = 2^logq0: q0 P'.
inline int encapsulationKeyLogModulus(int logq0) { return logq0 + encapsulationLogP(logq0); }

/// The two switching keys of sparse-secret encapsulation for ciphertexts at
/// q0 = 2^logq0 under the main secret s, through an ephemeral s' ~
/// HWT(kEphemeralSecretWeight) drawn for this pair and wiped once both are made:
/// - to s': (sparseAx, sparseBx = -sparseAx s' + e + P' s) mod q0 P', one part
///   (a ciphertext at q0 is one digit). Only this small-modulus LWE sample
///   involves s' as a secret, where a sparse secret is secure.
/// - back to s: dnum parts (denseAx[j], denseBx[j] = -denseAx[j] s + e_j +
///   P 2^(j logP) s') mod PQ, in the form of a rotation key.
struct EncapsulationKey {
  int logq0 = 0;
  BigPoly sparseAx, sparseBx;
  std::vector<BigPoly> denseAx, denseBx;
  KeySetId keySet;
};

struct KeySet {
  Params params;
  SecretKey sk;
  PublicKey pk;
  EvalKey evk;
  std::map<uint64_t, RotationKey> rotationKeys;          ///< by Galois element
  std::map<int, EncapsulationKey> encapsulationKeys;     ///< by log2 q0
};

/// The ring products of the client side, behind one interface so that the
/// sampling around them (the order in which randomness is drawn) is written
/// once: gmpArithmetic() (the reference: exact BigInt products,
/// Reference.h) and KernelArithmetic (Client.h: a compiled module's CRT,
/// NTT, Hadamard, iNTT and iCRT kernels) return the same polynomials bit for
/// bit. Errors are thrown as Error.
class ClientArithmetic {
public:
  virtual ~ClientArithmetic() = default;
  /// e + 2^tShift t - a s mod 2^a.logq, for a mod P Q (a.logq =
  /// Params::logKey()) and small signed e and t (t empty: 0): the bx of a
  /// public, evaluation or rotation key.
  virtual BigPoly keyB(const Params &params, const SecretKey &sk, const BigPoly &a, const std::vector<int64_t> &e,
                       const std::vector<int64_t> &t, int tShift) = 0;
  /// HEAAN's encMsg after sampling: (round((v pk.ax + e0) / P),
  /// round((v pk.bx + e1) / P) + m) mod 2^m.logq, v ternary, e0 and e1 small.
  virtual std::pair<BigPoly, BigPoly> encrypt(const Params &params, const PublicKey &pk, const std::vector<int8_t> &v,
                                              const std::vector<int64_t> &e0, const std::vector<int64_t> &e1,
                                              const BigPoly &m) = 0;
  /// bx + ax s mod q of a ciphertext (checked against sk by decrypt()).
  virtual BigPoly decrypt(const SecretKey &sk, const Ciphertext &ct) = 0;
  /// The same centered values (what decode reads), possibly mod a smaller
  /// power of two 2^w <= q that holds them: by default decrypt's result.
  virtual BigPoly decryptMessage(const SecretKey &sk, const Ciphertext &ct) { return decrypt(sk, ct); }
};

/// The reference arithmetic: products by Kronecker substitution and sparse
/// additions (GMP), no state.
ClientArithmetic &gmpArithmetic();

/// Generates sk ~ HWT(h), pk and evk with a discrete Gaussian error of width
/// sigma, all three stamped with one fresh random KeySetId. Secret
/// temporaries (the error polynomials, a*s, Q*s^2) are wiped before release.
/// `arith` does the products a*s. The same as generateSecretKey,
/// generatePublicKey and generateEvalKey in turn.
KeySet generateKeys(const Params &params, SecureRandom &rng, ClientArithmetic &arith = gmpArithmetic());
/// sk ~ HWT(h) with a fresh random KeySetId.
SecretKey generateSecretKey(const Params &params, SecureRandom &rng);
/// pk = (a, -a s + e) mod P Q, stamped with sk's key set.
PublicKey generatePublicKey(const Params &params, const SecretKey &sk, SecureRandom &rng,
                            ClientArithmetic &arith = gmpArithmetic());
/// evk (relinearization: EvalKey, dnum parts), stamped with sk's key set.
EvalKey generateEvalKey(const Params &params, const SecretKey &sk, SecureRandom &rng,
                        ClientArithmetic &arith = gmpArithmetic());

/// The rotation key of Galois element g for sk (stamped with sk's key set);
/// s(X^g), the error and a*s are wiped before release. Throws Error for a g
/// that is not an odd number in [3, 2N).
RotationKey generateRotationKey(const Params &params, const SecretKey &sk, uint64_t galois, SecureRandom &rng,
                                ClientArithmetic &arith = gmpArithmetic());

/// The encapsulation keys for ciphertexts at q0 = 2^logq0 (EncapsulationKey),
/// stamped with sk's key set; s' and the errors are wiped before release.
/// Throws Error unless 0 < logq0 < logQ.
EncapsulationKey generateEncapsulationKey(const Params &params, const SecretKey &sk, int logq0, SecureRandom &rng,
                                          ClientArithmetic &arith = gmpArithmetic());

/// Public-key encryption of m (mod 2^logq) as in HEAAN's encMsg: with
/// v ~ ZO(0.5) and e0, e1 ~ DG(sigma), (v*pk.ax + e0, v*pk.bx + e1 + P*m) mod qP,
/// then both divided by P with rounding. The ciphertext carries pk's KeySetId;
/// v, the errors and the unrounded products are wiped before release. Throws
/// Error on mismatched sizes.
Ciphertext encrypt(const Params &params, const PublicKey &pk, const BigPoly &m, int logp, int slots,
                   SecureRandom &rng, ClientArithmetic &arith = gmpArithmetic());

/// m = bx + ax * s mod q. Throws Error if the ciphertext carries a KeySetId
/// other than the secret key's ("ciphertext belongs to key set X, the secret
/// key to key set Y") or its ring dimension differs.
BigPoly decrypt(const SecretKey &sk, const Ciphertext &ct, ClientArithmetic &arith = gmpArithmetic());
/// The decryption's message for decode: bx + ax * s read centered, mod q or
/// mod a smaller power of two that holds every coefficient (the client
/// kernels' narrow decryption; KernelArithmetic::decrypt). Throws as decrypt.
BigPoly decryptMessage(const SecretKey &sk, const Ciphertext &ct, ClientArithmetic &arith = gmpArithmetic());

/// Throws Error unless `got` equals `expected`, saying "<gotWhat> belongs to
/// key set <got>, <expectedWhat> to key set <expected>" (the names say where
/// each came from, e.g. file names). An unknown (zero) id matches nothing.
void checkSameKeySet(const KeySetId &expected, const std::string &expectedWhat, const KeySetId &got,
                     const std::string &gotWhat);

} // namespace fhec::rt
