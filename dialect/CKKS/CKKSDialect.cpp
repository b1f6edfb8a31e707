#include "dialect/CKKS/CKKSDialect.h"

#include "fhec/runtime/Limits.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace fhec::ckks;

#include "dialect/CKKS/CKKSDialect.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "dialect/CKKS/CKKSAttributes.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "dialect/CKKS/CKKSTypes.cpp.inc"
#define GET_OP_CLASSES
#include "dialect/CKKS/CKKSOps.cpp.inc"

void CKKSDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialect/CKKS/CKKSAttributes.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialect/CKKS/CKKSTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialect/CKKS/CKKSOps.cpp.inc"
      >();
}

ParamsAttr fhec::ckks::getModuleParams(Operation *op) {
  auto module = isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  if (!module) return {};
  return module->getAttrOfType<ParamsAttr>(CKKSDialect::getParamsAttrName());
}

//===----------------------------------------------------------------------===//
// Attributes and types
//===----------------------------------------------------------------------===//

using namespace fhec::limits;

LogicalResult ParamsAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned logN,
                                 unsigned logQ, unsigned logp, StringAttr security) {
  if (logN < kMinLogN || logN > kMaxLogN)
    return emitError() << "logN = " << logN << " is out of range: N = 2^logN must be a power of two with "
                       << kMinLogN << " <= logN <= " << kMaxLogN;
  if (logQ < 1 || logQ > kMaxLogQ) return emitError() << "logQ = " << logQ << " is out of range [1, " << kMaxLogQ << "]";
  if (logp < 1 || logp >= logQ) return emitError() << "logp = " << logp << " must be in [1, logQ = " << logQ << ")";
  if (security && !llvm::is_contained({"none", "128", "192", "256"}, security.getValue()))
    return emitError() << "security = \"" << security.getValue()
                       << "\" is not a level: expected \"128\", \"192\", \"256\" or \"none\" (no check)";
  return success();
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
    if (failed(verifyAgainstParams(op, cast<CiphertextType>(t)))) return failure();
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

LogicalResult AddOp::verify() { return verifySameType(*this); }
LogicalResult SubOp::verify() { return verifySameType(*this); }
LogicalResult NegateOp::verify() { return verifySameType(*this); }
LogicalResult AddConstOp::verify() { return verifySameType(*this); }

LogicalResult MulOp::verify() {
  auto a = getLhs().getType(), b = getRhs().getType(), r = getResult().getType();
  if (a.getLogN() != b.getLogN() || a.getLogq() != b.getLogq() || a.getSlots() != b.getSlots())
    return emitOpError() << "operands must share logN, logq and slots, got " << a << " and " << b;
  if (r.getLogN() != a.getLogN() || r.getLogq() != a.getLogq() || r.getSlots() != a.getSlots())
    return emitOpError() << "result must keep logN, logq and slots of the operands";
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

LogicalResult ModDownOp::verify() {
  auto in = getInput().getType(), r = getResult().getType();
  if (!sameExcept(in, r, true, false)) return emitOpError() << "mod_down must keep logN, logp and slots";
  if (r.getLogq() >= in.getLogq())
    return emitOpError() << "result logq = " << r.getLogq() << " must be smaller than the input's logq = " << in.getLogq();
  return verifyAll(*this);
}

LogicalResult MulConstOp::verify() {
  auto in = getInput().getType(), r = getResult().getType();
  ParamsAttr p = getModuleParams(*this);
  if (!p) return verifyAll(*this);
  if (!sameExcept(in, r, false, true)) return emitOpError() << "mul_const must keep logN, logq and slots";
  if (r.getLogp() != in.getLogp() + p.getLogp())
    return emitOpError() << "result logp must be " << in.getLogp() + p.getLogp()
                         << " (input logp plus the module's logp), got " << r.getLogp();
  if (!std::isfinite(getValue().convertToDouble())) return emitOpError() << "constant must be finite";
  return verifyAll(*this);
}
