// Interpreters of a ckks function, the two oracles of `fhec run`: the GMP
// reference on ciphertexts (bit-exact target of every backend) and the
// plaintext computation on complex vectors (what decryption should approximate).
#pragma once

#include "dialect/CKKS/CKKSDialect.h"
#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Keys.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <vector>

namespace fhec {

/// Runs `f` op by op with the GMP reference (runtime/Reference.h).
mlir::FailureOr<std::vector<rt::Ciphertext>> evaluateReference(mlir::func::FuncOp f, const rt::Params &params,
                                                               const rt::EvalKey &evk,
                                                               const std::vector<rt::Ciphertext> &inputs);

/// Runs `f` on the messages: slot-wise complex arithmetic.
mlir::FailureOr<std::vector<std::vector<rt::Complex>>>
evaluatePlain(mlir::func::FuncOp f, const std::vector<std::vector<rt::Complex>> &inputs);

} // namespace fhec
