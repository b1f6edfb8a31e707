#include "dialect/CKKS/IR/CKKSDialect.h"

#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Limits.h"

#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace fhec::ckks;

// custom<BinaryTypes>: `<...>` for three equal types, `(<...>, <...>) -> <...>`
// otherwise; ciphertext types in the stripped form of ODS formats (or in full).
static ParseResult parseCiphertextType(OpAsmParser &parser, Type &t) {
  CiphertextType ct;
  if (parser.parseCustomTypeWithFallback(ct)) return failure();
  t = ct;
  return success();
}

static ParseResult parseBinaryTypes(OpAsmParser &parser, Type &lhs, Type &rhs, Type &result) {
  if (succeeded(parser.parseOptionalLParen())) {
    if (parseCiphertextType(parser, lhs) || parser.parseComma() || parseCiphertextType(parser, rhs) ||
        parser.parseRParen() || parser.parseArrow() || parseCiphertextType(parser, result))
      return failure();
    return success();
  }
  if (parseCiphertextType(parser, result)) return failure();
  lhs = rhs = result;
  return success();
}

static void printBinaryTypes(OpAsmPrinter &printer, Operation *, Type lhs, Type rhs, Type result) {
  auto print = [&](Type t) { printer.printStrippedAttrOrType(cast<CiphertextType>(t)); };
  if (lhs == result && rhs == result) return print(result);
  printer << "(";
  print(lhs);
  printer << ", ";
  print(rhs);
  printer << ") -> ";
  print(result);
}

// custom<RotateTypes>: one ciphertext type, for the input and each of the
// results (one per offset, parsed before).
static ParseResult parseRotateTypes(OpAsmParser &parser, Type &input, SmallVectorImpl<Type> &results,
                                    DenseI64ArrayAttr offsets) {
  if (parseCiphertextType(parser, input)) return failure();
  results.assign(offsets ? offsets.size() : 0, input);
  return success();
}

static void printRotateTypes(OpAsmPrinter &printer, Operation *, Type input, TypeRange, DenseI64ArrayAttr) {
  printer.printStrippedAttrOrType(cast<CiphertextType>(input));
}

#include "dialect/CKKS/IR/CKKSDialect.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "dialect/CKKS/IR/CKKSAttributes.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "dialect/CKKS/IR/CKKSTypes.cpp.inc"
#define GET_OP_CLASSES
#include "dialect/CKKS/IR/CKKSOps.cpp.inc"

void CKKSDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialect/CKKS/IR/CKKSAttributes.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialect/CKKS/IR/CKKSTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialect/CKKS/IR/CKKSOps.cpp.inc"
      >();
}

ParamsAttr fhec::ckks::getModuleParams(Operation *op) {
  auto module = isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  if (!module) return {};
  return module->getAttrOfType<ParamsAttr>(CKKSDialect::getParamsAttrName());
}

std::vector<uint64_t> fhec::ckks::keySwitchGaloisElements(Operation *op) {
  if (auto r = dyn_cast<RotateOp>(op)) {
    std::vector<uint64_t> g;
    for (unsigned i = 0; i < r.getNumResults(); ++i) g.push_back(r.getGaloisElement(i));
    return g;
  }
  if (auto c = dyn_cast<ConjugateOp>(op)) return {c.getGaloisElement()};
  if (auto l = dyn_cast<LinearTransformOp>(op)) return l.getGaloisElements();
  return {};
}

std::optional<unsigned> fhec::ckks::encapsulationModulus(Operation *op) {
  if (auto e = dyn_cast<EncapsulateOp>(op)) return e.getInput().getType().getLogq();
  if (auto d = dyn_cast<DecapsulateOp>(op)) return unsigned(d.getModLogq());
  return std::nullopt;
}

