// The ckks dialect: scheme-level CKKS ciphertexts and operations.
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "fhec/runtime/Params.h"

#include <complex>
#include <string>
#include <optional>
#include <vector>

#include "dialect/CKKS/IR/CKKSDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/CKKS/IR/CKKSAttributes.h.inc"
#define GET_TYPEDEF_CLASSES
#include "dialect/CKKS/IR/CKKSTypes.h.inc"
namespace fhec::ckks {
/// The baby-step giant-step schedule of a linear transform (ckks.linear_transform;
/// Halevi–Shoup diagonals, BSGS as in Han–Ki 2020 / Bossuat et al. 2021): each
/// diagonal offset d = giant + baby, giant a multiple of babyStep, 0 <= baby < babyStep.
struct BsgsPlan {
  int64_t babyStep = 1;
  /// The distinct babies used, ascending (0 when some diagonal has baby 0).
  std::vector<int64_t> babies;
  /// Per distinct giant, ascending: its (baby, diagonal index) pairs.
  std::vector<std::pair<int64_t, std::vector<std::pair<int64_t, size_t>>>> groups;

  /// The plan of `offsets` (distinct, in [0, slots)); babyStep 0 picks the
  /// power of two with the cheapest rotations (babies + giantWeight x giants,
  /// ties to fewer giants).
  static BsgsPlan make(llvm::ArrayRef<int64_t> offsets, int64_t slots, int64_t babyStep = 0,
                       int64_t giantWeight = 1);
  /// A giant rotation's cost in baby rotations under double hoisting (dnum >
  /// 1): a baby costs its key products, a giant a ModDown and its own key
  /// switch (about 20 and 290 us at the top of the full-slot bootstrap on an
  /// H200, bench/gpu/model.py). The weight is below that ratio for memory: 4
  /// takes the bootstrap's 63-diagonal bands to n1 = 16 (15 babies, 3 giants;
  /// with 1, 7 and 7) and not to 32, where each further baby is one more
  /// rotation key (79 MB at N = 2^16, dnum 2).
  static constexpr int64_t kDoubleHoistedGiantWeight = 4;
  /// Rotations of a ciphertext: nonzero babies (hoisted) plus nonzero giants.
  size_t rotations() const;
  /// The nonzero giants, whose key switches are summed before one shift.
  size_t giantRotations() const;
};

/// rot_-giant of a diagonal: out[j] = diag[(j - giant) mod slots], the
/// plaintext a giant step's inner sum multiplies.
std::vector<std::complex<double>> rotatedDiagonal(const std::vector<std::complex<double>> &diag, int64_t giant);
} // namespace fhec::ckks

#define GET_OP_CLASSES
#include "dialect/CKKS/IR/CKKSOps.h.inc"

namespace fhec::ckks {
/// The `ckks.params` attribute of the module enclosing `op`, or null.
ParamsAttr getModuleParams(mlir::Operation *op);

/// The attribute of runtime parameters `p` (their ring, moduli, dnum and
/// secret) with the given security level and key-switching form (null:
/// absent). With `emitError`, verified: null after a diagnostic if invalid.
ParamsAttr paramsAttrOf(mlir::MLIRContext *ctx, const rt::Params &p, mlir::StringAttr security,
                        mlir::StringAttr keyswitch,
                        llvm::function_ref<mlir::InFlightDiagnostic()> emitError = nullptr);

/// The Galois elements whose rotation keys `op` key-switches with
/// (ckks.rotate, ckks.conjugate, ckks.linear_transform), or none.
std::vector<uint64_t> keySwitchGaloisElements(mlir::Operation *op);
/// The q0 (bits) of the encapsulation keys `op` key-switches with
/// (ckks.encapsulate at its input's logq, ckks.decapsulate's mod_logq), or none.
std::optional<unsigned> encapsulationModulus(mlir::Operation *op);

/// `v` as a short decimal ("0.5", "-4", "1e-12") for messages.
std::string formatNumber(double v);

/// What is wrong with a polynomial to evaluate (ckks.poly_eval, fhec.polyval),
/// or an empty string: basis "power" or "chebyshev", finite coefficients
/// (lowest degree first) of degree >= 1, a finite domain [a, b] with a < b.
std::string checkPolynomial(llvm::StringRef basis, llvm::ArrayRef<double> coefficients, double a, double b);

/// Slot values as the attribute mul_plain, add_plain and linear_transform
/// carry: tensor<shape x f64> when every value is real, else complex<f64>
/// (shape defaults to {values.size()}; its product must equal the size).
mlir::DenseElementsAttr slotValuesAttr(mlir::MLIRContext *ctx, llvm::ArrayRef<std::complex<double>> values,
                                       llvm::ArrayRef<int64_t> shape = {});
} // namespace fhec::ckks
