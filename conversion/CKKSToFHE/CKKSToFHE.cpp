// ckks-to-fhe: HE Mul as the CRT -> NTT -> Hadamard -> iNTT -> iCRT dataflow of
// HEAAN's Scheme::mult (Jung et al. 2021, Fig. 2); HE Add/Sub/Negate, rescale,
// mod_down and constant ops as BigInt pointwise ops.
#include "conversion/Passes.h"
#include "passes/Bounds.h"

#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Reference.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

namespace fhec {
#define GEN_PASS_DEF_CKKSTOFHE
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

using Pair = std::pair<Value, Value>;  // (ax, bx)

/// Lowers the body of one function; one method per ckks op.
class FunctionLowering {
public:
  FunctionLowering(OpBuilder &b, ckks::ParamsAttr params, fhe::BasisAttr evkBasis, Value evkAx, Value evkBx)
      : b(b), params(params), evkBasis(evkBasis), evkAx(evkAx), evkBx(evkBx) {}

  llvm::DenseMap<Value, Pair> map;

  LogicalResult lower(Operation *op) {
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case<ckks::AddOp>([&](auto o) { return binary<fhe::PolyAddOp>(o); })
        .Case<ckks::SubOp>([&](auto o) { return binary<fhe::PolySubOp>(o); })
        .Case<ckks::NegateOp>([&](ckks::NegateOp o) {
          Pair in = map.at(o.getInput());
          map[o.getResult()] = {fhe::PolyNegateOp::create(b, o.getLoc(), in.first),
                                fhe::PolyNegateOp::create(b, o.getLoc(), in.second)};
          return success();
        })
        .Case<ckks::MulOp>([&](ckks::MulOp o) { return lowerMul(o); })
        .Case<ckks::RescaleOp>([&](ckks::RescaleOp o) {
          auto in = o.getInput().getType(), out = o.getResult().getType();
          Type t = polyType(out.getLogq());
          int64_t d = in.getLogq() - out.getLogq();
          Pair p = map.at(o.getInput());
          map[o.getResult()] = {fhe::PolyShrOp::create(b, o.getLoc(), t, p.first, d),
                                fhe::PolyShrOp::create(b, o.getLoc(), t, p.second, d)};
          return success();
        })
        .Case<ckks::ModDownOp>([&](ckks::ModDownOp o) {
          Type t = polyType(o.getResult().getType().getLogq());
          Pair p = map.at(o.getInput());
          map[o.getResult()] = {fhe::PolyReduceOp::create(b, o.getLoc(), t, p.first),
                                fhe::PolyReduceOp::create(b, o.getLoc(), t, p.second)};
          return success();
        })
        .Case<ckks::MulConstOp>([&](ckks::MulConstOp o) -> LogicalResult {
          auto k = scaled(o, o.getValue().convertToDouble(), params.getLogp());
          if (failed(k)) return failure();
          Pair p = map.at(o.getInput());
          map[o.getResult()] = {fhe::PolyMulScalarOp::create(b, o.getLoc(), p.first, *k),
                                fhe::PolyMulScalarOp::create(b, o.getLoc(), p.second, *k)};
          return success();
        })
        .Case<ckks::AddConstOp>([&](ckks::AddConstOp o) -> LogicalResult {
          auto k = scaled(o, o.getValue().convertToDouble(), o.getInput().getType().getLogp());
          if (failed(k)) return failure();
          Pair p = map.at(o.getInput());
          map[o.getResult()] = {p.first, fhe::PolyAddConstantTermOp::create(b, o.getLoc(), p.second, *k)};
          return success();
        })
        .Default([&](Operation *o) {
          return o->emitOpError() << "is not supported by ckks-to-fhe";
        });
  }

private:
  OpBuilder &b;
  ckks::ParamsAttr params;
  fhe::BasisAttr evkBasis;
  Value evkAx, evkBx;
  // NTT'd operands shared between products: (BigInt value, basis) -> eval-domain RNS.
  llvm::DenseMap<std::pair<Value, Attribute>, Value> evalCache;