std::string fhec::ckks::formatNumber(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

std::string fhec::ckks::checkPolynomial(llvm::StringRef basis, llvm::ArrayRef<double> coefficients, double a,
                                        double b) {
  if (basis != "power" && basis != "chebyshev")
    return "basis must be \"power\" or \"chebyshev\", got \"" + basis.str() + "\"";
  if (!std::isfinite(a) || !std::isfinite(b) || !(a < b))
    return "the domain [" + formatNumber(a) + ", " + formatNumber(b) + "] must be finite with a < b";
  size_t degree = 0;
  for (size_t i = 0; i < coefficients.size(); ++i) {
    if (!std::isfinite(coefficients[i])) return "coefficient " + std::to_string(i) + " is not finite";
    if (coefficients[i] != 0) degree = i;
  }
  if (degree == 0)
    return "the polynomial must have degree >= 1 (a constant needs no evaluation on a ciphertext), got " +
           std::to_string(coefficients.size()) + " coefficients";
  return "";
}

//===----------------------------------------------------------------------===//
// Attributes and types
//===----------------------------------------------------------------------===//

using namespace fhec::limits;

LogicalResult ParamsAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned logN,
                                 unsigned logQ, unsigned logp, StringAttr security, StringAttr keyswitch,
                                 unsigned dnum, StringAttr secret, unsigned h) {
  if (logN < kMinLogN || logN > kMaxLogN)
    return emitError() << "logN = " << logN << " is out of range: N = 2^logN must be a power of two with "
                       << kMinLogN << " <= logN <= " << kMaxLogN;
  if (logQ < 1 || logQ > kMaxLogQ) return emitError() << "logQ = " << logQ << " is out of range [1, " << kMaxLogQ << "]";
  if (logp < 1 || logp >= logQ) return emitError() << "logp = " << logp << " must be in [1, logQ = " << logQ << ")";
  if (security && !llvm::is_contained({"none", "128", "192", "256"}, security.getValue()))
    return emitError() << "security = \"" << security.getValue()
                       << "\" is not a level: expected \"128\", \"192\", \"256\" or \"none\" (no check)";
  if (keyswitch && !llvm::is_contained({"centered", "heaan"}, keyswitch.getValue()))
    return emitError() << "keyswitch = \"" << keyswitch.getValue()
                       << "\" is not a key-switching form: expected \"centered\" (the default) or \"heaan\" (HEAAN 2.1's)";
  if (dnum < 1 || dnum > logQ) return emitError() << "dnum = " << dnum << " must be in [1, logQ = " << logQ << "]";
  if ((dnum - 1) * ((logQ + dnum - 1) / dnum) >= logQ)
    return emitError() << "dnum = " << dnum << " digits of ceil(logQ / dnum) = " << (logQ + dnum - 1) / dnum
                       << " bits leave the last one empty at logQ = " << logQ << ": use fewer digits";
  rt::SecretKind kind = rt::SecretKind::Ternary;
  if (secret && !rt::parseSecretKind(secret.getValue().str(), kind))
    return emitError() << "secret = \"" << secret.getValue()
                       << "\" is not a secret distribution: expected \"ternary\" (the default) or \"sparse\" (with h)";
  if (kind == rt::SecretKind::Sparse && (h < 1 || h > (1u << logN)))
    return emitError() << "a sparse secret needs its Hamming weight h in [1, N = " << (1u << logN) << "], not " << h;
  if (kind == rt::SecretKind::Ternary && h != 0)
    return emitError() << "h = " << h << " is the weight of a sparse secret: say secret = \"sparse\" with it "
                       << "(a uniform ternary secret has no fixed weight)";
  return success();
}

ParamsAttr fhec::ckks::paramsAttrOf(MLIRContext *ctx, const rt::Params &p, StringAttr security, StringAttr keyswitch,
                                    function_ref<InFlightDiagnostic()> emitError) {
  const bool sparse = p.secret == rt::SecretKind::Sparse;
  StringAttr secret = sparse ? StringAttr::get(ctx, rt::secretKindName(p.secret)) : StringAttr();
  const unsigned h = sparse ? unsigned(p.h) : 0u;
  if (emitError)
    return ParamsAttr::getChecked(emitError, ctx, unsigned(p.logN), unsigned(p.logQ), unsigned(p.logp), security,
                                  keyswitch, unsigned(p.dnum), secret, h);
  return ParamsAttr::get(ctx, unsigned(p.logN), unsigned(p.logQ), unsigned(p.logp), security, keyswitch,
                         unsigned(p.dnum), secret, h);
}

unsigned ParamsAttr::getRequiredSecurityBits() const {
  if (!getSecurity()) return 128;
  unsigned bits = 0;
  return getSecurity().getValue().getAsInteger(10, bits) ? 0 : bits;
}

