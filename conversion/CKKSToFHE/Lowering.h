// ckks-to-fhe's conversion patterns (CKKSToFHE.cpp runs them on one function
// at a time): a ciphertext becomes its (ax, bx) pair of BigInt polynomials
// (a 1:2 type conversion), a plaintext argument the polynomial arguments of
// its uses (1:0). The patterns of HE Mul, plaintext products, constants and
// the pointwise ops are in Arithmetic.cpp; those of key switching
// (rotations, encapsulation) and linear transforms in KeySwitching.cpp.
// Each builds its fhe ops with an FheBuilder over the function's
// LoweringState: the keys, and the CRT'd operands products share.
#pragma once

#include "dialect/CKKS/IR/CKKSDialect.h"
#include "dialect/FHE/IR/FHEDialect.h"

#include "fhec/runtime/Encoding.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <tuple>
#include <vector>

namespace fhec {

using CiphertextPair = std::pair<mlir::Value, mlir::Value>;  ///< (ax, bx)
/// A key-switching key's (ax, bx), one pair per digit (dnum).
using KeyParts = llvm::SmallVector<CiphertextPair>;

/// What the patterns share while lowering one function: its keys and
/// plaintext uses (arguments of the converted function, bound by its
/// signature's conversion) and the values several ops reuse.
struct LoweringState {
  ckks::ParamsAttr params;
  fhe::BasisAttr evkBasis;  ///< the key-switching keys' basis (null: none)
  KeyParts evk;
  llvm::DenseMap<uint64_t, KeyParts> rotationKeys;  ///< by Galois element
  /// Sparse-secret encapsulation keys by q0 (bits): the key to the ephemeral
  /// secret (one pair, in its own basis) and the parts of the key back.
  llvm::DenseMap<unsigned, std::pair<CiphertextPair, KeyParts>> encapsulationKeys;
  /// Plaintext arguments of the original function: their index, and the
  /// polynomial argument of each use (index, scale, modulus, negated), which
  /// the runtime encodes per call.
  llvm::DenseMap<mlir::Value, int> plainIndex;
  std::map<std::tuple<int, int, int, bool>, mlir::Value> plainUses;
  /// Hybrid key switching: the digits of a BigInt polynomial, CRT'd into the
  /// key basis (shared by the rotations of one ciphertext).
  llvm::DenseMap<mlir::Value, llvm::SmallVector<mlir::Value>> digitCache;
  /// CRT'd and NTT'd operands shared between products: (poly, basis, centered) -> RNS.
  llvm::DenseMap<std::tuple<mlir::Value, mlir::Attribute, unsigned>, mlir::Value> coeffCache, evalCache;
  /// Set when a pattern failed: the IR it built was rolled back, so the
  /// caches may name erased values and every later pattern declines.
  bool failed = false;
};

/// Builds the fhe dataflow of ckks ops at `b`'s insertion point.
class FheBuilder {
public:
  using Pair = CiphertextPair;

  FheBuilder(mlir::OpBuilder &b, LoweringState &state)
      : b(b), state(state), params(state.params), evkBasis(state.evkBasis) {}

  // Arithmetic.cpp: plaintexts, constants, the RNS round trip, HE Mul.
  /// The encoding of plaintext argument `pt` that one use reads.
  mlir::Value plainUse(mlir::Value pt, unsigned logScale, unsigned logq, bool negate);
  /// A ciphertext's polynomials brought from type `from` to `to`.
  Pair align(mlir::Location loc, Pair p, ckks::CiphertextType from, ckks::CiphertextType to);
  /// `values` encoded at scale 2^logScale mod 2^logq as a poly_constant; an
  /// error at `op` if they cannot be encoded. `narrow`: typed mod 2^w instead,
  /// w the whole words that hold its centered coefficients (w < logq), for a
  /// consumer that only CRTs it centered (the same residues from w/64 limbs
  /// instead of logq/64).
  mlir::FailureOr<mlir::Value> plaintext(mlir::Operation *op, const std::vector<rt::Complex> &values,
                                         unsigned logScale, unsigned logq, bool narrow = false);
  /// round(value * 2^logScale) as an integer attribute; an error at `op` if not finite or too large.
  mlir::FailureOr<mlir::IntegerAttr> scaled(mlir::Operation *op, double value, unsigned logScale);
  mlir::Value toCoeff(mlir::Location loc, mlir::Value poly, fhe::BasisAttr basis, bool centered = false);
  mlir::Value toEval(mlir::Location loc, mlir::Value poly, fhe::BasisAttr basis, bool centered = false);
  mlir::Value toPoly(mlir::Location loc, mlir::Value eval, unsigned logq);
  Pair mul(ckks::MulOp o, Pair x, Pair y);
  static unsigned magnitudeBits(mlir::Value constant);

