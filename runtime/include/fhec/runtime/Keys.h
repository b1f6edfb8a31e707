// Key generation, encryption and decryption (HEAAN 2.1 / CKKS).
#pragma once
#include "fhec/runtime/Ciphertext.h"
#include "fhec/runtime/Params.h"
#include "fhec/runtime/Random.h"

#include <vector>

namespace fhec::rt {

struct SecretKey {
  int logN = 0;
  std::vector<int8_t> s;  ///< ternary coefficients, Hamming weight h
};

/// Encryption key (ax, bx = -ax*s + e) mod Q^2 (HEAAN 2.1: encryption works
/// mod q*Q and divides by Q, so the fresh noise shrinks to rounding noise).
struct PublicKey {
  BigPoly ax, bx;
};

/// Evaluation (relinearization) key (ax, bx = -ax*s + e + Q*s^2) mod Q^2, in
/// coefficient form; each target derives its RNS/NTT form when loading it.
struct EvalKey {
  BigPoly ax, bx;
};

struct KeySet {
  Params params;
  SecretKey sk;
  PublicKey pk;
  EvalKey evk;
};

/// Generates sk ~ HWT(h), pk and evk with a discrete Gaussian error of width sigma.
KeySet generateKeys(const Params &params, SecureRandom &rng);

/// Public-key encryption of m (mod 2^logq) as in HEAAN's encMsg: with
/// v ~ ZO(0.5) and e0, e1 ~ DG(sigma), (v*pk.ax + e0, v*pk.bx + e1 + Q*m) mod qQ,
/// then both divided by Q with rounding. Throws Error on mismatched sizes.
Ciphertext encrypt(const Params &params, const PublicKey &pk, const BigPoly &m, int logp, int slots,
                   SecureRandom &rng);

/// m = bx + ax * s mod q.
BigPoly decrypt(const SecretKey &sk, const Ciphertext &ct);

} // namespace fhec::rt