LogicalResult CiphertextType::verify(function_ref<InFlightDiagnostic()> emitError, unsigned logN,
                                     unsigned logq, unsigned logp, unsigned slots) {
  if (logN < kMinLogN || logN > kMaxLogN)
    return emitError() << "ciphertext logN = " << logN << " is out of range [" << kMinLogN << ", " << kMaxLogN << "]";
  if (logq < 1 || logq > kMaxLogQ)
    return emitError() << "ciphertext logq = " << logq << " is out of range [1, " << kMaxLogQ << "]";
  if (logp >= logq) return emitError() << "ciphertext scale 2^" << logp << " does not fit its modulus 2^" << logq;
  if (slots < 1 || (slots & (slots - 1)) != 0 || slots > (1u << (logN - 1)))
    return emitError() << "slots = " << slots << " must be a power of two <= N/2 = " << (1u << (logN - 1));
  return success();
}

LogicalResult CKKSDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  if (attr.getName() != getParamsAttrName())
    return op->emitError() << "unknown ckks attribute '" << attr.getName().getValue() << "'";
  if (!isa<ModuleOp>(op)) return op->emitError() << "'ckks.params' must be attached to a builtin.module";
  auto params = dyn_cast<ParamsAttr>(attr.getValue());
  if (!params) return op->emitError() << "'ckks.params' must be a #ckks.params<logN, logQ, logp> attribute";
  // Function signatures must fit the parameters: keys exist for one ring and
  // one top modulus only.
  for (Operation &child : cast<ModuleOp>(op).getBody()->getOperations()) {
    auto f = dyn_cast<FunctionOpInterface>(&child);
    if (!f) continue;
    for (Type t : llvm::concat<const Type>(f.getArgumentTypes(), f.getResultTypes())) {
      auto ct = dyn_cast<CiphertextType>(t);
      if (!ct) continue;
      if (ct.getLogN() != params.getLogN())
        return f->emitOpError() << "signature type " << ct << " has logN = " << ct.getLogN()
                                << ", but the module's ckks.params has logN = " << params.getLogN();
      if (ct.getLogq() > params.getLogQ())
        return f->emitOpError() << "signature type " << ct << " has logq = " << ct.getLogq()
                                << " above the module's logQ = " << params.getLogQ();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Op verifiers
//===----------------------------------------------------------------------===//

namespace {
// Checks that `t` fits the module's parameters (logN, logq <= logQ).
LogicalResult verifyAgainstParams(Operation *op, CiphertextType t) {
  ParamsAttr p = getModuleParams(op);
  if (!p) return op->emitOpError() << "requires a '" << CKKSDialect::getParamsAttrName() << "' attribute on the enclosing module";
  if (t.getLogN() != p.getLogN())
    return op->emitOpError() << "ciphertext logN = " << t.getLogN() << " differs from the module's logN = " << p.getLogN();
  if (t.getLogq() > p.getLogQ())
    return op->emitOpError() << "ciphertext logq = " << t.getLogq() << " exceeds the module's logQ = " << p.getLogQ();
  return success();
}

LogicalResult verifyAll(Operation *op) {
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto ct = dyn_cast<CiphertextType>(t); ct && failed(verifyAgainstParams(op, ct))) return failure();
  return success();
}

LogicalResult verifySameType(Operation *op) {
  Type t = op->getResult(0).getType();
  for (Type o : op->getOperandTypes())
    if (o != t) return op->emitOpError() << "operand type " << o << " differs from result type " << t;
  return verifyAll(op);
}

// Everything but the listed fields equal.
bool sameExcept(CiphertextType a, CiphertextType b, bool logq, bool logp) {
  return a.getLogN() == b.getLogN() && a.getSlots() == b.getSlots() && (logq || a.getLogq() == b.getLogq()) &&
         (logp || a.getLogp() == b.getLogp());
}
} // namespace

namespace {
// Operands that share logN and slots (logq and logp may differ).
LogicalResult verifyAlignable(Operation *op, CiphertextType a, CiphertextType b) {
  if (a.getLogN() != b.getLogN() || a.getSlots() != b.getSlots())
    return op->emitOpError() << "operands must share logN and slots, got " << a << " and " << b;
  return success();
}
} // namespace

CiphertextType AddOp::inferResultType(CiphertextType a, CiphertextType b) {
  return CiphertextType::get(a.getContext(), a.getLogN(), std::min(a.getLogq(), b.getLogq()),
                             std::max(a.getLogp(), b.getLogp()), a.getSlots());
}
CiphertextType SubOp::inferResultType(CiphertextType a, CiphertextType b) { return AddOp::inferResultType(a, b); }

template <typename Op> static LogicalResult verifyAlignedBinary(Op op) {
  auto a = op.getLhs().getType(), b = op.getRhs().getType();
  if (failed(verifyAlignable(op, a, b))) return failure();
  CiphertextType want = Op::inferResultType(a, b);
  if (op.getType() != want)
    return op.emitOpError() << "result type must be " << want
                            << " (the operands' smaller logq and larger logp), got " << op.getType();
  return verifyAll(op);
}

LogicalResult AddOp::verify() { return verifyAlignedBinary(*this); }
LogicalResult SubOp::verify() { return verifyAlignedBinary(*this); }
LogicalResult NegateOp::verify() { return verifySameType(*this); }
LogicalResult AddConstOp::verify() { return verifySameType(*this); }

LogicalResult MulOp::verify() {
  auto a = getLhs().getType(), b = getRhs().getType(), r = getResult().getType();
  if (failed(verifyAlignable(*this, a, b))) return failure();
  unsigned logq = std::min(a.getLogq(), b.getLogq());
  if (r.getLogN() != a.getLogN() || r.getLogq() != logq || r.getSlots() != a.getSlots())
    return emitOpError() << "result must keep logN and slots of the operands and the smaller logq = " << logq;
  if (r.getLogp() != a.getLogp() + b.getLogp())
    return emitOpError() << "result logp must be " << a.getLogp() + b.getLogp() << " (sum of the operands' logp), got "
                         << r.getLogp();
  return verifyAll(*this);
}

LogicalResult RescaleOp::verify() {
  auto in = getInput().getType(), r = getResult().getType();
  if (!sameExcept(in, r, true, true)) return emitOpError() << "rescale must keep logN and slots";
  if (r.getLogq() >= in.getLogq())
    return emitOpError() << "result logq = " << r.getLogq() << " must be smaller than the input's logq = " << in.getLogq();
  unsigned d = in.getLogq() - r.getLogq();
  if (d > in.getLogp() || in.getLogp() - r.getLogp() != d)
    return emitOpError() << "rescale by 2^" << d << " must lower logp by the same " << d << " bits (input logp = "
                         << in.getLogp() << ", result logp = " << r.getLogp() << ")";
  return verifyAll(*this);
}

// mod_down, div_by_po2 (`up` false) and mod_raise (`up`): only logq changes, in that direction.
static LogicalResult verifyLevelChange(Operation *op, bool up) {
  auto in = cast<CiphertextType>(op->getOperand(0).getType()), r = cast<CiphertextType>(op->getResult(0).getType());
  if (!sameExcept(in, r, true, false))
    return op->emitOpError() << op->getName().stripDialect() << " must keep logN, logp and slots";
  if (up ? r.getLogq() <= in.getLogq() : r.getLogq() >= in.getLogq())
    return op->emitOpError() << "result logq = " << r.getLogq() << " must be " << (up ? "larger" : "smaller")
                             << " than the input's logq = " << in.getLogq();
  return verifyAll(op);
}

LogicalResult ModDownOp::verify() { return verifyLevelChange(*this, false); }
LogicalResult ModRaiseOp::verify() { return verifyLevelChange(*this, true); }
LogicalResult DivByPo2Op::verify() { return verifyLevelChange(*this, false); }

// Sparse-secret encapsulation's key switches keep the ciphertext's type.
static LogicalResult verifySecretSwitch(Operation *op) {
  if (op->getOperand(0).getType() != op->getResult(0).getType())
    return op->emitOpError() << "must keep the ciphertext's type";
  return verifyAll(op);
}
LogicalResult EncapsulateOp::verify() { return verifySecretSwitch(*this); }
LogicalResult DecapsulateOp::verify() {
  if (int64_t(getModLogq()) < 1 || int64_t(getModLogq()) > int64_t(getInput().getType().getLogq()))
    return emitOpError() << "mod_logq = " << getModLogq() << " (the encapsulation's q0) must lie in [1, logq = "
                         << getInput().getType().getLogq() << "]";
  return verifySecretSwitch(*this);
}

LogicalResult RelabelOp::verify() {
  auto in = getInput().getType(), r = getResult().getType();
  if (in.getLogN() != r.getLogN() || in.getLogq() != r.getLogq())
    return emitOpError() << "relabel must keep logN and logq, got " << in << " -> " << r;
  return verifyAll(*this);
}

// A product by a constant encoded at scale 2^(logp(result) - logp(input)).
static LogicalResult verifyConstantScale(Operation *op, CiphertextType in, CiphertextType r) {
  if (r.getLogp() <= in.getLogp())
    return op->emitOpError() << "result logp = " << r.getLogp() << " must exceed the input's logp = " << in.getLogp()
                             << ": the difference is the constant's scale (the module's logp by default)";
  return success();
}

LogicalResult MulConstOp::verify() {
  auto in = getInput().getType(), r = getResult().getType();
  ParamsAttr p = getModuleParams(*this);
  if (!p) return verifyAll(*this);
  if (!sameExcept(in, r, false, true)) return emitOpError() << "mul_const must keep logN, logq and slots";
  if (failed(verifyConstantScale(*this, in, r))) return failure();
  if (!std::isfinite(getValue().convertToDouble())) return emitOpError() << "constant must be finite";
  return verifyAll(*this);
}

void RotateOp::build(OpBuilder &b, OperationState &state, Value input, ArrayRef<int64_t> offsets) {
  build(b, state, SmallVector<Type>(offsets.size(), input.getType()), input, b.getDenseI64ArrayAttr(offsets));
}

LogicalResult RotateOp::verify() {
  auto t = getInput().getType();
  unsigned half = 1u << (t.getLogN() - 1);
  ArrayRef<int64_t> offsets = getOffsets();
  if (offsets.empty()) return emitOpError() << "needs at least one offset";
  if (offsets.size() != getNumResults())
    return emitOpError() << "has " << getNumResults() << " results for " << offsets.size()
                         << " offsets: one result per offset";
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t k : offsets) {
    if (k < 1 || uint64_t(k) >= half)
      return emitOpError() << "offset = " << k << " must be in [1, N/2 = " << half
                           << "): a right rotation by r is the left rotation by N/2 - r";
    if (!seen.insert(k).second) return emitOpError() << "lists offset " << k << " twice";
  }
  for (Type r : getResultTypes())
    if (r != t) return emitOpError() << "result type " << r << " differs from the input type " << t;
  return verifyAll(*this);
}

