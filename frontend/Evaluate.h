// Interpreters of a ckks function, the two oracles of `fhec run`: the GMP
// reference on ciphertexts (bit-exact target of every backend) and the
// plaintext computation on complex vectors (what decryption should approximate).
#pragma once

#include "dialect/CKKS/IR/CKKSDialect.h"
#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Keys.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <map>
#include <vector>

namespace fhec {

/// The keys a reference evaluation may need.
struct EvaluationKeys {
  const rt::EvalKey *evk = nullptr;
  const std::map<uint64_t, rt::RotationKey> *rotationKeys = nullptr;  ///< by Galois element
  const std::map<int, rt::EncapsulationKey> *encapsulationKeys = nullptr;  ///< by q0 (bits)
  /// Every key of `k`.
  static EvaluationKeys of(const rt::KeySet &k) { return {&k.evk, &k.rotationKeys, &k.encapsulationKeys}; }
};

/// Runs `f` op by op with the GMP reference (runtime/Reference.h): `inputs`
/// for its ciphertext arguments, `plaintexts` (values, padded with zeros to
/// the slots) for its !ckks.pt arguments, in order. Fails with a diagnostic
/// on a missing key or a wrong number of inputs.
mlir::FailureOr<std::vector<rt::Ciphertext>> evaluateReference(mlir::func::FuncOp f, const rt::Params &params,
                                                               const EvaluationKeys &keys,
                                                               const std::vector<rt::Ciphertext> &inputs,
                                                               const std::vector<std::vector<rt::Complex>> &plaintexts = {});

/// The Galois elements of the rotation keys `f` needs (rotations, conjugation).
std::vector<uint64_t> galoisElements(mlir::func::FuncOp f);
/// The q0 (bits) of the encapsulation keys `f` needs (bootstrapping with a dense secret).
std::vector<int> encapsulationModuli(mlir::func::FuncOp f);

/// Runs `f` on the messages: slot-wise complex arithmetic (plaintext
/// arguments as for evaluateReference).
mlir::FailureOr<std::vector<std::vector<rt::Complex>>>
evaluatePlain(mlir::func::FuncOp f, const std::vector<std::vector<rt::Complex>> &inputs,
              const std::vector<std::vector<rt::Complex>> &plaintexts = {});

} // namespace fhec
