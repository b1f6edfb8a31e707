#include "dialect/FHE/IR/FHEDialect.h"
#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Limits.h"
#include "fhec/runtime/Primes.h"
#include "fhec/runtime/Tables.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace fhec::fhe;

#include "dialect/FHE/IR/FHEDialect.cpp.inc"
#include "dialect/FHE/IR/FHEEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "dialect/FHE/IR/FHEAttributes.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "dialect/FHE/IR/FHETypes.cpp.inc"
#define GET_OP_CLASSES
#include "dialect/FHE/IR/FHEOps.cpp.inc"

namespace {
// Prints resolved bases (long prime lists) once, as `#rns_basis...` aliases.
struct FHEOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (auto b = dyn_cast<BasisAttr>(attr); b && b.isResolved()) {
      os << "rns_basis";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void FHEDialect::initialize() {
  addInterfaces<FHEOpAsmInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialect/FHE/IR/FHEAttributes.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialect/FHE/IR/FHETypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialect/FHE/IR/FHEOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #fhe.basis
//===----------------------------------------------------------------------===//

Attribute BasisAttr::parse(AsmParser &p, Type) {
  unsigned minBits = 0, primeBits = 0;
  SmallVector<uint64_t> primes;
  if (p.parseLess() || p.parseKeyword("min_bits") || p.parseEqual() || p.parseInteger(minBits)) return {};
  if (succeeded(p.parseOptionalComma())) {
    if (p.parseKeyword("prime_bits") || p.parseEqual() || p.parseInteger(primeBits) || p.parseComma() ||
        p.parseKeyword("primes") || p.parseEqual() ||
        p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
          uint64_t v;
          if (p.parseInteger(v)) return failure();
          primes.push_back(v);
          return success();
        }))
      return {};
  }
  if (p.parseGreater()) return {};
  return getChecked([&] { return p.emitError(p.getNameLoc()); }, p.getContext(), minBits, primeBits, primes);
}

void BasisAttr::print(AsmPrinter &p) const {
  p << "<min_bits = " << getMinBits();
  if (isResolved()) {
    p << ", prime_bits = " << getPrimeBits() << ", primes = [";
    llvm::interleaveComma(getPrimes(), p);
    p << "]";
  }
  p << ">";
}

LogicalResult BasisAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned minBits,
                                unsigned primeBits, ArrayRef<uint64_t> primes) {
  if (minBits == 0 || minBits > fhec::limits::kMaxBasisBits)
    return emitError() << "basis bound min_bits = " << minBits << " is out of range [1, " << fhec::limits::kMaxBasisBits
                       << "]";
  if (primes.size() > fhec::limits::kMaxBasisPrimes)
    return emitError() << "basis of " << primes.size() << " primes exceeds the limit of " << fhec::limits::kMaxBasisPrimes;
  if (primes.empty()) {
    if (primeBits != 0) return emitError() << "prime_bits given without primes";
    return success();
  }
  if (primeBits < 4 || primeBits > 62) return emitError() << "prime_bits = " << primeBits << " is outside [4, 62]";
  double log2P = 0;
  for (auto [i, p] : llvm::enumerate(primes)) {
    if (p >> primeBits || !(p >> (primeBits - 1)))
      return emitError() << "prime #" << i << " (" << p << ") does not have exactly " << primeBits << " bits";
    if (!fhec::rt::isPrime(p)) return emitError() << "basis element " << p << " is not prime";
    for (size_t k = 0; k < i; ++k)
      if (primes[k] == p) return emitError() << "prime " << p << " appears twice in the basis";
    log2P += std::log2(double(p));
  }
  // Exact check in the runtime's generator; here a conservative floating bound.
  if (log2P < double(minBits) - 1e-9)
    return emitError() << "too few primes: the basis product is about 2^" << unsigned(log2P)
                       << ", below the required 2^" << minBits;
  return success();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult PolyType::verify(function_ref<InFlightDiagnostic()> emitError, unsigned logN, unsigned logq) {
  if (logN < 1 || logN > fhec::limits::kMaxLogN)
    return emitError() << "poly logN = " << logN << " is outside [1, " << fhec::limits::kMaxLogN << "]";
  if (logq < 1 || logq > fhec::limits::kMaxPolyLogq)
    return emitError() << "poly logq = " << logq << " is outside [1, " << fhec::limits::kMaxPolyLogq << "]";
  return success();
}

LogicalResult RnsType::verify(function_ref<InFlightDiagnostic()> emitError, unsigned logN, BasisAttr basis,
                              Domain domain, Layout, unsigned incomplete) {
  if (logN < 1 || logN > fhec::limits::kMaxLogN)
    return emitError() << "rns logN = " << logN << " is outside [1, " << fhec::limits::kMaxLogN << "]";
  if (incomplete && domain != Domain::eval)
    return emitError() << "incomplete = " << incomplete << " applies to the eval domain only";
  if (incomplete >= logN)
    return emitError() << "incomplete = " << incomplete << " must be below logN = " << logN;
  uint64_t twoN = uint64_t(2) << logN;
  for (uint64_t p : basis.getPrimes())
    if ((p - 1) % twoN != 0) return emitError() << "prime " << p << " is not 1 mod 2N (N = 2^" << logN << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Op verifiers
//===----------------------------------------------------------------------===//

namespace {
LogicalResult sameRing(Operation *op, unsigned a, unsigned b) {
  if (a != b) return op->emitOpError() << "ring dimensions differ: logN " << a << " vs " << b;
  return success();
}

// Input and result RNS types agree except on the listed fields.
LogicalResult rnsAgree(Operation *op, RnsType in, RnsType out, bool domain, bool layout, bool basis) {
  if (failed(sameRing(op, in.getLogN(), out.getLogN()))) return failure();
  if (!basis && in.getBasis() != out.getBasis())
    return op->emitOpError() << "RNS bases differ: " << in.getBasis() << " vs " << out.getBasis();
  if (!domain && in.getDomain() != out.getDomain()) return op->emitOpError() << "domains differ";
  if (!layout && in.getLayout() != out.getLayout()) return op->emitOpError() << "layouts differ";
  return success();
}

LogicalResult requireDomain(Operation *op, RnsType t, Domain d, StringRef what) {
  if (t.getDomain() != d)
    return op->emitOpError() << what << " must be in the " << stringifyDomain(d) << " domain, got "
                             << stringifyDomain(t.getDomain());
  return success();
}
} // namespace

LogicalResult CrtOp::verify() {
  auto in = getInput().getType();
  auto out = getResult().getType();
  if (failed(sameRing(*this, in.getLogN(), out.getLogN()))) return failure();
  if (auto w = getWindow()) {
    if (w->size() != 2) return emitOpError() << "window must be [offset, bits], got " << w->size() << " value(s)";
    auto [offset, bits] = getWindowBits();
    // (Compared without forming offset + bits, which may overflow.)
    if (offset < 0 || bits < 1 || offset > int64_t(in.getLogq()) || bits > int64_t(in.getLogq()) - offset)
      return emitOpError() << "window of " << bits << " bits from bit " << offset << " is not within the input's "
                           << in.getLogq() << " bits";
    if (getCentered()) return emitOpError() << "a window is read unsigned: it cannot be 'centered'";
  }
  return requireDomain(*this, out, Domain::coeff, "result");
}

LogicalResult IcrtSumOp::verify() {
  auto out = getResult().getType();
  if (getInputs().empty()) return emitOpError() << "needs at least one input";
  if (getOffsets().size() != getInputs().size())
    return emitOpError() << getOffsets().size() << " offset(s) for " << getInputs().size() << " input(s)";
  for (auto [x, offset] : llvm::zip(getInputs(), getOffsets())) {
    auto in = cast<RnsType>(x.getType());
    if (failed(sameRing(*this, in.getLogN(), out.getLogN()))) return failure();
    if (!in.isCoeff())
      return emitOpError() << "inputs must be in the coeff or coeff_scaled domain, got "
                           << stringifyDomain(in.getDomain());
    if (offset < 0 || offset >= int64_t(out.getLogq()))
      return emitOpError() << "offset " << offset << " is outside [0, " << out.getLogq() << ")";
  }
  if (Value e = getAddend(); e && e.getType() != out)
    return emitOpError() << "addend of type " << e.getType() << " must have the result's type " << out;
  return success();
}

LogicalResult IcrtOp::verify() {
  auto in = getInput().getType();
  auto out = getResult().getType();
  if (failed(sameRing(*this, in.getLogN(), out.getLogN()))) return failure();
  if (getShiftBits() < 0 || getShiftBits() > int64_t(fhec::limits::kMaxPolyLogq))
    return emitOpError() << "shift " << getShiftBits() << " is outside [0, " << fhec::limits::kMaxPolyLogq << "]";
  if (int64_t(out.getLogq()) + getShiftBits() > int64_t(in.getBasis().getMinBits()))
    return emitOpError() << "result modulus 2^" << out.getLogq()
                         << (getShiftBits() ? " times the shift 2^" + std::to_string(getShiftBits()) : std::string())
                         << " exceeds the basis bound 2^" << in.getBasis().getMinBits();
  if (!in.isCoeff())
    return emitOpError() << "input must be in the coeff or coeff_scaled domain, got " << stringifyDomain(in.getDomain());
  if (getRound() && getShiftBits() == 0) return emitOpError() << "'round' needs a shift of at least one bit";
  if (Value e = getAddend()) {
    auto et = cast<PolyType>(e.getType());
    if (failed(sameRing(*this, in.getLogN(), et.getLogN()))) return failure();
    if (et.getLogq() > fhec::limits::kMaxAddendBits)
      return emitOpError() << "addend of " << et.getLogq() << " bits: at most " << fhec::limits::kMaxAddendBits
                           << " (a small signed polynomial, below every prime)";
  }
  return success();
}

// `levels` partitions the stages an NTT does: positive, summing to logN - incomplete.
static LogicalResult verifyLevels(Operation *op, std::optional<ArrayRef<int64_t>> levels, RnsType evalType) {
  if (!levels) return success();
  int64_t stages = int64_t(evalType.getLogN()) - evalType.getIncomplete(), sum = 0;
  for (int64_t k : *levels) {
    if (k < 1 || k > stages)
      return op->emitOpError() << "level of " << k << " stages is outside [1, " << stages << "]";
    sum += k;
  }
  if (sum != stages)
    return op->emitOpError() << "levels cover " << sum << " stages, but the transform has " << stages
                             << " (logN " << evalType.getLogN() << " minus " << evalType.getIncomplete()
                             << " skipped)";
  return success();
}

LogicalResult NttOp::verify() {
  auto in = getInput().getType(), out = getResult().getType();
  if (failed(rnsAgree(*this, in, out, true, false, false)) ||
      failed(requireDomain(*this, in, Domain::coeff, "input")) ||
      failed(requireDomain(*this, out, Domain::eval, "result")))
    return failure();
  return verifyLevels(*this, getLevels(), out);
}

LogicalResult InttOp::verify() {
  auto in = getInput().getType(), out = getResult().getType();
  if (failed(rnsAgree(*this, in, out, true, false, false)) ||
      failed(requireDomain(*this, in, Domain::eval, "input")))
    return failure();
  if (!out.isCoeff())
    return emitOpError() << "result must be in the coeff or coeff_scaled domain";
  return verifyLevels(*this, getLevels(), in);
}

LogicalResult HadamardOp::verify() { return requireDomain(*this, getResult().getType(), Domain::eval, "operands"); }

//===----------------------------------------------------------------------===//
// Fused kernels and tables
//===----------------------------------------------------------------------===//

YieldOp FusedOp::getYield() { return cast<YieldOp>(getBody()->getTerminator()); }

LogicalResult FusedOp::verify() {
  if (getInputs().empty() || getResults().empty()) return emitOpError() << "needs operands and results";
  return success();
}

LogicalResult FusedOp::verifyRegions() {
  Block &body = *getBody();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError() << "body has " << body.getNumArguments() << " arguments for " << getInputs().size()
                         << " operands";
  for (auto [i, a] : llvm::enumerate(body.getArguments()))
    if (a.getType() != getInputs()[i].getType())
      return emitOpError() << "body argument #" << i << " has type " << a.getType() << ", operand has "
                           << getInputs()[i].getType();
  YieldOp yield = getYield();
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError() << "yields " << yield.getValues().size() << " value(s) of types that differ from the results";
  for (Value v : yield.getValues())
    if (isa<BlockArgument>(v)) return emitOpError() << "yields an operand unchanged; a fused kernel computes its results";
  bool residue = getSpace() == Space::residue;
  for (Operation &op : body.without_terminator()) {
    bool ok = false;
    switch (getSpace()) {
    case Space::residue: {
      // An automorphism gathers from a kernel input: the permutation of a
      // complete NTT's prime-major slots.
      auto a = dyn_cast<AutomorphismOp>(op);
      ok = isa<HadamardOp, AddOp, SubOp>(op);
      if (a) {
        RnsType t = a.getResult().getType();
        if (!isa<BlockArgument>(a.getInput()) || t.getDomain() != Domain::eval || t.getIncomplete() ||
            t.getLayout() != Layout::prime_major)
          return op.emitOpError() << "in a residue kernel must permute a kernel operand's prime-major slots of a "
                                     "complete NTT";
        ok = true;
      }
      break;
    }
    case Space::coefficient:
      ok = isa<IcrtOp, CrtOp, PolyAddOp, PolySubOp, PolyNegateOp, PolyShrOp, PolyReduceOp, PolyModRaiseOp,
               PolyAddScalarOp>(op);
      break;
    case Space::transform: ok = isa<NttOp, InttOp>(op); break;
    case Space::rows: {
      auto inner = dyn_cast<FusedOp>(op);
      ok = isa<NttOp, InttOp, AutomorphismOp, HadamardOp, AddOp, SubOp>(op) ||
           (inner && (inner.getSpace() == Space::transform || inner.getSpace() == Space::residue));
      break;
    }
    }
    if (!ok)
      return op.emitOpError() << "cannot be fused in a " << stringifySpace(getSpace()) << " kernel";
  }
  if (getSpace() == Space::transform) {
    // A batch: transforms of the block arguments, all alike.
    Operation *first = &body.front();
    for (Operation &op : body.without_terminator()) {
      if (op.getName() != first->getName() || op.getOperandTypes() != first->getOperandTypes() ||
          op.getResultTypes() != first->getResultTypes() || op.getAttrDictionary() != first->getAttrDictionary())
        return emitOpError() << "a transform kernel batches transforms of one direction, type and level grouping";
      if (!isa<BlockArgument>(op.getOperand(0)))
        return op.emitOpError() << "in a transform kernel must transform an operand of the kernel";
    }
  } else if (getSpace() == Space::rows) {
    // Row by row: every value is a prime-major RNS matrix of one basis and ring.
    auto first = dyn_cast<RnsType>(getResultTypes().front());
    for (Type t : llvm::concat<const Type>(getInputs().getTypes(), getResultTypes())) {
      auto r = dyn_cast<RnsType>(t);
      if (!r || !first || r.getBasis() != first.getBasis() || r.getLogN() != first.getLogN() ||
          r.getLayout() != Layout::prime_major)
        return emitOpError() << "a rows kernel's operands and results must be prime-major RNS values of one basis";
    }
  } else if (residue) {
    // One iteration space: every value of the kernel has the same basis and ring.
    auto first = dyn_cast<RnsType>(getResultTypes().empty() ? Type() : getResultTypes().front());
    bool gathers = llvm::any_of(body.without_terminator(), llvm::IsaPred<AutomorphismOp>);
    for (Type t : llvm::concat<const Type>(getInputs().getTypes(), getResultTypes())) {
      auto r = dyn_cast<RnsType>(t);
      if (!r || !first || r.getBasis() != first.getBasis() || r.getLogN() != first.getLogN())
        return emitOpError() << "a residue kernel's operands and results must be RNS values of one basis";
      // A gather reads one residue per element: the kernel's elements are single residues.
      if (gathers && (r.getIncomplete() || r.getLayout() != Layout::prime_major))
        return emitOpError() << "a residue kernel with an automorphism works on prime-major residues of complete "
                                "NTTs only";
    }
  } else {
    std::optional<unsigned> logN;
    for (Type t : llvm::concat<const Type>(getInputs().getTypes(), getResultTypes())) {
      unsigned n = isa<PolyType>(t) ? cast<PolyType>(t).getLogN() : isa<RnsType>(t) ? cast<RnsType>(t).getLogN() : 0;
      if (!n) return emitOpError() << "operand or result of type " << t << " is not an fhe type";
      if (logN && *logN != n) return emitOpError() << "mixes ring dimensions";
      logN = n;
    }
  }
  return success();
}

LogicalResult TableOp::verify() {
  auto kind = fhec::abi::parseTableKind(getKind().str());
  if (!kind) return emitOpError() << "unknown table kind '" << getKind() << "'";
  BasisAttr basis = getBasis();
  if (!basis.isResolved()) return emitOpError() << "needs a resolved basis (run fhe-select-basis first)";
  auto t = cast<MemRefType>(getTable().getType());
  // (i32: the words' halves, low first, twice the columns.)
  if (t.getRank() != 2 || !(t.getElementType().isInteger(64) || t.getElementType().isInteger(32)))
    return emitOpError() << "table must be a 2-D memref of i64 (or of i32, the words' halves)";
  // The ring dimension is not in the basis: check the columns that do not depend on it.
  std::vector<uint64_t> primes(basis.getPrimes().begin(), basis.getPrimes().end());
  int64_t pLimbs = fhec::rt::productLimbs(primes);
  int64_t param = getParam();
  if (param < 0) return emitOpError() << "parameter " << param << " is negative";
  using fhec::abi::TableKind;
  if (*kind == TableKind::IcrtColumns || *kind == TableKind::IcrtColumns30) {
    if (t.getShape()[1] != int64_t(basis.size()))
      return emitOpError() << "table has " << t.getShape()[1] << " columns for a basis of " << basis.size() << " primes";
    if (param < 1) return emitOpError() << "needs at least one digit";
    return success();
  }
  if (*kind == TableKind::IcrtNegP || *kind == TableKind::IcrtNegP30) return success();
  if (*kind == TableKind::IcrtWindow) {
    int64_t rows = fhec::abi::icrtWindowColumns(param, fhec::rt::productBits(primes));
    if (t.getShape()[1] != int64_t(basis.size()) + 3 || t.getShape()[0] != rows)
      return emitOpError() << "table of shape " << t.getShape()[0] << "x" << t.getShape()[1] << " for a window table of "
                           << rows << "x" << basis.size() + 3;
    if (param >= 51) return emitOpError() << "window shift " << param << " is not below 51";
    return success();
  }
  if (*kind == TableKind::IcrtWinograd) {
    if (t.getShape()[1] != int64_t(basis.size()) + 3)
      return emitOpError() << "table has " << t.getShape()[1] << " columns for a basis of " << basis.size()
                           << " primes (expected the primes and three more)";
    if (param < 1) return emitOpError() << "needs at least one digit";
    return success();
  }
  bool perPrime = *kind != TableKind::IcrtP;
  if (t.getShape()[0] != (perPrime ? int64_t(basis.size()) : 1))
    return emitOpError() << "table has " << t.getShape()[0] << " rows for a basis of " << basis.size() << " primes";
  if ((*kind == fhec::abi::TableKind::IcrtP || *kind == fhec::abi::TableKind::IcrtPDivP) && param > pLimbs)
    return emitOpError() << "keeps " << param << " limbs of a product of " << pLimbs;
  return success();
}

LogicalResult TransposeOp::verify() {
  auto in = getInput().getType(), out = getResult().getType();
  if (failed(rnsAgree(*this, in, out, false, true, false))) return failure();
  if (in.getLayout() == out.getLayout()) return emitOpError() << "result layout must differ from the input's";
  return success();
}

LogicalResult BasisPrefixOp::verify() {
  auto in = getInput().getType(), out = getResult().getType();
  if (failed(rnsAgree(*this, in, out, false, false, true))) return failure();
  BasisAttr a = in.getBasis(), b = out.getBasis();
  if (b.getMinBits() > a.getMinBits())
    return emitOpError() << "result basis bound 2^" << b.getMinBits() << " exceeds the input's 2^" << a.getMinBits();
  if (a.isResolved() != b.isResolved())
    return emitOpError() << "input and result bases must both be resolved or both unresolved";
  if (a.isResolved() && (b.size() > a.size() || b.getPrimes() != a.getPrimes().take_front(b.size())))
    return emitOpError() << "result basis is not a prefix of the input basis";
  return success();
}


LogicalResult PolyShrOp::verify() {
  auto in = getInput().getType(), out = getResult().getType();
  if (failed(sameRing(*this, in.getLogN(), out.getLogN()))) return failure();
  int64_t s = getShift();
  if (s < 1 || s >= int64_t(in.getLogq()))
    return emitOpError() << "shift " << s << " must be in [1, logq = " << in.getLogq() << ")";
  if (out.getLogq() != in.getLogq() - s)
    return emitOpError() << "result logq must be " << in.getLogq() - s << " (input logq minus the shift)";
  return success();
}

LogicalResult PolyAddScalarOp::verify() {
  const APInt &v = getValue();
  unsigned logq = getResult().getType().getLogq();
  if (v.isNegative() || v.getActiveBits() > logq)
    return emitOpError() << "value must be in [0, 2^" << logq << ")";
  return success();
}

LogicalResult PolyReduceOp::verify() {
  auto in = getInput().getType(), out = getResult().getType();
  if (failed(sameRing(*this, in.getLogN(), out.getLogN()))) return failure();
  if (out.getLogq() > in.getLogq())
    return emitOpError() << "result modulus 2^" << out.getLogq() << " exceeds the input's 2^" << in.getLogq();
  return success();
}

LogicalResult PolyModRaiseOp::verify() {
  auto in = getInput().getType(), out = getResult().getType();
  if (failed(sameRing(*this, in.getLogN(), out.getLogN()))) return failure();
  if (out.getLogq() <= in.getLogq())
    return emitOpError() << "result modulus 2^" << out.getLogq() << " must exceed the input's 2^" << in.getLogq();
  return success();
}


namespace {
// `galois` of an automorphism: odd, in [3, 2N).
LogicalResult verifyGalois(Operation *op, int64_t g, unsigned logN) {
  int64_t twoN = int64_t(2) << logN;
  if (g < 3 || g >= twoN || g % 2 == 0)
    return op->emitOpError() << "galois = " << g << " must be an odd number in [3, 2N = " << twoN << ")";
  return success();
}
} // namespace

LogicalResult AutomorphismOp::verify() {
  auto t = getResult().getType();
  if (t.getDomain() == Domain::coeff_scaled)
    return emitOpError() << "input must be in the coeff domain (residues of the coefficients) or the eval domain, got "
                         << stringifyDomain(t.getDomain());
  if (t.getDomain() == Domain::eval && t.getIncomplete() != 0)
    return emitOpError() << "an evaluation-domain automorphism needs a complete NTT, got incomplete = "
                         << t.getIncomplete();
  return verifyGalois(*this, getGalois(), t.getLogN());
}

LogicalResult PolyAutomorphismOp::verify() { return verifyGalois(*this, getGalois(), getResult().getType().getLogN()); }

LogicalResult PolyMulMonomialOp::verify() {
  int64_t twoN = int64_t(2) << getResult().getType().getLogN(), k = int64_t(getK());
  if (k < 0 || k >= twoN) return emitOpError() << "k must be in [0, 2N) = [0, " << twoN << "), got " << k;
  return success();
}

LogicalResult PolyConstantOp::verify() {
  auto t = getResult().getType();
  auto vt = cast<ShapedType>(getValue().getType());
  if (vt.getRank() != 1 || vt.getDimSize(0) != t.getN())
    return emitOpError() << "value must hold N = " << t.getN() << " coefficients, got " << vt;
  if (vt.getElementType().getIntOrFloatBitWidth() > fhec::limits::kMaxPolyLogq)
    return emitOpError() << "coefficients wider than " << fhec::limits::kMaxPolyLogq << " bits";
  return success();
}

LogicalResult PrimeCountOp::verify() {
  if (!getBasis().isResolved()) return emitOpError() << "needs a resolved basis (run fhe-select-basis first)";
  return success();
}

bool fhec::fhe::sameShape(Operation *a, Operation *b) {
  return a->getName() == b->getName() && a->getOperandTypes() == b->getOperandTypes() &&
         a->getResultTypes() == b->getResultTypes() && a->getAttrDictionary() == b->getAttrDictionary();
}

std::optional<ArrayRef<int64_t>> fhec::fhe::transformLevels(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<ArrayRef<int64_t>>>(op)
      .Case<NttOp, InttOp>([](auto t) { return t.getLevels(); })
      .Default([](Operation *) { return std::nullopt; });
}

void fhec::fhe::setTransformLevels(Operation *op, ArrayRef<int64_t> levels) {
  llvm::TypeSwitch<Operation *>(op).Case<NttOp, InttOp>([&](auto t) { t.setLevels(levels); });
}

std::optional<uint64_t> fhec::fhe::conversionBlock(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<uint64_t>>(op)
      .Case<CrtOp, IcrtOp, IcrtSumOp>([](auto c) { return c.getBlock(); })
      .Default([](Operation *) { return std::nullopt; });
}

bool fhec::fhe::hasConversionOrder(Operation *op) {
  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case<CrtOp, IcrtOp>([](auto c) { return c.getOrder().has_value(); })
      .Default([](Operation *) { return false; });
}

void fhec::fhe::setConversionOrder(Operation *op, Order order, uint64_t block) {
  llvm::TypeSwitch<Operation *>(op).Case<CrtOp, IcrtOp>([&](auto c) {
    c.setOrder(order);
    c.setBlock(block);
  });
}