uint64_t RotateOp::getGaloisElement(unsigned i) {
  return fhec::rt::galoisForRotation(int(getInput().getType().getLogN()), getOffsets()[i]);
}

LogicalResult ConjugateOp::verify() { return verifySameType(*this); }

LogicalResult MulMonomialOp::verify() {
  CiphertextType t = getType();
  int64_t twoN = int64_t(2) << t.getLogN(), gap = (twoN / 2) / (2 * int64_t(t.getSlots())), k = int64_t(getK());
  if (k < 0 || k >= twoN) return emitOpError() << "k must be in [0, 2N) = [0, " << twoN << "), got " << k;
  if (k % gap != 0)
    return emitOpError() << "k must be a multiple of N / (2 slots) = " << gap
                         << " (a sparse ciphertext's subring), got " << k;
  return verifySameType(*this);
}

LogicalResult BootstrapOp::verify() {
  auto in = getInput().getType(), r = getResult().getType();
  if (in.getLogN() != r.getLogN() || in.getSlots() != r.getSlots() || in.getLogp() != r.getLogp())
    return emitOpError() << "bootstrap must keep logN, logp and slots, got " << in << " -> " << r;
  if (auto budget = getLevelBudget()) {
    int64_t logn = llvm::Log2_64(in.getSlots());
    if (budget->size() != 2 || llvm::any_of(*budget, [&](int64_t l) { return l < 1 || l > logn; }))
      return emitOpError() << "level_budget must be [CoeffToSlot levels, SlotToCoeff levels], each in [1, log2 slots = "
                           << logn << "]";
  }
  int64_t q0 = getModLogq();
  if (q0 <= int64_t(in.getLogp()) || q0 > int64_t(in.getLogq()))
    return emitOpError() << "mod_logq = " << q0 << " must lie in (logp, logq] = (" << in.getLogp() << ", "
                         << in.getLogq() << "]";
  if (getBound() < 1 || getDegree() < 2 || getDoubleAngles() > 10)
    return emitOpError() << "needs bound >= 1, degree >= 2 and double_angles in [0, 10]";
  if (auto w = getLogScale(); w && (int64_t(*w) <= q0 - int64_t(in.getLogp()) || *w > 120))
    return emitOpError() << "log_scale = " << *w << " must lie in (mod_logq - logp, 120] = (" << q0 - in.getLogp()
                         << ", 120]";
  return verifyAll(*this);
}

