#include "dialect/CKKS/Transforms/ScaleManager.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace fhec {

ckks::CiphertextType ScaleManager::withLevel(ckks::CiphertextType t, unsigned logq, unsigned logp) {
  return ckks::CiphertextType::get(t.getContext(), t.getLogN(), logq, logp, t.getSlots());
}

LogicalResult ScaleManager::checkProduct(Location loc, unsigned logq, unsigned logp) {
  if (logp < logq) return success();
  outOfDepth = true;
  return emitError(loc) << "too little depth left: this product has scale 2^" << logp << " but only " << logq
                        << " bits of modulus remain (logq = " << logq << "; the program starts from logQ = "
                        << params.getLogQ() << " and each rescale uses logp = " << this->logp
                        << " bits); use a larger logQ or fewer multiplications in sequence";
}

FailureOr<Value> ScaleManager::rescale(Location loc, Value x, unsigned bits, bool round) {
  ckks::CiphertextType t = typeOf(x);
  if (bits == 0) return x;
  if (bits > t.getLogp())
    return emitError(loc) << "cannot rescale by 2^" << bits << ": the ciphertext's scale is only 2^" << t.getLogp();
  // logq - bits > logp - bits holds since logq > logp: a rescale never runs out of modulus.
  return ckks::RescaleOp::create(b, loc, withLevel(t, t.getLogq() - bits, t.getLogp() - bits), x, round).getResult();
}

Value ScaleManager::modDown(Location loc, Value x, unsigned logq) {
  ckks::CiphertextType t = typeOf(x);
  if (t.getLogq() <= logq) return x;
  return ckks::ModDownOp::create(b, loc, withLevel(t, logq, t.getLogp()), x);
}

FailureOr<Value> ScaleManager::modRaise(Location loc, Value x, unsigned logq) {
  ckks::CiphertextType t = typeOf(x);
  if (logq <= t.getLogq() || logq > params.getLogQ())
    return emitError(loc) << "cannot raise the modulus to 2^" << logq << ": it must lie above the ciphertext's 2^"
                          << t.getLogq() << " and at most the module's 2^" << params.getLogQ();
  return ckks::ModRaiseOp::create(b, loc, withLevel(t, logq, t.getLogp()), x).getResult();
}

Value ScaleManager::encapsulate(Location loc, Value x) { return ckks::EncapsulateOp::create(b, loc, x).getResult(); }

Value ScaleManager::decapsulate(Location loc, Value x, unsigned modLogq) {
  return ckks::DecapsulateOp::create(b, loc, x.getType(), x, modLogq).getResult();
}

FailureOr<Value> ScaleManager::divByPo2(Location loc, Value x, unsigned bits) {
  ckks::CiphertextType t = typeOf(x);
  if (bits == 0) return x;
  if (t.getLogq() <= bits || t.getLogq() - bits <= t.getLogp()) {
    outOfDepth = true;
    return emitError(loc) << "too little depth left: dividing by 2^" << bits << " at scale 2^" << t.getLogp()
                          << " needs more than " << bits + t.getLogp() << " bits of modulus, but logq = "
                          << t.getLogq();
  }
  return ckks::DivByPo2Op::create(b, loc, withLevel(t, t.getLogq() - bits, t.getLogp()), x).getResult();
}

FailureOr<Value> ScaleManager::mulByPo2(Location loc, Value x, unsigned bits) {
  ckks::CiphertextType t = typeOf(x);
  if (bits == 0) return x;
  if (t.getLogp() + bits >= t.getLogq())
    return emitError(loc) << "cannot scale by 2^" << bits << ": scale 2^" << t.getLogp() + bits
                          << " would not fit logq = " << t.getLogq();
  return ckks::MulConstOp::create(b, loc, withLevel(t, t.getLogq(), t.getLogp() + bits), x, b.getF64FloatAttr(1.0))
      .getResult();
}

FailureOr<Value> ScaleManager::relabel(Location loc, Value x, int64_t logp, unsigned slots) {
  ckks::CiphertextType t = typeOf(x);
  if (logp < 0 || logp >= int64_t(t.getLogq()))
    return emitError(loc) << "cannot relabel the scale to 2^" << logp << ": logp must lie in [0, logq = "
                          << t.getLogq() << ")";
  auto r = ckks::CiphertextType::getChecked([&] { return emitError(loc); }, b.getContext(), t.getLogN(),
                                            t.getLogq(), unsigned(logp), slots);
  if (!r) return failure();
  return ckks::RelabelOp::create(b, loc, r, x).getResult();
}

