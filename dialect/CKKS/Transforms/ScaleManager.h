// Scale and level management of ckks programs, shared by the pass
// `ckks-manage-scale` and the Python tracer's IR builder.
//
// Policy (HEAAN's usage, Cheon et al. 2017 Section 3): every product (mul,
// mul_const, mul_plain) whose scale exceeds the working scale 2^logp (the
// module's unless set) is rescaled back to it right away, dividing q by the
// excess with rounding (HEAAN truncates); before a binary op the
// operands are brought to one level (the higher one reduced by mod_down), and
// for add/sub to one scale (the larger one rescaled down to the smaller).
// Running out of modulus is a diagnostic at the op that needs it ("too little
// depth left"), never an invalid type.
#pragma once

#include "dialect/CKKS/IR/CKKSDialect.h"
#include "dialect/CKKS/Transforms/BootstrapConfig.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace fhec {

class ScaleManager {
public:
  /// Ops are created at `b`'s insertion point.
  ScaleManager(mlir::OpBuilder &b, ckks::ParamsAttr params) : b(b), params(params), logp(params.getLogp()) {}

  // Each builds one scheme operation on managed operands (any level or
  // scale) and returns its managed result, or fails after a diagnostic at loc.
  mlir::FailureOr<mlir::Value> add(mlir::Location loc, mlir::Value x, mlir::Value y);
  mlir::FailureOr<mlir::Value> sub(mlir::Location loc, mlir::Value x, mlir::Value y);
  mlir::FailureOr<mlir::Value> mul(mlir::Location loc, mlir::Value x, mlir::Value y);
  mlir::FailureOr<mlir::Value> negate(mlir::Location loc, mlir::Value x);
  mlir::FailureOr<mlir::Value> mulConst(mlir::Location loc, mlir::Value x, double c);
  mlir::FailureOr<mlir::Value> addConst(mlir::Location loc, mlir::Value x, double c);
  /// `values`: one f64 or complex<f64> per slot (ckks.mul_plain / add_plain).
  mlir::FailureOr<mlir::Value> mulPlain(mlir::Location loc, mlir::Value x, mlir::ElementsAttr values);
  mlir::FailureOr<mlir::Value> addPlain(mlir::Location loc, mlir::Value x, mlir::ElementsAttr values);
  /// The same with a !ckks.pt argument, given when the function is called
  /// (`negate`: x minus it).
  mlir::FailureOr<mlir::Value> mulPlain(mlir::Location loc, mlir::Value x, mlir::Value plain);
  mlir::FailureOr<mlir::Value> addPlain(mlir::Location loc, mlir::Value x, mlir::Value plain, bool negate);
  /// ckks.linear_transform of x by `diagonals` (tensor<k x slots>) at `offsets`,
  /// rescaled after like mul_plain; `babyStep` null: the plan's choice.
  mlir::FailureOr<mlir::Value> linearTransform(mlir::Location loc, mlir::Value x, mlir::DenseI64ArrayAttr offsets,
                                               mlir::ElementsAttr diagonals, mlir::IntegerAttr babyStep,
                                               bool rescaleAfter = true);
  /// Left rotations of x by each of `offsets` slots (negative: right), taken
  /// mod N/2, from one ckks.rotate (so that they share x's decomposition);
  /// one value per offset, x itself for an offset 0.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> rotate(mlir::Location loc, mlir::Value x,
                                                          llvm::ArrayRef<int64_t> offsets);
  mlir::FailureOr<mlir::Value> conjugate(mlir::Location loc, mlir::Value x);
  /// x times X^k (ckks.mul_monomial): same scale and level.
  mlir::FailureOr<mlir::Value> mulMonomial(mlir::Location loc, mlir::Value x, int64_t k);
  /// A rescale by `bits`, rounding (`round`, what every managed rescale
  /// does) or truncating (a program's own `ckks.rescale` without `round`).
  mlir::FailureOr<mlir::Value> rescale(mlir::Location loc, mlir::Value x, unsigned bits, bool round = true);
  /// An explicit mod_down: to `logq`, or nothing when x is already at or below it.
  mlir::Value modDown(mlir::Location loc, mlir::Value x, unsigned logq);
  /// ckks.mod_raise of x to `logq`, which must exceed x's.
  mlir::FailureOr<mlir::Value> modRaise(mlir::Location loc, mlir::Value x, unsigned logq);
  /// Sparse-secret encapsulation's key switches (ckks.encapsulate at x's
  /// level, ckks.decapsulate of the encapsulation at q0 = 2^modLogq).
  mlir::Value encapsulate(mlir::Location loc, mlir::Value x);
  mlir::Value decapsulate(mlir::Location loc, mlir::Value x, unsigned modLogq);
  /// ckks.div_by_po2: x / 2^bits at x's scale, `bits` of modulus consumed.
  mlir::FailureOr<mlir::Value> divByPo2(mlir::Location loc, mlir::Value x, unsigned bits);
  /// x * 2^bits, exact (ckks.mul_const of 1.0 with a constant scale of 2^bits):
  /// the same values at a scale 2^bits larger, no modulus consumed.
  mlir::FailureOr<mlir::Value> mulByPo2(mlir::Location loc, mlir::Value x, unsigned bits);
  /// A ckks.bootstrap of x with configuration `c`, of the type its expansion
  /// (dialect/CKKS/Transforms/Bootstrap.h) gives: that expansion is built once to learn it.
  mlir::FailureOr<mlir::Value> bootstrap(mlir::Location loc, mlir::Value x, const BootstrapConfig &c);
  /// ckks.relabel of x to scale 2^logp and `slots` slots (same level).
  mlir::FailureOr<mlir::Value> relabel(mlir::Location loc, mlir::Value x, int64_t logp, unsigned slots);

  ckks::ParamsAttr getParams() const { return params; }
  /// The working scale in bits: products are rescaled back to it and
  /// constants encoded at it. The module's logp unless set (bootstrapping
  /// computes at a larger one for precision).
  unsigned getLogp() const { return logp; }
  void setLogp(unsigned bits) { logp = bits; }

  /// Set when a failure was a lack of modulus ("too little depth left"), so
  /// that a frontend can report it as such.
  bool outOfDepth = false;

  /// Automatic bootstrapping (fhec.compile(..., bootstrap="auto")): a
  /// product (mul, mul_const, mul_plain, linear_transform) whose rescaled
  /// result would fall below q0 = 2^c.modLogq, where it could no longer be
  /// bootstrapped, bootstraps its low operands with `c` first. The
  /// ckks.bootstrap ops stay in the IR.
  void setAutoBootstrap(std::optional<BootstrapConfig> c) { autoBootstrap = std::move(c); }

  /// Builds the managed form of the ckks op `op` on `operands` (its operands,
  /// already managed). A product with a ckks.rescale among its users is left
  /// unrescaled: the program manages that one itself.
  /// One value per result of `op`.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> rebuild(mlir::Operation *op, mlir::ValueRange operands);