LogicalResult PolyEvalOp::verify() {
  auto in = getInput().getType(), r = getResult().getType();
  std::pair<double, double> d = getInterval();
  if (std::string error = checkPolynomial(getBasis(), getCoefficients(), d.first, d.second); !error.empty())
    return emitOpError() << error;
  if (auto dom = getDomain(); dom && dom->size() != 2)
    return emitOpError() << "domain must be two numbers [a, b], got " << dom->size();
  if (in.getLogN() != r.getLogN() || in.getSlots() != r.getSlots())
    return emitOpError() << "poly_eval must keep logN and slots";
  if (r.getLogq() >= in.getLogq())
    return emitOpError() << "result logq must be below the input's " << in.getLogq()
                         << ": the evaluation uses at least one level";
  if (ParamsAttr p = getModuleParams(*this); p && r.getLogp() != p.getLogp())
    return emitOpError() << "result logp must be the module's logp = " << p.getLogp() << ", got " << r.getLogp();
  return verifyAll(*this);
}

std::pair<double, double> PolyEvalOp::getInterval() {
  if (auto d = getDomain(); d && d->size() == 2) return {(*d)[0], (*d)[1]};
  return {-1.0, 1.0};
}

uint64_t ConjugateOp::getGaloisElement() { return fhec::rt::galoisForConjugation(int(getType().getLogN())); }