  fhe::PolyType polyType(unsigned logq) { return fhe::PolyType::get(b.getContext(), params.getLogN(), logq); }

  fhe::RnsType rnsType(fhe::BasisAttr basis, fhe::Domain d) {
    return fhe::RnsType::get(b.getContext(), params.getLogN(), basis, d, fhe::Layout::prime_major);
  }

  template <typename PolyOp, typename CkksOp> LogicalResult binary(CkksOp o) {
    Pair l = map.at(o.getLhs()), r = map.at(o.getRhs());
    map[o.getResult()] = {PolyOp::create(b, o.getLoc(), l.first, r.first),
                          PolyOp::create(b, o.getLoc(), l.second, r.second)};
    return success();
  }

  // round(value * 2^logScale) as a signed integer attribute wide enough to hold it.
  FailureOr<IntegerAttr> scaled(Operation *op, double value, unsigned logScale) {
    bool negative = false;
    std::vector<uint64_t> mag;
    try {
      rt::scaleConstant(value, int(logScale), negative, mag);
    } catch (const rt::Error &e) {
      return op->emitOpError() << e.what();
    }
    llvm::APInt k(unsigned(64 * mag.size() + 64), llvm::ArrayRef<uint64_t>(mag));
    if (negative) k.negate();
    return b.getIntegerAttr(b.getIntegerType(k.getBitWidth()), k);
  }

  // CRT then NTT of a BigInt polynomial into `basis` (shared per operand).
  Value toEval(Location loc, Value poly, fhe::BasisAttr basis) {
    auto key = std::make_pair(poly, Attribute(basis));
    auto it = evalCache.find(key);
    if (it != evalCache.end()) return it->second;
    Value c = fhe::CrtOp::create(b, loc, rnsType(basis, fhe::Domain::coeff), poly);
    Value e = fhe::NttOp::create(b, loc, rnsType(basis, fhe::Domain::eval), c);
    evalCache[key] = e;
    return e;
  }

  // iNTT then iCRT, reconstructing mod 2^logq.
  Value toPoly(Location loc, Value eval, unsigned logq) {
    auto t = cast<fhe::RnsType>(eval.getType());
    Value c = fhe::InttOp::create(b, loc, t.withDomain(fhe::Domain::coeff), eval);
    return fhe::IcrtOp::create(b, loc, polyType(logq), c);
  }

