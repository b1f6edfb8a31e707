// Sizes of the RNS bases of HE Mul (docs/design.md): the product P of a basis must
// exceed 2 * max|X| for a centered reconstruction, and the iCRT estimate of the
// multiple of P needs |X| < P / 8. We ask for |X| < P / 16 (decryption's
// windows, of a few primes each, for |X| < P / 4: see below).
#pragma once

#include <algorithm>

namespace fhec {

/// Bits of P for a negacyclic product of operands below 2^logA and 2^logB:
/// |X| < N * 2^(logA + logB) <= P / 16.
inline unsigned productBasisBits(unsigned logN, unsigned logA, unsigned logB) { return logN + logA + logB + 4; }

/// Region 1 of HE Mul: products of (sums of) two ciphertext polynomials
/// mod q, operands below 2q = 2^(logq + 1).
inline unsigned region1Bits(unsigned logN, unsigned logq) { return productBasisBits(logN, logq + 1, logq + 1); }

/// A sum of `terms` such products, accumulated before one iCRT
/// (ckks.linear_transform's inner sums): |X| < terms * N * 2^(logA + logB).
inline unsigned accumulatedProductBits(unsigned logN, unsigned logA, unsigned logB, unsigned terms) {
  unsigned extra = 0;
  while ((1u << extra) < terms) ++extra;
  return productBasisBits(logN, logA, logB) + extra;
}

/// Region 2 of HE Mul: axax (mod q) times the evaluation key (mod Q^2); a
/// sum of `terms` such products (ckks.linear_transform's giant steps) before
/// one iCRT.
inline unsigned region2Bits(unsigned logN, unsigned logq, unsigned logQ, unsigned terms = 1) {
  return accumulatedProductBits(logN, logq, 2 * logQ, terms);
}

/// Hybrid key switching (dnum > 1): the sum over dnum digits (|d_j| <=
/// 2^(logP - 1)) of their products with the key parts (mod PQ, below
/// 2^logKey), for each of `switches` key switches summed (linear
/// transforms' giant steps), accumulated before one iCRT: the same basis at
/// every level.
inline unsigned hybridKeySwitchBits(unsigned logN, unsigned logP, unsigned logKey, unsigned dnum,
                                    unsigned switches = 1) {
  return accumulatedProductBits(logN, logP, logKey, dnum * switches);
}

/// A double-hoisted linear transform (hybrid key switching): its `terms`
/// plaintext products (below 2^plainBits) with the baby rotations' key-switch
/// products before the division by P (dnum digits) plus P x (one term more),
/// and the giant rotations' key-switch products, all summed before one iCRT
/// (the last within a doubling of the first).
inline unsigned hoistedLinearTransformBits(unsigned logN, unsigned logP, unsigned logKey, unsigned dnum,
                                           unsigned plainBits, unsigned terms) {
  unsigned switched = hybridKeySwitchBits(logN, logP, logKey, dnum + 1) - 4;
  return accumulatedProductBits(logN, switched, plainBits, 2 * terms);
}

/// The bits of a plaintext encoded at scale 2^logScale from values of modulus
/// at most 2^logMax: rt::encode's coefficients are rounded real and
/// imaginary parts of the inverse special FFT (an average of the values
/// times roots of unity), so |m| <= 2^(logScale + logMax) + 1/2; one bit for
/// the rounding, one for the sign (magnitudeBits' count).
inline unsigned plaintextBitsBound(unsigned logScale, int logMax) {
  return unsigned(std::max<int>(1, int(logScale) + std::max(logMax, 0) + 2));
}

// The client kernels (codegen/ClientKernels.h), for a secret of any Hamming
// weight h <= N (|s|_1 <= N) but in decryption, and small errors below 2^29:
/// Encryption, on the halves of pk = pk_hi P + pk_lo (below Q and P <= Q):
/// v pk_hi and v pk_lo + e, v ternary: |X| < N Q + 2^29.
inline unsigned clientEncryptBits(unsigned logN, unsigned logQ) { return productBasisBits(logN, 1, logQ); }
/// A key's a s, a below PQ = 2^logKey: |X| < N PQ.
inline unsigned clientKeyBits(unsigned logN, unsigned logKey) { return productBasisBits(logN, 0, logKey); }
/// Decryption's ax s for one bit-window A of ax, below 2^bits, and a secret
/// of Hamming weight at most 2^logH: |X| < 2^logH 2^bits <= P / 4. (A
/// window's basis has few primes: the iCRT's estimate of k errs by less than
/// 2m (m + 3) 2^-53 (Icrt.cpp), far below the 1/4 this margin leaves.)
inline unsigned clientDecryptWindowBits(unsigned logH, unsigned bits) { return logH + bits + 2; }

} // namespace fhec