namespace {
// `values` of mul_plain / add_plain: a dense vector of one f64 or
// complex<f64> per slot, every value finite.
LogicalResult verifySlotValues(Operation *op, ElementsAttr values, unsigned slots) {
  auto dense = dyn_cast<DenseElementsAttr>(values);
  auto type = dyn_cast<RankedTensorType>(values.getType());
  Type elt = type ? type.getElementType() : Type();
  auto complexElt = dyn_cast_or_null<ComplexType>(elt);
  bool f64 = elt && elt.isF64(), c64 = complexElt && complexElt.getElementType().isF64();
  if (!dense || !type || type.getRank() != 1 || !(f64 || c64))
    return op->emitOpError() << "values must be a dense tensor of f64 or complex<f64>, got " << values.getType();
  if (type.getDimSize(0) != int64_t(slots))
    return op->emitOpError() << "has " << type.getDimSize(0) << " values, but the ciphertext has " << slots << " slots";
  if (f64) {
    for (APFloat v : dense.getValues<APFloat>())
      if (!v.isFinite()) return op->emitOpError() << "values must be finite";
  } else {
    for (std::complex<APFloat> v : dense.getValues<std::complex<APFloat>>())
      if (!v.real().isFinite() || !v.imag().isFinite()) return op->emitOpError() << "values must be finite";
  }
  return success();
}

std::vector<std::complex<double>> slotValues(ElementsAttr values) {
  auto dense = cast<DenseElementsAttr>(values);
  std::vector<std::complex<double>> out;
  if (dense.getElementType().isF64()) {
    for (double v : dense.getValues<double>()) out.emplace_back(v, 0.0);
  } else {
    for (std::complex<double> v : dense.getValues<std::complex<double>>()) out.push_back(v);
  }
  return out;
}
} // namespace