private:
  mlir::FailureOr<mlir::Value> rebuildSingle(mlir::Operation *op, mlir::ValueRange operands);
  /// ckks.bootstrap and ckks.poly_eval (ScaleManagerComposites.cpp).
  mlir::FailureOr<mlir::Value> rebuildComposite(mlir::Operation *op, mlir::ValueRange operands);
  mlir::OpBuilder &b;
  ckks::ParamsAttr params;
  unsigned logp;
  std::optional<BootstrapConfig> autoBootstrap;

  /// x, or x bootstrapped (autoBootstrap) when a product that rescales by
  /// `bits` would leave it below q0.
  mlir::FailureOr<mlir::Value> refreshFor(mlir::Location loc, mlir::Value x, unsigned bits);

  static ckks::CiphertextType typeOf(mlir::Value v) { return mlir::cast<ckks::CiphertextType>(v.getType()); }
  ckks::CiphertextType withLevel(ckks::CiphertextType t, unsigned logq, unsigned logp);
  /// Both operands at the smaller logq; with `sameScale`, also at the smaller logp.
  mlir::FailureOr<std::pair<mlir::Value, mlir::Value>> align(mlir::Location loc, mlir::Value x, mlir::Value y,
                                                            bool sameScale);
  /// Fails unless a product of scale 2^logp fits a modulus of 2^logq bits.
  mlir::LogicalResult checkProduct(mlir::Location loc, unsigned logq, unsigned logp);
  /// Rescales a product down to the module's scale (if above it).
  mlir::FailureOr<mlir::Value> afterProduct(mlir::Location loc, mlir::Value product);
  enum class Product { Ciphertext, Constant, Plaintext };
  /// x * y (mul), x * constant (mul_const, a FloatAttr) or x * plaintext
  /// (mul_plain, an ElementsAttr), rescaled afterwards if `rescaleAfter`.
  mlir::FailureOr<mlir::Value> product(mlir::Location loc, Product kind, mlir::Value x, mlir::Value y,
                                       mlir::Attribute constant, bool rescaleAfter);
};

} // namespace fhec
