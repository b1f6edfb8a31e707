// The GMP reference: HE Mul / Add / Rescale computed with exact BigInt
// arithmetic and negacyclic products by Kronecker substitution (mpn_mul),
// sharing no code with the NTT kernels. Every compiled target must match it
// bit for bit (docs/design.md, "The computation we compile").
#pragma once
#include "fhec/runtime/Ciphertext.h"
#include "fhec/runtime/Keys.h"

#include <utility>
#include <vector>

namespace fhec::rt {

/// (a * b mod X^N + 1) mod 2^logqOut, reading the coefficients of a and b as
/// integers in [0, 2^logq). Kronecker substitution: one mpn_mul of N-slot integers.
BigPoly negacyclicProduct(const BigPoly &a, const BigPoly &b, int logqOut);

/// (a * v mod X^N + 1) mod 2^logqOut for a small signed polynomial v.
BigPoly negacyclicProductSmall(const BigPoly &a, const std::vector<int8_t> &v, int logqOut);

/// a * s mod 2^a.logq for a sparse ternary s, in O(h N) limb additions.
BigPoly mulSparseTernary(const BigPoly &a, const std::vector<int8_t> &s);

/// a * s mod 2^a.logq for a ternary s of any weight: mulSparseTernary for a
/// sparse s (at most 256 nonzero coefficients), else one Kronecker product
/// (negacyclicProductSmall). The choice reads only the weight.
BigPoly mulTernary(const BigPoly &a, const std::vector<int8_t> &s);

/// The form of key switching (docs/design.md, "Key switching"): the switched
/// polynomial a mod q enters the product with the key as its centered
/// representative in [-q/2, q/2) (Centered, fhec's default: the key's error
/// e is multiplied by a polynomial of mean zero), or as the unsigned one in
/// [0, q) as HEAAN 2.1 does (Heaan: bit-compatible with HEAAN, but a e / Q
/// then has a large mean that lands in the low-frequency slots).
enum class KeySwitchForm { Centered, Heaan };

/// HE Mul of HEAAN's Scheme::mult (Fig. 2): tensor product in Karatsuba form
/// mod q, then relinearization ((axax' * evk) mod qQ) >> logQ, axax' the
/// representative of axax mod q that `form` picks. The result has logq
/// unchanged and logp = logp1 + logp2. Throws Error on mismatched operands.
Ciphertext referenceMul(const Params &params, const Ciphertext &c1, const Ciphertext &c2, const EvalKey &evk,
                        KeySwitchForm form = KeySwitchForm::Centered);
Ciphertext referenceAdd(const Ciphertext &c1, const Ciphertext &c2);
Ciphertext referenceSub(const Ciphertext &c1, const Ciphertext &c2);
Ciphertext referenceNegate(const Ciphertext &c);
/// Both polynomials times X^k, 0 <= k < 2N (mulMonomial; logq, logp kept).
Ciphertext referenceMulMonomial(const Ciphertext &c, int64_t k);
/// Right shift of both polynomials by `bits` (q <- q / 2^bits, logp -= bits),
/// truncating or, with `round`, to the nearest (shiftRight).
Ciphertext referenceRescale(const Ciphertext &c, int bits, bool round = false);
/// Reduction mod 2^newLogq (logp kept).
Ciphertext referenceModDown(const Ciphertext &c, int newLogq);
/// The centred lift of both polynomials to mod 2^newLogq, newLogq > logq
/// (bootstrapping's modulus raise; signExtend; logp kept). Throws Error otherwise.
Ciphertext referenceModRaise(const Ciphertext &c, int newLogq);
/// Right shift of both polynomials by `bits` keeping logp (HEAAN divByPo2:
/// the slot values divided by 2^bits). Throws Error unless logp < logq - bits.
Ciphertext referenceDivByPo2(const Ciphertext &c, int bits);
/// The same polynomials labelled with scale 2^logp and `slots` slots
/// (ckks.relabel). Throws Error for a scale that does not fit logq or slots
/// that are not a power of two <= N/2.
Ciphertext referenceRelabel(const Ciphertext &c, int logp, int slots);
/// Multiplication by the integer constant k (k = round(c * 2^logScale); logp += logScale).
Ciphertext referenceMulConst(const Ciphertext &c, const mpz_t k, int logScale);
/// Adds the integer constant k (= round(c * 2^logp)) to every slot.
Ciphertext referenceAddConst(const Ciphertext &c, const mpz_t k);
/// Multiplication by an encoded plaintext m (HEAAN multByPoly): both
/// polynomials times m mod q; logp += logScale, the scale m was encoded at.
Ciphertext referenceMulPlain(const Ciphertext &c, const BigPoly &m, int logScale);
/// Addition of an encoded plaintext m (at the ciphertext's scale) to bx.
Ciphertext referenceAddPlain(const Ciphertext &c, const BigPoly &m);
/// Slot rotation or conjugation by the automorphism of rk.galois with key
/// switching (HEAAN leftRotateFast / conjugate): a' = phi_g(a) as an integer
/// polynomial (a negated coefficient is -x, not q - x) of a = ax's
/// representative that `form` picks (Heaan: [0, q), so a' in (-q, q);
/// Centered: [-q/2, q/2)), ax = floor((a' rk.ax mod qQ) / Q),
/// bx = floor((a' rk.bx mod qQ) / Q) + phi_g(bx) mod q (docs/design.md).
/// Throws Error on a key for other parameters.
Ciphertext referenceRotate(const Params &params, const Ciphertext &c, const RotationKey &rk,
                           KeySwitchForm form = KeySwitchForm::Centered);
/// sum_i referenceRotate(c_i, rk_i) with key switching's products summed mod
/// qQ (mod qP, dnum > 1) before one shift: ax = round((sum_i a'_i rk_i.ax mod
/// qQ) / Q), bx likewise plus sum_i phi_g_i(bx_i) mod q (floor in the Heaan
/// form). ckks.linear_transform's giant steps (docs/design.md, "Linear
/// transforms"): one iNTT, iCRT and shift per polynomial for all of them, and
/// one rounding error instead of one per rotation. The c_i share logq and
/// logp. Throws Error on no terms, a key for other parameters or mismatched
/// ciphertexts.
Ciphertext referenceRotateSum(const Params &params,
                              const std::vector<std::pair<Ciphertext, const RotationKey *>> &terms,
                              KeySwitchForm form = KeySwitchForm::Centered);
/// One giant step of a linear transform: its rotation key (null for giant
/// step 0) and its products, each a baby step's rotation key (null for baby
/// step 0) and the plaintext (the diagonal rotated by the giant step, encoded
/// mod q, small signed coefficients).
struct HoistedGiantStep {
  const RotationKey *giant = nullptr;
  std::vector<std::pair<const RotationKey *, BigPoly>> members;
};
/// ckks.linear_transform with hybrid key switching (dnum > 1), double
/// hoisting (Bossuat, Mouchet, Troncoso-Pastoriza, Hubaux, Eurocrypt 2021,
/// Sec. 4): baby step b's rotation is kept before its division by P, as
/// (k_ax, k_bx + P phi_b(bx)) mod qP (baby 0: P x), k the key switch's
/// products; a giant step's sum of plaintext products is taken mod qP; its ax
/// sum divided by P (floor, rounded in the centered form) is the giant
/// rotation's input, whose key-switch products join the sums with phi_g of
/// the giant step's bx sum; the transform ends in one division by P per
/// polynomial. logp += logScale. Throws Error for dnum = 1, no steps, keys for
/// other parameters or plaintexts mod another q.
Ciphertext referenceLinearTransformHoisted(const Params &params, const Ciphertext &x,
                                           const std::vector<HoistedGiantStep> &steps, int logScale,
                                           KeySwitchForm form = KeySwitchForm::Centered);
/// Sparse-secret encapsulation (Bossuat, Troncoso-Pastoriza, Hubaux 2022):
/// a ciphertext at q0 = 2^ek.logq0 under s switched to the ephemeral sparse
/// s' with the small key, round or floor((a' k mod q0 P') / P') as a
/// rotation's key switch (a' = ax read as `form` says; P' =
/// 2^encapsulationLogP(q0)); and a ciphertext under s' at any level switched
/// back to s with the key mod PQ (referenceRotate's form without the
/// automorphism). Throw Error on a key for another q0 or other parameters.
Ciphertext referenceEncapsulate(const Params &params, const Ciphertext &c, const EncapsulationKey &ek,
                                KeySwitchForm form = KeySwitchForm::Centered);
Ciphertext referenceDecapsulate(const Params &params, const Ciphertext &c, const EncapsulationKey &ek,
                                KeySwitchForm form = KeySwitchForm::Centered);

/// round(value * 2^logScale) as a sign and magnitude (little-endian 64-bit
/// limbs): the integer form of a real constant used by mul_const/add_const,
/// shared by the compiler and the reference so both see the same integer.
/// Throws Error for a non-finite value.
void scaleConstant(double value, int logScale, bool &negative, std::vector<uint64_t> &magnitude);
void scaleConstant(double value, int logScale, mpz_t out);

} // namespace fhec::rt
