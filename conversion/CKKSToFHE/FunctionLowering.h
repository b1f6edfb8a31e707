// ckks-to-fhe's lowering of one function body (CKKSToFHE.cpp builds the new
// signature and runs it): a ciphertext becomes its (ax, bx) pair of BigInt
// polynomials; HE Mul, plaintext products and constants are lowered in
// FunctionLowering.cpp, key switching (relinearization's region 2,
// rotations, encapsulation) and linear transforms in KeySwitching.cpp.
#pragma once

#include "dialect/CKKS/IR/CKKSDialect.h"
#include "dialect/FHE/IR/FHEDialect.h"

#include "fhec/runtime/Encoding.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <tuple>
#include <vector>

namespace fhec {

using CiphertextPair = std::pair<mlir::Value, mlir::Value>;  ///< (ax, bx)
/// A key-switching key's (ax, bx), one pair per digit (dnum).
using KeyParts = llvm::SmallVector<CiphertextPair>;

/// Lowers the body of one function; one method per ckks op.
class FunctionLowering {
public:
  using Pair = CiphertextPair;

  FunctionLowering(mlir::OpBuilder &b, ckks::ParamsAttr params, fhe::BasisAttr evkBasis, KeyParts evk,
                   llvm::DenseMap<uint64_t, KeyParts> rotationKeys)
      : b(b), params(params), evkBasis(evkBasis), evk(evk), rotationKeys(std::move(rotationKeys)) {}

  llvm::DenseMap<mlir::Value, Pair> map;
  /// Sparse-secret encapsulation keys by q0 (bits): the key to the ephemeral
  /// secret (one pair, in its own basis) and the parts of the key back.
  llvm::DenseMap<unsigned, std::pair<Pair, KeyParts>> encapsulationKeys;
  /// Plaintext arguments: their index, and the polynomial argument of each
  /// use (index, scale, modulus, negated), which the runtime encodes per call.
  llvm::DenseMap<mlir::Value, int> plainIndex;
  std::map<std::tuple<int, int, int, bool>, mlir::Value> plainUses;

  /// Lowers `op` into the builder's block, its results into `map`; an op
  /// ckks-to-fhe does not support, or a constant it cannot encode, is an
  /// error at the op.
  mlir::LogicalResult lower(mlir::Operation *op);

private:
  // FunctionLowering.cpp: pointwise ops, plaintexts, HE Mul.
  mlir::Value plainUse(mlir::Value pt, unsigned logScale, unsigned logq, bool negate);
  template <typename PolyOp, typename CkksOp> mlir::LogicalResult binary(CkksOp o);
  Pair align(mlir::Location loc, Pair p, ckks::CiphertextType from, ckks::CiphertextType to);
  mlir::FailureOr<mlir::Value> plaintext(mlir::Operation *op, const std::vector<rt::Complex> &values,
                                         unsigned logScale, unsigned logq);
  mlir::FailureOr<mlir::IntegerAttr> scaled(mlir::Operation *op, double value, unsigned logScale);
  mlir::Value toCoeff(mlir::Location loc, mlir::Value poly, fhe::BasisAttr basis, bool centered = false);
  mlir::Value toEval(mlir::Location loc, mlir::Value poly, fhe::BasisAttr basis, bool centered = false);
  mlir::Value toPoly(mlir::Location loc, mlir::Value eval, unsigned logq);
  mlir::LogicalResult lowerMul(ckks::MulOp o);
  static unsigned magnitudeBits(mlir::Value constant);

  // KeySwitching.cpp.
  llvm::ArrayRef<mlir::Value> digits(mlir::Location loc, mlir::Value x);
  mlir::Value hybridKeySwitch(mlir::Location loc, llvm::ArrayRef<mlir::Value> d, const KeyParts &key, bool bxHalf,
                              unsigned logq);
  llvm::SmallVector<mlir::Value> evalDigits(mlir::Location loc, mlir::Value x, uint64_t g);
  mlir::Value keySwitch(mlir::Location loc, mlir::Value a, mlir::Value key, unsigned logq);
  void lowerAutomorphism(mlir::Operation *o, mlir::Value r, uint64_t g);
  Pair rotate(mlir::Location loc, Pair x, unsigned logq, uint64_t g);
  Pair switchKey(mlir::Location loc, Pair x, unsigned logq, const KeyParts &key, uint64_t g);
  Pair encapsulate(mlir::Location loc, Pair x, unsigned logq);
  mlir::LogicalResult lowerLinearTransform(ckks::LinearTransformOp o);

  fhe::PolyType polyType(unsigned logq) { return fhe::PolyType::get(b.getContext(), params.getLogN(), logq); }
  fhe::RnsType rnsType(fhe::BasisAttr basis, fhe::Domain d) {
    return fhe::RnsType::get(b.getContext(), params.getLogN(), basis, d, fhe::Layout::prime_major);
  }
  /// Key switching decomposes the switched polynomial through its centered
  /// representatives, and rounds its final shift, unless the module asks for
  /// HEAAN's unsigned ones and floor.
  bool centeredKeySwitch() const { return !params.isHeaanKeySwitch(); }
  /// Hybrid key switching (dnum > 1).
  bool hybrid() const { return params.getDnum() > 1; }
  fhe::BasisAttr region2(unsigned logq);

  mlir::OpBuilder &b;
  ckks::ParamsAttr params;
  fhe::BasisAttr evkBasis;
  KeyParts evk;
  llvm::DenseMap<uint64_t, KeyParts> rotationKeys;  // by Galois element
  // Hybrid key switching: the digits of a BigInt polynomial, CRT'd into the
  // key basis (shared by the rotations of one ciphertext).
  llvm::DenseMap<mlir::Value, llvm::SmallVector<mlir::Value>> digitCache;
  // CRT'd and NTT'd operands shared between products: (BigInt value, basis) -> RNS.
  llvm::DenseMap<std::tuple<mlir::Value, mlir::Attribute, unsigned>, mlir::Value> coeffCache,
      evalCache;  // (poly, basis, centered)
};

} // namespace fhec