DenseElementsAttr fhec::ckks::slotValuesAttr(MLIRContext *ctx, ArrayRef<std::complex<double>> values,
                                             ArrayRef<int64_t> shape) {
  Builder b(ctx);
  SmallVector<int64_t> dims(shape.begin(), shape.end());
  if (dims.empty()) dims.push_back(int64_t(values.size()));
  if (llvm::all_of(values, [](const std::complex<double> &v) { return v.imag() == 0; })) {
    SmallVector<double> re = llvm::map_to_vector(values, [](const std::complex<double> &v) { return v.real(); });
    return DenseElementsAttr::get(RankedTensorType::get(dims, b.getF64Type()), ArrayRef<double>(re));
  }
  return DenseElementsAttr::get(RankedTensorType::get(dims, ComplexType::get(b.getF64Type())), values);
}

// Exactly one plaintext: the constant `values` or a !ckks.pt operand of the input's ring and slots.
static LogicalResult verifyPlaintext(Operation *op, std::optional<ElementsAttr> values, Value plain,
                                     CiphertextType in) {
  if (bool(values) == bool(plain))
    return op->emitOpError() << "takes exactly one plaintext: constant 'values' or a !ckks.pt operand";
  if (values) return verifySlotValues(op, *values, in.getSlots());
  auto pt = cast<PlaintextType>(plain.getType());
  if (pt.getLogN() != in.getLogN() || pt.getSlots() != in.getSlots())
    return op->emitOpError() << "plaintext of logN " << pt.getLogN() << " and " << pt.getSlots()
                             << " slots, but the ciphertext has logN " << in.getLogN() << " and " << in.getSlots()
                             << " slots";
  return success();
}

LogicalResult MulPlainOp::verify() {
  auto in = getInput().getType(), r = getResult().getType();
  if (failed(verifyPlaintext(*this, getValues(), getPlain(), in))) return failure();
  ParamsAttr p = getModuleParams(*this);
  if (!p) return verifyAll(*this);
  if (!sameExcept(in, r, false, true)) return emitOpError() << "mul_plain must keep logN, logq and slots";
  if (failed(verifyConstantScale(*this, in, r))) return failure();
  return verifyAll(*this);
}

std::vector<std::complex<double>> MulPlainOp::getSlotValues() { return slotValues(*getValues()); }

LogicalResult AddPlainOp::verify() {
  if (failed(verifyPlaintext(*this, getValues(), getPlain(), getType()))) return failure();
  if (getNegate() && !getPlain()) return emitOpError() << "'negate' applies to a !ckks.pt operand only";
  return verifyAll(*this);  // (AllTypesMatch: input and result)
}

std::vector<std::complex<double>> AddPlainOp::getSlotValues() { return slotValues(*getValues()); }

BsgsPlan BsgsPlan::make(llvm::ArrayRef<int64_t> offsets, int64_t slots, int64_t babyStep, int64_t giantWeight) {
  auto build = [&](int64_t n1) {
    BsgsPlan p;
    p.babyStep = n1;
    std::map<int64_t, std::vector<std::pair<int64_t, size_t>>> groups;
    std::set<int64_t> babies;
    for (auto [i, d] : llvm::enumerate(offsets)) {
      int64_t baby = d % n1;
      groups[d - baby].push_back({baby, i});
      babies.insert(baby);
    }
    p.babies.assign(babies.begin(), babies.end());
    for (auto &[giant, members] : groups) p.groups.push_back({giant, members});
    return p;
  };
  if (babyStep > 0) return build(babyStep);
  BsgsPlan best;
  size_t bestCost = SIZE_MAX;
  for (int64_t n1 = 1; n1 <= slots; n1 *= 2) {
    BsgsPlan p = build(n1);
    size_t cost = p.rotations() + size_t(giantWeight - 1) * p.giantRotations();
    if (cost < bestCost || (cost == bestCost && p.groups.size() < best.groups.size())) {
      best = std::move(p);
      bestCost = cost;
    }
  }
  return best;
}

std::vector<std::complex<double>> fhec::ckks::rotatedDiagonal(const std::vector<std::complex<double>> &diag,
                                                              int64_t giant) {
  size_t n = diag.size();
  std::vector<std::complex<double>> out(n);
  for (size_t j = 0; j < n; ++j) out[j] = diag[(j + n - size_t(giant) % n) % n];
  return out;
}

size_t BsgsPlan::giantRotations() const {
  size_t n = 0;
  for (auto &g : groups) n += g.first != 0;
  return n;
}

size_t BsgsPlan::rotations() const {
  size_t n = giantRotations();
  for (int64_t b : babies) n += b != 0;
  return n;
}