  // HE Mul, Fig. 2: region 1 (Karatsuba tensor product mod q) and region 2
  // (relinearization: ((axax * evk) mod qQ) >> logQ).
  LogicalResult lowerMul(ckks::MulOp o) {
    Location loc = o.getLoc();
    unsigned logN = params.getLogN(), logQ = params.getLogQ();
    unsigned logq = o.getLhs().getType().getLogq();
    Pair x = map.at(o.getLhs()), y = map.at(o.getRhs());

    auto r1 = fhe::BasisAttr::get(b.getContext(), region1Bits(logN, logq));
    Value a1 = toEval(loc, x.first, r1), b1 = toEval(loc, x.second, r1);
    Value a2 = toEval(loc, y.first, r1), b2 = toEval(loc, y.second, r1);
    Value axaxE = fhe::HadamardOp::create(b, loc, a1, a2);
    Value bxbxE = fhe::HadamardOp::create(b, loc, b1, b2);
    Value s1 = fhe::AddOp::create(b, loc, a1, b1);
    Value s2 = fhe::AddOp::create(b, loc, a2, b2);
    Value tE = fhe::HadamardOp::create(b, loc, s1, s2);
    // Karatsuba's axbx = t - axax - bxbx on the residues: the iCRT of the
    // difference is exact, since |a1 b2 + a2 b1| <= 2 N q^2 is well inside
    // region 1's bound (P > 16 N (2q)^2), and it saves two BigInt passes.
    Value axbxE = fhe::SubOp::create(b, loc, fhe::SubOp::create(b, loc, tE, axaxE), bxbxE);
    Value axax = toPoly(loc, axaxE, logq);
    Value bxbx = toPoly(loc, bxbxE, logq);
    Value axbx = toPoly(loc, axbxE, logq);

    auto r2 = fhe::BasisAttr::get(b.getContext(), region2Bits(logN, logq, logQ));
    Value d2 = toEval(loc, axax, r2);
    auto evkView = [&](Value evk) -> Value {
      if (r2 == evkBasis) return evk;
      return fhe::BasisPrefixOp::create(b, loc, rnsType(r2, fhe::Domain::eval), evk);
    };
    Value axmult = toPoly(loc, fhe::HadamardOp::create(b, loc, d2, evkView(evkAx)), logq + logQ);
    Value bxmult = toPoly(loc, fhe::HadamardOp::create(b, loc, d2, evkView(evkBx)), logq + logQ);
    Type qt = polyType(logq);
    axmult = fhe::PolyShrOp::create(b, loc, qt, axmult, int64_t(logQ));
    bxmult = fhe::PolyShrOp::create(b, loc, qt, bxmult, int64_t(logQ));
    map[o.getResult()] = {fhe::PolyAddOp::create(b, loc, axmult, axbx), fhe::PolyAddOp::create(b, loc, bxmult, bxbx)};
    return success();
  }
};

struct CKKSToFHEPass : public fhec::impl::CKKSToFHEBase<CKKSToFHEPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    ckks::ParamsAttr params = ckks::getModuleParams(module);
    SmallVector<func::FuncOp> funcs;
    for (auto f : module.getOps<func::FuncOp>())
      if (usesCKKS(f)) funcs.push_back(f);
    if (funcs.empty()) return;
    if (!params) {
      module.emitError() << "ckks-to-fhe requires the module attribute 'ckks.params'";
      return signalPassFailure();
    }

