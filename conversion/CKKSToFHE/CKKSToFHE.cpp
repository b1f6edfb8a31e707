// ckks-to-fhe: each function on ciphertexts becomes one on their (ax, bx)
// BigInt polynomials, with the keys it needs as arguments (each key's role
// in fhe.role), its body lowered op by op (FunctionLowering.h); the key
// preparation functions (__fhec_evk_prepare and the encapsulation keys')
// are added to the module.
#include "conversion/CKKSToFHE/FunctionLowering.h"
#include "conversion/Passes.h"
#include "conversion/CKKSToFHE/Bounds.h"

#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Keys.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <set>

namespace fhec {
#define GEN_PASS_DEF_CKKSTOFHE
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

using Pair = CiphertextPair;

struct CKKSToFHEPass : public fhec::impl::CKKSToFHEBase<CKKSToFHEPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    // Symbols (runtime declarations, kernels, tables) are created at the top
    // level: an input of several modules (parsed as nested ones) is refused.
    for (auto nested : module.getOps<ModuleOp>()) {
      nested.emitError() << "fhec compiles one module per input; this one is nested in (or follows) another";
      return signalPassFailure();
    }
    ckks::ParamsAttr params = ckks::getModuleParams(module);
    std::set<unsigned> encapsulationModuli;
    SmallVector<func::FuncOp> funcs;
    for (auto f : module.getOps<func::FuncOp>())
      if (usesCKKS(f)) funcs.push_back(f);
    if (funcs.empty()) return;
    if (!params) {
      module.emitError() << "ckks-to-fhe requires the module attribute 'ckks.params'";
      return signalPassFailure();
    }

    // Key-switching keys (the evaluation key, rotation keys) are prepared
    // once, in the region-2 basis of the highest level any key switching
    // (HE Mul, rotation, conjugation) runs at; lower levels read a prefix.
    unsigned maxLogq = 0;
    module.walk([&](Operation *op) {
      if (isa<ckks::MulOp>(op)) maxLogq = std::max(maxLogq, cast<ckks::MulOp>(op).getType().getLogq());
      if (!ckks::keySwitchGaloisElements(op).empty() || isa<ckks::DecapsulateOp>(op))
        maxLogq = std::max(maxLogq, cast<ckks::CiphertextType>(op->getResult(0).getType()).getLogq());
      if (isa<ckks::EncapsulateOp>(op)) encapsulationModuli.insert(*ckks::encapsulationModulus(op));
    });
    fhe::BasisAttr evkBasis;
    if (maxLogq) {
      // Hybrid key switching reads the whole key basis at every level.
      unsigned bits = params.getDnum() > 1 ? hybridKeySwitchBits(params.getLogN(), params.getLogP(),
                                                                 params.getLargestLogModulus(), params.getDnum())
                                           : region2Bits(params.getLogN(), maxLogq, params.getLogQ());
      evkBasis = fhe::BasisAttr::get(ctx, bits);
      emitPrepare(module, params, abi::kEvkPrepareFunc, params.getLargestLogModulus(), evkBasis);
    }
    for (unsigned q0 : encapsulationModuli)
      emitPrepare(module, params, abi::encapsulationPrepareFunc(int(q0)),
                  unsigned(rt::encapsulationKeyLogModulus(int(q0))), encapsulationBasis(ctx, params, q0));
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

  // The basis of the key switch to the ephemeral secret at q0: a centred
  // a (|a| <= q0 / 2) times the key (below q0 P').
  static fhe::BasisAttr encapsulationBasis(MLIRContext *ctx, ckks::ParamsAttr params, unsigned q0) {
    return fhe::BasisAttr::get(ctx, productBasisBits(params.getLogN(), q0, unsigned(rt::encapsulationKeyLogModulus(int(q0)))));
  }