FailureOr<Value> ScaleManager::refreshFor(Location loc, Value x, unsigned bits) {
  ckks::CiphertextType t = typeOf(x);
  if (!autoBootstrap || t.getLogq() >= autoBootstrap->modLogq + bits) return x;
  if (t.getLogq() < autoBootstrap->modLogq)
    return emitError(loc) << "cannot bootstrap automatically: the operand's logq = " << t.getLogq()
                          << " is already below q0 = 2^" << autoBootstrap->modLogq;
  FailureOr<Value> r = bootstrap(loc, x, *autoBootstrap);
  if (failed(r)) return failure();
  if (typeOf(*r).getLogq() < autoBootstrap->modLogq + bits) {
    outOfDepth = true;
    return emitError(loc) << "too little depth left: bootstrapping leaves logq = " << typeOf(*r).getLogq()
                          << ", too little for a product of " << bits << " bits above q0 = 2^"
                          << autoBootstrap->modLogq << "; use a larger logQ";
  }
  return r;
}

FailureOr<std::pair<Value, Value>> ScaleManager::align(Location loc, Value x, Value y, bool sameScale) {
  ckks::CiphertextType tx = typeOf(x), ty = typeOf(y);
  if (tx.getLogN() != ty.getLogN() || tx.getSlots() != ty.getSlots())
    return emitError(loc) << "operands have different ring dimensions or slot counts: " << tx << " and " << ty;
  if (sameScale && tx.getLogp() != ty.getLogp()) {
    // Rescale the operand of the larger scale: it keeps the scale at the
    // module's 2^logp instead of raising the other one.
    Value &big = tx.getLogp() > ty.getLogp() ? x : y;
    unsigned d = tx.getLogp() > ty.getLogp() ? tx.getLogp() - ty.getLogp() : ty.getLogp() - tx.getLogp();
    FailureOr<Value> r = rescale(loc, big, d);
    if (failed(r)) return failure();
    big = *r;
  }
  unsigned logq = std::min(typeOf(x).getLogq(), typeOf(y).getLogq());
  return std::make_pair(modDown(loc, x, logq), modDown(loc, y, logq));
}

FailureOr<Value> ScaleManager::afterProduct(Location loc, Value m) {
  ckks::CiphertextType t = typeOf(m);
  if (t.getLogp() <= logp) return m;
  return rescale(loc, m, t.getLogp() - logp);
}

FailureOr<Value> ScaleManager::add(Location loc, Value x, Value y) {
  auto xy = align(loc, x, y, /*sameScale=*/true);
  if (failed(xy)) return failure();
  return ckks::AddOp::create(b, loc, typeOf(xy->first), xy->first, xy->second).getResult();
}

FailureOr<Value> ScaleManager::sub(Location loc, Value x, Value y) {
  auto xy = align(loc, x, y, /*sameScale=*/true);
  if (failed(xy)) return failure();
  return ckks::SubOp::create(b, loc, typeOf(xy->first), xy->first, xy->second).getResult();
}

FailureOr<Value> ScaleManager::product(Location loc, Product kind, Value x, Value y, Attribute constant,
                                       bool rescaleAfter) {
  // Automatic bootstrapping looks at the operands before they are aligned:
  // a high one is not brought down to be bootstrapped.
  unsigned scaleAfter = typeOf(x).getLogp() + (kind == Product::Ciphertext ? typeOf(y).getLogp() : logp);
  if (autoBootstrap && rescaleAfter && scaleAfter > logp) {
    FailureOr<Value> rx = refreshFor(loc, x, scaleAfter - logp);
    if (failed(rx)) return failure();
    if (kind == Product::Ciphertext) {
      FailureOr<Value> ry = y == x ? rx : refreshFor(loc, y, scaleAfter - logp);
      if (failed(ry)) return failure();
      y = *ry;
    }
    x = *rx;
  }
  if (kind == Product::Ciphertext) {
    auto xy = align(loc, x, y, /*sameScale=*/false);
    if (failed(xy)) return failure();
    std::tie(x, y) = *xy;
  }
  ckks::CiphertextType t = typeOf(x);
  // A constant or plaintext is encoded at the working scale.
  unsigned rlogp = t.getLogp() + (kind == Product::Ciphertext ? typeOf(y).getLogp() : logp);
  if (failed(checkProduct(loc, t.getLogq(), rlogp))) return failure();
  ckks::CiphertextType rt = withLevel(t, t.getLogq(), rlogp);
  Value m;
  switch (kind) {
  case Product::Ciphertext: m = ckks::MulOp::create(b, loc, rt, x, y); break;
  case Product::Constant: m = ckks::MulConstOp::create(b, loc, rt, x, cast<FloatAttr>(constant)); break;
  case Product::Plaintext:
    // y: a !ckks.pt argument; else the constant's values.
    m = y ? ckks::MulPlainOp::create(b, loc, rt, x, y, ElementsAttr())
          : ckks::MulPlainOp::create(b, loc, rt, x, Value(), cast<ElementsAttr>(constant));
    break;
  }
  return rescaleAfter ? afterProduct(loc, m) : FailureOr<Value>(m);
}