    // The evaluation key is prepared once, in the region-2 basis of the
    // highest level any HE Mul runs at; lower levels read a prefix.
    unsigned maxMulLogq = 0;
    module.walk([&](ckks::MulOp m) { maxMulLogq = std::max(maxMulLogq, m.getLhs().getType().getLogq()); });
    fhe::BasisAttr evkBasis;
    if (maxMulLogq) {
      evkBasis = fhe::BasisAttr::get(ctx, region2Bits(params.getLogN(), maxMulLogq, params.getLogQ()));
      emitEvkPrepare(module, params, evkBasis);
    }
    for (func::FuncOp f : funcs)
      if (failed(lowerFunction(f, params, evkBasis))) return signalPassFailure();
  }

  static bool usesCKKS(func::FuncOp f) {
    auto isCkks = [](Type t) { return isa<ckks::CiphertextType>(t); };
    if (llvm::any_of(f.getArgumentTypes(), isCkks) || llvm::any_of(f.getResultTypes(), isCkks)) return true;
    bool found = false;
    f.walk([&](Operation *op) {
      if (isa<ckks::CKKSDialect>(op->getDialect())) found = true;
    });
    return found;
  }

  // func @__fhec_evk_prepare(%key: !fhe.poly<logq = 2 logQ>) -> !fhe.rns<evk basis, eval>
  void emitEvkPrepare(ModuleOp module, ckks::ParamsAttr params, fhe::BasisAttr basis) {
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    b.setInsertionPointToEnd(module.getBody());
    Location loc = module.getLoc();
    auto keyT = fhe::PolyType::get(ctx, params.getLogN(), 2 * params.getLogQ());
    auto coeffT = fhe::RnsType::get(ctx, params.getLogN(), basis, fhe::Domain::coeff, fhe::Layout::prime_major);
    auto evalT = coeffT.withDomain(fhe::Domain::eval);
    auto f = func::FuncOp::create(b, loc, abi::kEvkPrepareFunc, b.getFunctionType({keyT}, {evalT}));
    f.setArgAttr(0, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr("key"));
    f.setResultAttr(0, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr("keyrns"));
    Block *body = f.addEntryBlock();
    b.setInsertionPointToStart(body);
    Value c = fhe::CrtOp::create(b, loc, coeffT, body->getArgument(0));
    Value e = fhe::NttOp::create(b, loc, evalT, c);
    func::ReturnOp::create(b, loc, e);
  }

  LogicalResult lowerFunction(func::FuncOp f, ckks::ParamsAttr params, fhe::BasisAttr evkBasis) {
    MLIRContext *ctx = f.getContext();
    OpBuilder b(ctx);
    if (!f.getBody().hasOneBlock())
      return f.emitOpError() << "ckks-to-fhe supports straight-line functions only (one block)";
    bool hasMul = false;
    f.walk([&](ckks::MulOp) { hasMul = true; });

    // New signature: (ct0.ax, ct0.bx, ..., [evk.ax, evk.bx]) -> (out0.ax, out0.bx, ...).
    SmallVector<Type> argTypes, resTypes;
    SmallVector<Attribute> ctIn, ctOut;
    auto expand = [&](TypeRange types, SmallVectorImpl<Type> &out, SmallVectorImpl<Attribute> &info) -> LogicalResult {
      for (Type t : types) {
        auto ct = dyn_cast<ckks::CiphertextType>(t);
        if (!ct) return f.emitOpError() << "has a non-ciphertext argument or result of type " << t
                                        << ", which ckks-to-fhe does not support";
        auto pt = fhe::PolyType::get(ctx, ct.getLogN(), ct.getLogq());
        out.append({pt, pt});
        info.push_back(b.getDenseI64ArrayAttr({ct.getLogq(), ct.getLogp(), ct.getSlots()}));
      }
      return success();
    };
    if (failed(expand(f.getArgumentTypes(), argTypes, ctIn)) || failed(expand(f.getResultTypes(), resTypes, ctOut)))
      return failure();
    unsigned numCtArgs = argTypes.size();
    if (hasMul) {
      auto evkT = fhe::RnsType::get(ctx, params.getLogN(), evkBasis, fhe::Domain::eval, fhe::Layout::prime_major);
      argTypes.append({evkT, evkT});
    }

    b.setInsertionPoint(f);
    auto nf = func::FuncOp::create(b, f.getLoc(), f.getName(), b.getFunctionType(argTypes, resTypes));
    nf.setVisibility(f.getVisibility());
    for (unsigned i = 0; i < numCtArgs; ++i)
      nf.setArgAttr(i, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr("ct" + std::to_string(i / 2) + (i % 2 ? ".bx" : ".ax")));
    if (hasMul) {
      nf.setArgAttr(numCtArgs, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr("evk.ax"));
      nf.setArgAttr(numCtArgs + 1, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr("evk.bx"));
    }
    for (unsigned i = 0; i < resTypes.size(); ++i)
      nf.setResultAttr(i, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr("ct" + std::to_string(i / 2) + (i % 2 ? ".bx" : ".ax")));
    nf->setAttr(fhe::FHEDialect::getCtInputsAttrName(), b.getArrayAttr(ctIn));
    nf->setAttr(fhe::FHEDialect::getCtOutputsAttrName(), b.getArrayAttr(ctOut));

    Block *body = nf.addEntryBlock();
    b.setInsertionPointToStart(body);
    FunctionLowering lowering(b, params, evkBasis, hasMul ? body->getArgument(numCtArgs) : Value(),
                              hasMul ? body->getArgument(numCtArgs + 1) : Value());
    for (auto [i, arg] : llvm::enumerate(f.getArguments()))
      lowering.map[arg] = {body->getArgument(2 * i), body->getArgument(2 * i + 1)};

    for (Operation &op : f.getBody().front()) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        SmallVector<Value> results;
        for (Value v : ret.getOperands()) {
          Pair p = lowering.map.at(v);
          results.append({p.first, p.second});
        }
        func::ReturnOp::create(b, ret.getLoc(), results);
        continue;
      }
      if (failed(lowering.lower(&op))) {
        nf.erase();
        return failure();
      }
    }
    f.erase();
    return success();
  }
};

} // namespace
