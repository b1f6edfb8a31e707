#include "frontend/ProgramBuilder.h"
#include "dialect/CKKS/Transforms/Bootstrap.h"
#include "dialect/CKKS/Transforms/PolyEval.h"
#include "dialect/CKKS/Transforms/ScaleManager.h"

#include "fhec/runtime/Abi.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;

namespace fhec {

struct ProgramBuilder::State {
  std::unique_ptr<MLIRContext> ctx;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  std::unique_ptr<OpBuilder> b;
  std::unique_ptr<ScaleManager> manager;
  std::vector<Value> values;
  bool finished = false;

  Location location(const SourceLocation &l) {
    if (l.file.empty()) return UnknownLoc::get(ctx.get());
    return FileLineColLoc::get(ctx.get(), l.file, l.line, l.column);
  }
};

ProgramBuilder::ProgramBuilder(const rt::Params &params, const std::string &security, const std::string &keySwitch,
                               const std::string &name,
                               const std::vector<CiphertextShape> &inputs, const SourceLocation &loc)
    : s(std::make_unique<State>()) {
  if (!abi::isExportableName(name))
    throw ProgramError(ProgramError::Kind::Parameter,
                       "'" + name + "' cannot name a compiled function: it needs a C identifier");
  DialectRegistry registry;
  registerDialects(registry);
  s->ctx = std::make_unique<MLIRContext>(registry);
  s->ctx->loadAllAvailableDialects();
  MLIRContext *ctx = s->ctx.get();
  DiagnosticCollector diags(*ctx);
  Location l = s->location(loc);
  auto paramsAttr = ckks::paramsAttrOf(ctx, params, security.empty() ? StringAttr() : StringAttr::get(ctx, security),
                                       keySwitch.empty() ? StringAttr() : StringAttr::get(ctx, keySwitch),
                                       [&] { return emitError(l); });
  if (!paramsAttr) diags.raise(ProgramError::Kind::Parameter);
  SmallVector<Type> types;
  for (const CiphertextShape &in : inputs) {
    Type t = in.logq == 0 ? Type(ckks::PlaintextType::getChecked([&] { return emitError(l); }, ctx,
                                                                 unsigned(params.logN), unsigned(in.slots)))
                          : Type(ckks::CiphertextType::getChecked([&] { return emitError(l); }, ctx,
                                                                  unsigned(params.logN), unsigned(in.logq),
                                                                  unsigned(in.logp), unsigned(in.slots)));
    if (!t) diags.raise(ProgramError::Kind::Parameter);
    types.push_back(t);
  }
  s->module = ModuleOp::create(l);
  (*s->module)->setAttr(ckks::CKKSDialect::getParamsAttrName(), paramsAttr);
  s->b = std::make_unique<OpBuilder>(ctx);
  s->b->setInsertionPointToEnd(s->module->getBody());
  s->func = func::FuncOp::create(*s->b, l, name, s->b->getFunctionType(types, {}));
  Block *body = s->func.addEntryBlock();
  s->b->setInsertionPointToEnd(body);
  for (Value a : body->getArguments()) s->values.push_back(a);
  s->manager = std::make_unique<ScaleManager>(*s->b, paramsAttr);
}

ProgramBuilder::~ProgramBuilder() = default;

ProgramBuilder::Handle ProgramBuilder::input(size_t i) const {
  if (i >= s->func.getNumArguments())
    throw ProgramError(ProgramError::Kind::Parameter, "the function has no input " + std::to_string(i));
  return i;
}

CiphertextShape ProgramBuilder::shape(Handle v) const {
  if (v >= s->values.size()) throw ProgramError(ProgramError::Kind::Parameter, "unknown value");
  if (auto pt = dyn_cast<ckks::PlaintextType>(s->values[v].getType())) return {0, 0, int(pt.getSlots())};
  auto t = cast<ckks::CiphertextType>(s->values[v].getType());
  return {int(t.getLogq()), int(t.getLogp()), int(t.getSlots())};
}

template <typename F> std::vector<ProgramBuilder::Handle> ProgramBuilder::buildAll(const SourceLocation &loc, F &&f) {
  if (s->finished) throw ProgramError(ProgramError::Kind::Parameter, "the program is finished");
  DiagnosticCollector diags(*s->ctx);
  s->manager->outOfDepth = false;
  FailureOr<SmallVector<Value>> values = f(s->location(loc));
  if (failed(values)) diags.raise(s->manager->outOfDepth ? ProgramError::Kind::Depth : ProgramError::Kind::Compile);
  std::vector<Handle> handles;
  for (Value v : *values) {
    // Ops verify as they are built, so that an error points at its source line.
    if (Operation *def = v.getDefiningOp(); def && failed(verify(def)))
      diags.raise(ProgramError::Kind::Compile);
    s->values.push_back(v);
    handles.push_back(s->values.size() - 1);
  }
  return handles;
}

template <typename F> ProgramBuilder::Handle ProgramBuilder::build(const SourceLocation &loc, F &&f) {
  return buildAll(loc, [&](Location l) -> FailureOr<SmallVector<Value>> {
           FailureOr<Value> v = f(l);
           if (failed(v)) return failure();
           return SmallVector<Value>{*v};
         }).front();
}

namespace {
Value valueOf(const std::vector<Value> &values, size_t h) {
  if (h >= values.size()) throw ProgramError(ProgramError::Kind::Parameter, "unknown value");
  return values[h];
}
} // namespace

ProgramBuilder::Handle ProgramBuilder::add(Handle x, Handle y, const SourceLocation &loc) {
  Value a = valueOf(s->values, x), c = valueOf(s->values, y);
  return build(loc, [&](Location l) { return s->manager->add(l, a, c); });
}

ProgramBuilder::Handle ProgramBuilder::sub(Handle x, Handle y, const SourceLocation &loc) {
  Value a = valueOf(s->values, x), c = valueOf(s->values, y);
  return build(loc, [&](Location l) { return s->manager->sub(l, a, c); });
}

ProgramBuilder::Handle ProgramBuilder::mul(Handle x, Handle y, const SourceLocation &loc) {
  Value a = valueOf(s->values, x), c = valueOf(s->values, y);
  return build(loc, [&](Location l) { return s->manager->mul(l, a, c); });
}

ProgramBuilder::Handle ProgramBuilder::negate(Handle x, const SourceLocation &loc) {
  Value a = valueOf(s->values, x);
  return build(loc, [&](Location l) { return s->manager->negate(l, a); });
}

ProgramBuilder::Handle ProgramBuilder::mulConst(Handle x, double c, const SourceLocation &loc) {
  Value a = valueOf(s->values, x);
  return build(loc, [&](Location l) { return s->manager->mulConst(l, a, c); });
}

ProgramBuilder::Handle ProgramBuilder::addConst(Handle x, double c, const SourceLocation &loc) {
  Value a = valueOf(s->values, x);
  return build(loc, [&](Location l) { return s->manager->addConst(l, a, c); });
}

ElementsAttr ProgramBuilder::plaintext(Handle x, const std::vector<std::complex<double>> &values) {
  if (values.size() != size_t(shape(x).slots))
    throw ProgramError(ProgramError::Kind::Parameter, "a plaintext vector of " + std::to_string(values.size()) +
                                                          " values does not match the ciphertext's " +
                                                          std::to_string(shape(x).slots) + " slots");
  return ckks::slotValuesAttr(s->ctx.get(), values);
}

ProgramBuilder::Handle ProgramBuilder::mulPlain(Handle x, const std::vector<std::complex<double>> &values,
                                                const SourceLocation &loc) {
  Value a = valueOf(s->values, x);
  ElementsAttr attr = plaintext(x, values);
  return build(loc, [&](Location l) { return s->manager->mulPlain(l, a, attr); });
}

ProgramBuilder::Handle ProgramBuilder::addPlain(Handle x, const std::vector<std::complex<double>> &values,
                                                const SourceLocation &loc) {
  Value a = valueOf(s->values, x);
  ElementsAttr attr = plaintext(x, values);
  return build(loc, [&](Location l) { return s->manager->addPlain(l, a, attr); });
}

namespace {
Value plainArg(const std::vector<Value> &values, size_t h) {
  Value v = valueOf(values, h);
  if (!isa<ckks::PlaintextType>(v.getType()))
    throw ProgramError(ProgramError::Kind::Parameter, "the operand is not a plaintext argument");
  return v;
}
} // namespace

ProgramBuilder::Handle ProgramBuilder::mulPlainArg(Handle x, Handle pt, const SourceLocation &loc) {
  Value a = valueOf(s->values, x), p = plainArg(s->values, pt);
  return build(loc, [&](Location l) { return s->manager->mulPlain(l, a, p); });
}

ProgramBuilder::Handle ProgramBuilder::addPlainArg(Handle x, Handle pt, bool negate, const SourceLocation &loc) {
  Value a = valueOf(s->values, x), p = plainArg(s->values, pt);
  return build(loc, [&](Location l) { return s->manager->addPlain(l, a, p, negate); });
}

std::vector<ProgramBuilder::Handle> ProgramBuilder::rotate(Handle x, const std::vector<int64_t> &offsets,
                                                           const SourceLocation &loc) {
  Value a = valueOf(s->values, x);
  if (offsets.empty()) throw ProgramError(ProgramError::Kind::Parameter, "rotate needs at least one offset");
  return buildAll(loc, [&](Location l) { return s->manager->rotate(l, a, offsets); });
}

ProgramBuilder::Handle ProgramBuilder::conjugate(Handle x, const SourceLocation &loc) {
  Value a = valueOf(s->values, x);
  return build(loc, [&](Location l) { return s->manager->conjugate(l, a); });
}

ProgramBuilder::Handle ProgramBuilder::mulMonomial(Handle x, int64_t k, const SourceLocation &loc) {
  Value a = valueOf(s->values, x);
  return build(loc, [&](Location l) { return s->manager->mulMonomial(l, a, k); });
}

ProgramBuilder::Handle ProgramBuilder::linearTransform(Handle x, const std::vector<int64_t> &offsets,
                                                       const std::vector<std::vector<std::complex<double>>> &diagonals,
                                                       const SourceLocation &loc) {
  Value v = valueOf(s->values, x);
  size_t slots = size_t(shape(x).slots);
  if (offsets.empty() || offsets.size() != diagonals.size())
    throw ProgramError(ProgramError::Kind::Parameter, "a linear transform needs one diagonal per offset (and at least one), got " +
                                                          std::to_string(diagonals.size()) + " diagonals for " +
                                                          std::to_string(offsets.size()) + " offsets");
  std::vector<std::complex<double>> flat;
  for (const auto &d : diagonals) {
    if (d.size() != slots)
      throw ProgramError(ProgramError::Kind::Parameter, "a diagonal of " + std::to_string(d.size()) +
                                                            " values does not match the ciphertext's " +
                                                            std::to_string(slots) + " slots");
    flat.insert(flat.end(), d.begin(), d.end());
  }
  ElementsAttr attr = ckks::slotValuesAttr(s->ctx.get(), flat, {int64_t(offsets.size()), int64_t(slots)});
  auto offsetsAttr = DenseI64ArrayAttr::get(s->ctx.get(), offsets);
  return build(loc, [&](Location l) { return s->manager->linearTransform(l, v, offsetsAttr, attr, IntegerAttr()); });
}

namespace {
BootstrapConfig bootstrapConfig(unsigned modLogq, unsigned logScale, const std::vector<unsigned> &levelBudget = {}) {
  BootstrapConfig c;
  c.modLogq = modLogq;
  c.logScale = logScale;
  c.levelBudget.assign(levelBudget.begin(), levelBudget.end());
  return c;
}
} // namespace

void ProgramBuilder::autoBootstrap(unsigned modLogq, unsigned logScale) {
  s->manager->setAutoBootstrap(bootstrapConfig(modLogq, logScale));
}

ProgramBuilder::Handle ProgramBuilder::bootstrap(Handle x, unsigned modLogq, unsigned logScale,
                                                 const std::vector<unsigned> &levelBudget, const SourceLocation &loc) {
  Value v = valueOf(s->values, x);
  BootstrapConfig c = bootstrapConfig(modLogq, logScale, levelBudget);
  return build(loc, [&](Location l) { return s->manager->bootstrap(l, v, c); });
}

ProgramBuilder::Handle ProgramBuilder::polyEval(Handle x, const std::vector<double> &coefficients,
                                                const std::string &basis, double a, double b,
                                                const SourceLocation &loc) {
  Value v = valueOf(s->values, x);
  if (std::string error = ckks::checkPolynomial(basis, coefficients, a, b); !error.empty())
    throw ProgramError(ProgramError::Kind::Parameter, error);
  return build(loc, [&](Location l) { return evaluatePolynomial(*s->manager, l, v, basis, coefficients, a, b); });
}

std::unique_ptr<Program> ProgramBuilder::finish(const std::vector<Handle> &results, const SourceLocation &loc) {
  if (s->finished) throw ProgramError(ProgramError::Kind::Parameter, "the program is finished");
  if (results.empty()) throw ProgramError(ProgramError::Kind::Parameter, "the function returns no ciphertext");
  SmallVector<Value> vals;
  for (Handle h : results) vals.push_back(valueOf(s->values, h));
  DiagnosticCollector diags(*s->ctx);
  func::ReturnOp::create(*s->b, s->location(loc), vals);
  s->func.setFunctionType(s->b->getFunctionType(s->func.getArgumentTypes(), ValueRange(vals).getTypes()));
  if (failed(verify(*s->module))) diags.raise(ProgramError::Kind::Compile);
  s->finished = true;
  return std::make_unique<Program>(std::move(s->ctx), std::move(s->module));
}

} // namespace fhec