FailureOr<Value> ScaleManager::mul(Location loc, Value x, Value y) {
  return product(loc, Product::Ciphertext, x, y, {}, true);
}

FailureOr<Value> ScaleManager::negate(Location loc, Value x) {
  return ckks::NegateOp::create(b, loc, typeOf(x), x).getResult();
}

FailureOr<Value> ScaleManager::mulConst(Location loc, Value x, double c) {
  return product(loc, Product::Constant, x, {}, b.getF64FloatAttr(c), true);
}

FailureOr<Value> ScaleManager::addConst(Location loc, Value x, double c) {
  return ckks::AddConstOp::create(b, loc, typeOf(x), x, b.getF64FloatAttr(c)).getResult();
}

FailureOr<Value> ScaleManager::mulPlain(Location loc, Value x, ElementsAttr values) {
  return product(loc, Product::Plaintext, x, {}, values, true);
}

FailureOr<Value> ScaleManager::addPlain(Location loc, Value x, ElementsAttr values) {
  return ckks::AddPlainOp::create(b, loc, typeOf(x), x, Value(), values, false).getResult();
}

FailureOr<Value> ScaleManager::mulPlain(Location loc, Value x, Value plain) {
  return product(loc, Product::Plaintext, x, plain, {}, true);
}

FailureOr<Value> ScaleManager::addPlain(Location loc, Value x, Value plain, bool negate) {
  return ckks::AddPlainOp::create(b, loc, typeOf(x), x, plain, ElementsAttr(), negate).getResult();
}

FailureOr<Value> ScaleManager::linearTransform(Location loc, Value x, DenseI64ArrayAttr offsets,
                                              ElementsAttr diagonals, IntegerAttr babyStep, bool rescaleAfter) {
  if (autoBootstrap && rescaleAfter) {
    FailureOr<Value> rx = refreshFor(loc, x, typeOf(x).getLogp());
    if (failed(rx)) return failure();
    x = *rx;
  }
  ckks::CiphertextType t = typeOf(x);
  unsigned rlogp = t.getLogp() + logp;
  if (failed(checkProduct(loc, t.getLogq(), rlogp))) return failure();
  Value m = ckks::LinearTransformOp::create(b, loc, withLevel(t, t.getLogq(), rlogp), x, offsets, diagonals, babyStep);
  return rescaleAfter ? afterProduct(loc, m) : FailureOr<Value>(m);
}

FailureOr<SmallVector<Value>> ScaleManager::rotate(Location loc, Value x, ArrayRef<int64_t> offsets) {
  int64_t half = int64_t(1) << (typeOf(x).getLogN() - 1);
  // Each distinct non-zero offset mod N/2 once, in the order first given.
  SmallVector<int64_t> reduced, distinct;
  for (int64_t offset : offsets) {
    int64_t k = offset % half;
    reduced.push_back(k < 0 ? k + half : k);
    if (reduced.back() && !llvm::is_contained(distinct, reduced.back())) distinct.push_back(reduced.back());
  }
  ckks::RotateOp op;
  if (!distinct.empty()) op = ckks::RotateOp::create(b, loc, x, distinct);
  return llvm::map_to_vector(reduced, [&](int64_t k) {
    return k ? op.getResult(unsigned(llvm::find(distinct, k) - distinct.begin())) : x;
  });
}

FailureOr<Value> ScaleManager::conjugate(Location loc, Value x) {
  return ckks::ConjugateOp::create(b, loc, typeOf(x), x).getResult();
}

FailureOr<Value> ScaleManager::mulMonomial(Location loc, Value x, int64_t k) {
  return ckks::MulMonomialOp::create(b, loc, typeOf(x), x, b.getI64IntegerAttr(k)).getResult();
}