  // func @<name>(%key: !fhe.poly<logq = keyLogq>) -> !fhe.rns<basis, eval>: a
  // key's CRT and NTT (__fhec_evk_prepare: mod PQ into the evaluation-key basis).
  void emitPrepare(ModuleOp module, ckks::ParamsAttr params, const std::string &name, unsigned keyLogq,
                   fhe::BasisAttr basis) {
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    b.setInsertionPointToEnd(module.getBody());
    Location loc = module.getLoc();
    auto keyT = fhe::PolyType::get(ctx, params.getLogN(), keyLogq);
    auto coeffT = fhe::RnsType::get(ctx, params.getLogN(), basis, fhe::Domain::coeff, fhe::Layout::prime_major);
    auto evalT = coeffT.withDomain(fhe::Domain::eval);
    auto f = func::FuncOp::create(b, loc, name, b.getFunctionType({keyT}, {evalT}));
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
    std::set<uint64_t> galois;   // rotation keys, in a fixed order
    std::set<unsigned> encaps;   // encapsulation keys by q0
    f.walk([&](Operation *op) {
      hasMul |= isa<ckks::MulOp>(op);
      for (uint64_t g : ckks::keySwitchGaloisElements(op)) galois.insert(g);
      if (auto q0 = ckks::encapsulationModulus(op)) encaps.insert(*q0);
    });

    // New signature: (ct0.ax, ct0.bx, ..., [pt<j>@<scale>,<logq> per plaintext
    // use], [evk.ax, evk.bx], [rk<g>.ax, rk<g>.bx]...) -> (out0.ax, out0.bx, ...),
    // each key's pair once per part (dnum, abi::keyPartRole).
    SmallVector<Type> argTypes, resTypes;
    SmallVector<Attribute> ctIn, ctOut;
    SmallVector<int64_t> ptSlots;
    auto expand = [&](TypeRange types, SmallVectorImpl<Type> &out, SmallVectorImpl<Attribute> &info,
                      bool arguments) -> LogicalResult {
      for (Type t : types) {
        if (auto pt = dyn_cast<ckks::PlaintextType>(t); pt && arguments) {
          ptSlots.push_back(pt.getSlots());
          continue;
        }
        auto ct = dyn_cast<ckks::CiphertextType>(t);
        if (!ct) return f.emitOpError() << "has a non-ciphertext argument or result of type " << t
                                        << ", which ckks-to-fhe does not support";
        auto poly = fhe::PolyType::get(ctx, ct.getLogN(), ct.getLogq());
        out.append({poly, poly});
        info.push_back(b.getDenseI64ArrayAttr({ct.getLogq(), ct.getLogp(), ct.getSlots()}));
      }
      return success();
    };
    if (failed(expand(f.getArgumentTypes(), argTypes, ctIn, true)) ||
        failed(expand(f.getResultTypes(), resTypes, ctOut, false)))
      return failure();
    unsigned numCtArgs = argTypes.size();
    // Each distinct use of a plaintext argument: one polynomial argument.
    llvm::DenseMap<Value, int> plainIndex;
    for (BlockArgument a : f.getArguments())
      if (isa<ckks::PlaintextType>(a.getType())) plainIndex[a] = int(plainIndex.size());
    std::map<std::tuple<int, int, int, bool>, abi::PlaintextUse> uses;
    f.walk([&](Operation *op) {
      auto note = [&](Value pt, unsigned logScale, unsigned logq, bool negate) {
        int j = plainIndex.at(pt);
        uses[{j, int(logScale), int(logq), negate}] = {j, int(logScale), int(logq), negate};
      };
      if (auto m = dyn_cast<ckks::MulPlainOp>(op); m && m.getPlain())
        note(m.getPlain(), m.getConstantLogScale(), m.getInput().getType().getLogq(), false);
      if (auto a = dyn_cast<ckks::AddPlainOp>(op); a && a.getPlain())
        note(a.getPlain(), a.getInput().getType().getLogp(), a.getInput().getType().getLogq(), a.getNegate());
    });
    for (auto &[key, use] : uses) argTypes.push_back(fhe::PolyType::get(ctx, params.getLogN(), unsigned(use.logq)));
    unsigned numInputArgs = argTypes.size();
    SmallVector<std::string> keyRoles;
    const int dnum = int(params.getDnum());
    auto addKeyRoles = [&](const std::string &ax, const std::string &bx) {
      for (int j = 0; j < dnum; ++j) keyRoles.append({abi::keyPartRole(ax, j), abi::keyPartRole(bx, j)});
    };
    if (hasMul) addKeyRoles("evk.ax", "evk.bx");
    for (uint64_t g : galois) addKeyRoles(abi::rotationKeyRole(g, false), abi::rotationKeyRole(g, true));
    for (unsigned q0 : encaps)
      addKeyRoles(abi::encapsulationKeyRole(int(q0), true, false), abi::encapsulationKeyRole(int(q0), true, true));
    if (!keyRoles.empty()) {
      auto keyT = fhe::RnsType::get(ctx, params.getLogN(), evkBasis, fhe::Domain::eval, fhe::Layout::prime_major);
      argTypes.append(keyRoles.size(), keyT);
    }
    // The keys to the ephemeral secret, one pair each in its own basis.
    for (unsigned q0 : encaps) {
      keyRoles.append({abi::encapsulationKeyRole(int(q0), false, false), abi::encapsulationKeyRole(int(q0), false, true)});
      auto keyT = fhe::RnsType::get(ctx, params.getLogN(), encapsulationBasis(ctx, params, q0), fhe::Domain::eval,
                                    fhe::Layout::prime_major);
      argTypes.append({keyT, keyT});
    }

    b.setInsertionPoint(f);
    auto nf = func::FuncOp::create(b, f.getLoc(), f.getName(), b.getFunctionType(argTypes, resTypes));
    nf.setVisibility(f.getVisibility());
    for (unsigned i = 0; i < numCtArgs; ++i)
      nf.setArgAttr(i, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr("ct" + std::to_string(i / 2) + (i % 2 ? ".bx" : ".ax")));
    {
      unsigned i = numCtArgs;
      for (auto &[key, use] : uses)
        nf.setArgAttr(i++, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr(abi::plaintextRole(use)));
    }
    for (auto [i, role] : llvm::enumerate(keyRoles))
      nf.setArgAttr(numInputArgs + i, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr(role));
    if (!ptSlots.empty()) nf->setAttr(fhe::FHEDialect::getPtInputsAttrName(), b.getDenseI64ArrayAttr(ptSlots));
    for (unsigned i = 0; i < resTypes.size(); ++i)
      nf.setResultAttr(i, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr("ct" + std::to_string(i / 2) + (i % 2 ? ".bx" : ".ax")));
    nf->setAttr(fhe::FHEDialect::getCtInputsAttrName(), b.getArrayAttr(ctIn));
    nf->setAttr(fhe::FHEDialect::getCtOutputsAttrName(), b.getArrayAttr(ctOut));

    Block *body = nf.addEntryBlock();
    b.setInsertionPointToStart(body);
    unsigned next = numInputArgs;
    auto takeKey = [&]() {
      KeyParts parts;
      for (int j = 0; j < dnum; ++j, next += 2) parts.push_back({body->getArgument(next), body->getArgument(next + 1)});
      return parts;
    };
    KeyParts evk;
    if (hasMul) evk = takeKey();
    llvm::DenseMap<uint64_t, KeyParts> rotationKeys;
    for (uint64_t g : galois) rotationKeys[g] = takeKey();
    llvm::DenseMap<unsigned, std::pair<Pair, KeyParts>> encapsulationKeys;
    for (unsigned q0 : encaps) encapsulationKeys[q0].second = takeKey();
    for (unsigned q0 : encaps) {
      encapsulationKeys[q0].first = {body->getArgument(next), body->getArgument(next + 1)};
      next += 2;
    }
    FunctionLowering lowering(b, params, evkBasis, evk, std::move(rotationKeys));
    lowering.encapsulationKeys = std::move(encapsulationKeys);
    unsigned ctArg = 0;
    for (BlockArgument arg : f.getArguments())
      if (isa<ckks::CiphertextType>(arg.getType())) {
        lowering.map[arg] = {body->getArgument(ctArg), body->getArgument(ctArg + 1)};
        ctArg += 2;
      }
    lowering.plainIndex = std::move(plainIndex);
    {
      unsigned i = numCtArgs;
      for (auto &[key, use] : uses) lowering.plainUses[key] = body->getArgument(i++);
    }

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