  // KeySwitching.cpp.
  Pair rotate(mlir::Location loc, Pair x, unsigned logq, uint64_t g);
  /// Key switching of x with `key` after phi_g (g = 0: none); Fig. 2's region 2.
  Pair switchKey(mlir::Location loc, Pair x, unsigned logq, const KeyParts &key, uint64_t g);
  Pair encapsulate(mlir::Location loc, Pair x, unsigned logq);
  mlir::FailureOr<Pair> linearTransform(ckks::LinearTransformOp o, Pair x);
  /// The key basis's bits a double-hoisted `o` needs (hybrid key switching):
  /// hoistedLinearTransformBits with its diagonals' plaintextBitsBound.
  static unsigned hoistedLinearTransformBits(ckks::LinearTransformOp o, ckks::ParamsAttr params);

  mlir::OpBuilder &builder() { return b; }
  fhe::PolyType polyType(unsigned logq) { return fhe::PolyType::get(b.getContext(), params.getLogN(), logq); }

private:
  /// Key switching's products in the evaluation domain, before the shift:
  /// with the key's ax and bx halves, and phi_g(bx) (a BigInt polynomial; null when x.second is).
  struct KeySwitchProducts {
    mlir::Value ax, bx, bRot;
  };
  llvm::ArrayRef<mlir::Value> digits(mlir::Location loc, mlir::Value x);
  llvm::SmallVector<mlir::Value> evalDigits(mlir::Location loc, mlir::Value x, uint64_t g);
  KeySwitchProducts switchKeyProducts(mlir::Location loc, Pair x, unsigned logq, const KeyParts &key, uint64_t g,
                                      fhe::BasisAttr basis);
  Pair finishKeySwitch(mlir::Location loc, const KeySwitchProducts &p, unsigned logq);
  mlir::FailureOr<Pair> linearTransformHoisted(ckks::LinearTransformOp o, Pair x);
  fhe::RnsType rnsType(fhe::BasisAttr basis, fhe::Domain d) {
    return fhe::RnsType::get(b.getContext(), params.getLogN(), basis, d, fhe::Layout::prime_major);
  }
  /// Key switching decomposes the switched polynomial through its centered
  /// representatives, and rounds its final shift, unless the module asks for
  /// HEAAN's unsigned ones and floor.
  bool centeredKeySwitch() const { return !params.isHeaanKeySwitch(); }
  /// Hybrid key switching (dnum > 1).
  bool hybrid() const { return params.getDnum() > 1; }
  /// Region 2's basis at logq for a sum of `terms` key-switch products (dnum = 1).
  fhe::BasisAttr region2(unsigned logq, unsigned terms = 1);

  mlir::OpBuilder &b;
  LoweringState &state;
  // Shorthands for the state's fields (the helpers' bodies read them often).
  const ckks::ParamsAttr &params;
  const fhe::BasisAttr &evkBasis;
};

/// A pattern of one ckks op, over the function's LoweringState.
template <typename Op> struct CKKSPattern : mlir::OpConversionPattern<Op> {
  CKKSPattern(const mlir::TypeConverter &tc, mlir::MLIRContext *ctx, LoweringState &state)
      : mlir::OpConversionPattern<Op>(tc, ctx), state(state) {}
  using OneToNOpAdaptor = typename mlir::OpConversionPattern<Op>::OneToNOpAdaptor;

  mlir::LogicalResult matchAndRewrite(Op op, OneToNOpAdaptor adaptor,
                                      mlir::ConversionPatternRewriter &rewriter) const final {
    if (state.failed) return rewriter.notifyMatchFailure(op, "an earlier pattern failed");
    FheBuilder fb(rewriter, state);
    mlir::FailureOr<llvm::SmallVector<CiphertextPair>> results = lower(op, adaptor, fb);
    if (mlir::failed(results)) {
      state.failed = true;
      return mlir::failure();
    }
    llvm::SmallVector<llvm::SmallVector<mlir::Value>> values;
    for (auto [ax, bx] : *results) values.push_back({ax, bx});
    rewriter.replaceOpWithMultiple(op, std::move(values));
    return mlir::success();
  }
  /// The (ax, bx) of each result of `op`, or failure after an error at it.
  virtual mlir::FailureOr<llvm::SmallVector<CiphertextPair>> lower(Op op, OneToNOpAdaptor adaptor,
                                                                    FheBuilder &fb) const = 0;

  LoweringState &state;
};

/// A ciphertext operand's converted (ax, bx).
inline CiphertextPair pairOf(mlir::ValueRange converted) {
  assert(converted.size() == 2 && "a ciphertext converts to (ax, bx)");
  return {converted[0], converted[1]};
}

void populateArithmeticPatterns(const mlir::TypeConverter &tc, mlir::RewritePatternSet &patterns,
                                LoweringState &state);
void populateKeySwitchingPatterns(const mlir::TypeConverter &tc, mlir::RewritePatternSet &patterns,
                                  LoweringState &state);

} // namespace fhec