FailureOr<SmallVector<Value>> ScaleManager::rebuild(Operation *op, ValueRange operands) {
  if (auto r = dyn_cast<ckks::RotateOp>(op)) return rotate(op->getLoc(), operands[0], r.getOffsets());
  if (op->getNumResults() != 1) return op->emitOpError() << "is not supported by ckks-manage-scale";
  FailureOr<Value> v = rebuildSingle(op, operands);
  if (failed(v)) return failure();
  return SmallVector<Value>{*v};
}

FailureOr<Value> ScaleManager::rebuildSingle(Operation *op, ValueRange operands) {
  Location loc = op->getLoc();
  // A product the program rescales itself keeps its scale.
  bool rescaleAfter = llvm::none_of(op->getUsers(), [](Operation *u) { return isa<ckks::RescaleOp>(u); });
  return llvm::TypeSwitch<Operation *, FailureOr<Value>>(op)
      .Case<ckks::AddOp>([&](auto) { return add(loc, operands[0], operands[1]); })
      .Case<ckks::SubOp>([&](auto) { return sub(loc, operands[0], operands[1]); })
      .Case<ckks::NegateOp>([&](auto) { return negate(loc, operands[0]); })
      .Case<ckks::MulOp>([&](auto) {
        return product(loc, Product::Ciphertext, operands[0], operands[1], {}, rescaleAfter);
      })
      .Case<ckks::MulConstOp>([&](ckks::MulConstOp o) {
        return product(loc, Product::Constant, operands[0], {}, o.getValueAttr(), rescaleAfter);
      })
      .Case<ckks::MulPlainOp>([&](ckks::MulPlainOp o) {
        return product(loc, Product::Plaintext, operands[0], o.getPlain() ? operands[1] : Value(),
                       o.getValuesAttr(), rescaleAfter);
      })
      .Case<ckks::AddConstOp>([&](ckks::AddConstOp o) { return addConst(loc, operands[0], o.getValue().convertToDouble()); })
      .Case<ckks::AddPlainOp>([&](ckks::AddPlainOp o) {
        return o.getPlain() ? addPlain(loc, operands[0], operands[1], o.getNegate())
                            : addPlain(loc, operands[0], *o.getValues());
      })
      .Case<ckks::ConjugateOp>([&](auto) { return conjugate(loc, operands[0]); })
      .Case<ckks::MulMonomialOp>([&](ckks::MulMonomialOp o) { return mulMonomial(loc, operands[0], o.getK()); })
      .Case<ckks::LinearTransformOp>([&](ckks::LinearTransformOp o) {
        return linearTransform(loc, operands[0], o.getOffsetsAttr(), o.getDiagonals(), o.getBabyStepAttr(),
                               rescaleAfter);
      })
      .Case<ckks::BootstrapOp, ckks::PolyEvalOp>([&](Operation *o) { return rebuildComposite(o, operands); })
      .Case<ckks::RescaleOp>([&](ckks::RescaleOp o) {
        return rescale(loc, operands[0], o.getInput().getType().getLogq() - o.getType().getLogq(), o.getRound());
      })
      .Case<ckks::ModDownOp>([&](ckks::ModDownOp o) -> FailureOr<Value> {
        return modDown(loc, operands[0], o.getType().getLogq());
      })
      .Case<ckks::ModRaiseOp>([&](ckks::ModRaiseOp o) { return modRaise(loc, operands[0], o.getType().getLogq()); })
      .Case<ckks::EncapsulateOp>([&](auto) -> FailureOr<Value> { return encapsulate(loc, operands[0]); })
      .Case<ckks::DecapsulateOp>([&](ckks::DecapsulateOp o) -> FailureOr<Value> {
        return decapsulate(loc, operands[0], unsigned(o.getModLogq()));
      })
      .Case<ckks::DivByPo2Op>([&](ckks::DivByPo2Op o) {
        return divByPo2(loc, operands[0], o.getInput().getType().getLogq() - o.getType().getLogq());
      })
      .Case<ckks::RelabelOp>([&](ckks::RelabelOp o) {
        // The same change of scale from the managed operand's (the same values).
        int64_t logp = int64_t(typeOf(operands[0]).getLogp()) + int64_t(o.getType().getLogp()) -
                       int64_t(o.getInput().getType().getLogp());
        return relabel(loc, operands[0], logp, o.getType().getSlots());
      })
      .Default([&](Operation *o) -> FailureOr<Value> {
        return o->emitOpError() << "is not a ckks operation that ckks-manage-scale knows";
      });
}

} // namespace fhec