LogicalResult LinearTransformOp::verify() {
  auto in = getInput().getType(), r = getResult().getType();
  int64_t slots = in.getSlots();
  llvm::ArrayRef<int64_t> offsets = getOffsets();
  auto shaped = dyn_cast<ShapedType>(getDiagonals().getType());
  if (!isa<DenseElementsAttr>(getDiagonals()) || !shaped || shaped.getRank() != 2 ||
      shaped.getDimSize(0) != int64_t(offsets.size()) || shaped.getDimSize(1) != slots ||
      !(shaped.getElementType().isF64() || isa<ComplexType>(shaped.getElementType())))
    return emitOpError() << "diagonals must be a dense tensor<" << offsets.size() << "x" << slots
                         << "x(f64 or complex<f64>)>: one row of slot values per offset";
  if (auto c = dyn_cast<ComplexType>(shaped.getElementType()); c && !c.getElementType().isF64())
    return emitOpError() << "diagonals must be f64 or complex<f64>";
  if (offsets.empty()) return emitOpError() << "needs at least one diagonal";
  std::set<int64_t> seen;
  for (int64_t d : offsets) {
    if (d < 0 || d >= slots)
      return emitOpError() << "offset " << d << " must be in [0, slots = " << slots
                           << "): diagonal d holds M[j][(j + d) mod slots]";
    if (!seen.insert(d).second) return emitOpError() << "offset " << d << " appears twice";
  }
  if (auto n1 = getBabyStep(); n1 && int64_t(*n1) > slots)
    return emitOpError() << "baby_step = " << *n1 << " exceeds the " << slots << " slots";
  for (auto [i, row] : llvm::enumerate(getDiagonalRows()))
    for (std::complex<double> v : row)
      if (!std::isfinite(v.real()) || !std::isfinite(v.imag()))
        return emitOpError() << "diagonal " << i << " has a value that is not finite";
  ParamsAttr p = getModuleParams(*this);
  if (!p) return verifyAll(*this);
  if (!sameExcept(in, r, false, true)) return emitOpError() << "linear_transform must keep logN, logq and slots";
  if (failed(verifyConstantScale(*this, in, r))) return failure();
  return verifyAll(*this);
}

BsgsPlan LinearTransformOp::getPlan() {
  ParamsAttr p = getModuleParams(*this);
  int64_t giantWeight = p && p.getDnum() > 1 ? BsgsPlan::kDoubleHoistedGiantWeight : 1;
  return BsgsPlan::make(getOffsets(), getInput().getType().getSlots(), getBabyStep().value_or(0), giantWeight);
}

std::vector<std::vector<std::complex<double>>> LinearTransformOp::getDiagonalRows() {
  std::vector<std::complex<double>> all = slotValues(getDiagonals());
  size_t n = getInput().getType().getSlots();
  std::vector<std::vector<std::complex<double>>> rows;
  for (size_t i = 0; i + n <= all.size(); i += n) rows.emplace_back(all.begin() + i, all.begin() + i + n);
  return rows;
}

std::vector<uint64_t> LinearTransformOp::getGaloisElements() {
  std::vector<uint64_t> g;
  for (int64_t r : getRotationOffsets()) g.push_back(fhec::rt::galoisForRotation(int(getType().getLogN()), r));
  return g;
}

std::vector<int64_t> LinearTransformOp::getRotationOffsets() {
  BsgsPlan plan = getPlan();
  std::set<int64_t> r;
  for (int64_t b : plan.babies)
    if (b) r.insert(b);
  for (auto &g : plan.groups)
    if (g.first) r.insert(g.first);
  return {r.begin(), r.end()};
}

LogicalResult PlaintextType::verify(function_ref<InFlightDiagnostic()> emitError, unsigned logN, unsigned slots) {
  if (logN < kMinLogN || logN > kMaxLogN)
    return emitError() << "plaintext logN = " << logN << " is out of range [" << kMinLogN << ", " << kMaxLogN << "]";
  if (slots < 1 || (slots & (slots - 1)) != 0 || slots > (1u << (logN - 1)))
    return emitError() << "slots = " << slots << " must be a power of two <= N/2 = " << (1u << (logN - 1));
  return success();
}
