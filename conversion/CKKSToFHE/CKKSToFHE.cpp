// ckks-to-fhe: each function on ciphertexts becomes one on their (ax, bx)
// BigInt polynomials, with the keys it needs as arguments (each key's role
// in fhe.role), by a dialect conversion (Lowering.h: a pattern per ckks op);
// the key preparation functions (__fhec_evk_prepare and the encapsulation
// keys') are added to the module.
#include "conversion/CKKSToFHE/Bounds.h"
#include "conversion/CKKSToFHE/Lowering.h"
#include "conversion/Passes.h"

#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Keys.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>
#include <set>

namespace fhec {
#define GEN_PASS_DEF_CKKSTOFHE
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

// The basis of the key switch to the ephemeral secret at q0: a centred
// a (|a| <= q0 / 2) times the key (below q0 P').
fhe::BasisAttr encapsulationBasis(MLIRContext *ctx, ckks::ParamsAttr params, unsigned q0) {
  return fhe::BasisAttr::get(ctx, productBasisBits(params.getLogN(), q0, unsigned(rt::encapsulationKeyLogModulus(int(q0)))));
}

// A function's signature after ckks-to-fhe: (ct0.ax, ct0.bx, ...,
// [pt<j>@<scale>,<logq> per plaintext use], [evk.ax, evk.bx],
// [rk<g>.ax, rk<g>.bx]..., [encapsulation keys]) -> (out0.ax, out0.bx, ...),
// each key's pair once per part (dnum, abi::keyPartRole).
struct Signature {
  SmallVector<Type> extraTypes;  ///< after the ciphertexts': plaintext uses, then keys
  SmallVector<Type> resultTypes;
  SmallVector<Attribute> argRoles, resultRoles;
  SmallVector<Attribute> ctIn, ctOut;  ///< (logq, logp, slots) of each ciphertext
  SmallVector<int64_t> ptSlots;        ///< slots of each plaintext argument
  SmallVector<std::tuple<int, int, int, bool>> plainUses;
  bool hasMul = false;
  std::set<uint64_t> galois;  ///< rotation keys, in a fixed order
  std::set<unsigned> encaps;  ///< encapsulation keys by q0
  bool converted = false;
};

FailureOr<Signature> planSignature(func::FuncOp f, LoweringState &state) {
  MLIRContext *ctx = f.getContext();
  Builder b(ctx);
  ckks::ParamsAttr params = state.params;
  Signature sig;
  f.walk([&](Operation *op) {
    sig.hasMul |= isa<ckks::MulOp>(op);
    for (uint64_t g : ckks::keySwitchGaloisElements(op)) sig.galois.insert(g);
    if (auto q0 = ckks::encapsulationModulus(op)) sig.encaps.insert(*q0);
  });
  auto role = [&](const std::string &r) { return b.getStringAttr(r); };
  auto expand = [&](TypeRange types, SmallVectorImpl<Attribute> &roles, SmallVectorImpl<Attribute> &info,
                    SmallVectorImpl<Type> *resultTypes) -> LogicalResult {
    unsigned ct = 0;
    for (Type t : types) {
      if (auto pt = dyn_cast<ckks::PlaintextType>(t); pt && !resultTypes) {
        sig.ptSlots.push_back(pt.getSlots());
        continue;
      }
      auto c = dyn_cast<ckks::CiphertextType>(t);
      if (!c) return f.emitOpError() << "has a non-ciphertext argument or result of type " << t
                                     << ", which ckks-to-fhe does not support";
      roles.append({role("ct" + std::to_string(ct) + ".ax"), role("ct" + std::to_string(ct) + ".bx")});
      ++ct;
      if (resultTypes) resultTypes->append(2, fhe::PolyType::get(ctx, c.getLogN(), c.getLogq()));
      info.push_back(b.getDenseI64ArrayAttr({c.getLogq(), c.getLogp(), c.getSlots()}));
    }
    return success();
  };
  if (failed(expand(f.getArgumentTypes(), sig.argRoles, sig.ctIn, nullptr)) ||
      failed(expand(f.getResultTypes(), sig.resultRoles, sig.ctOut, &sig.resultTypes)))
    return failure();
  // Each distinct use of a plaintext argument: one polynomial argument.
  for (BlockArgument a : f.getArguments())
    if (isa<ckks::PlaintextType>(a.getType())) state.plainIndex[a] = int(state.plainIndex.size());
  std::map<std::tuple<int, int, int, bool>, abi::PlaintextUse> uses;
  f.walk([&](Operation *op) {
    auto note = [&](Value pt, unsigned logScale, unsigned logq, bool negate) {
      int j = state.plainIndex.at(pt);
      uses[{j, int(logScale), int(logq), negate}] = {j, int(logScale), int(logq), negate};
    };
    if (auto m = dyn_cast<ckks::MulPlainOp>(op); m && m.getPlain())
      note(m.getPlain(), m.getConstantLogScale(), m.getInput().getType().getLogq(), false);
    if (auto a = dyn_cast<ckks::AddPlainOp>(op); a && a.getPlain())
      note(a.getPlain(), a.getInput().getType().getLogp(), a.getInput().getType().getLogq(), a.getNegate());
  });
  for (auto &[key, use] : uses) {
    sig.plainUses.push_back(key);
    sig.extraTypes.push_back(fhe::PolyType::get(ctx, params.getLogN(), unsigned(use.logq)));
    sig.argRoles.push_back(role(abi::plaintextRole(use)));
  }
  const int dnum = int(params.getDnum());
  auto keyT = [&](fhe::BasisAttr basis) {
    return fhe::RnsType::get(ctx, params.getLogN(), basis, fhe::Domain::eval, fhe::Layout::prime_major);
  };
  auto addKey = [&](const std::string &ax, const std::string &bx) {
    for (int j = 0; j < dnum; ++j) {
      sig.argRoles.append({role(abi::keyPartRole(ax, j)), role(abi::keyPartRole(bx, j))});
      sig.extraTypes.append(2, keyT(state.evkBasis));
    }
  };
  if (sig.hasMul) addKey("evk.ax", "evk.bx");
  for (uint64_t g : sig.galois) addKey(abi::rotationKeyRole(g, false), abi::rotationKeyRole(g, true));
  for (unsigned q0 : sig.encaps)
    addKey(abi::encapsulationKeyRole(int(q0), true, false), abi::encapsulationKeyRole(int(q0), true, true));
  // The keys to the ephemeral secret, one pair each in its own basis.
  for (unsigned q0 : sig.encaps) {
    sig.argRoles.append({role(abi::encapsulationKeyRole(int(q0), false, false)),
                         role(abi::encapsulationKeyRole(int(q0), false, true))});
    sig.extraTypes.append(2, keyT(encapsulationBasis(ctx, params, q0)));
  }
  return sig;
}

// The function's new signature (Signature): its ciphertext arguments split
// into (ax, bx), its plaintexts replaced by their uses, the keys appended
// and bound in the LoweringState, each argument's role in fhe.role.
struct SignatureLowering : OpConversionPattern<func::FuncOp> {
  SignatureLowering(const TypeConverter &tc, MLIRContext *ctx, func::FuncOp func, Signature &sig,
                    LoweringState &state)
      : OpConversionPattern(tc, ctx), func(func), sig(sig), state(state) {}

  LogicalResult matchAndRewrite(func::FuncOp f, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    if (f != func) return failure();
    TypeConverter::SignatureConversion conversion(f.getNumArguments());
    for (auto [i, t] : llvm::enumerate(f.getArgumentTypes())) {
      SmallVector<Type> converted;
      if (failed(getTypeConverter()->convertType(t, converted))) return failure();
      conversion.addInputs(unsigned(i), converted);
    }
    const unsigned numCtArgs = unsigned(conversion.getConvertedTypes().size());
    conversion.addInputs(sig.extraTypes);
    Block *entry = rewriter.applySignatureConversion(&f.getBody().front(), conversion, getTypeConverter());
    auto roleDicts = [&](ArrayRef<Attribute> roles) {
      SmallVector<DictionaryAttr> dicts;
      for (Attribute r : roles)
        dicts.push_back(DictionaryAttr::get(f.getContext(), {NamedAttribute(fhe::FHEDialect::getRoleAttrName(), r)}));
      return dicts;
    };
    rewriter.modifyOpInPlace(f, [&] {
      f.setType(FunctionType::get(f.getContext(), conversion.getConvertedTypes(), sig.resultTypes));
      f.setAllArgAttrs(roleDicts(sig.argRoles));
      f.setAllResultAttrs(roleDicts(sig.resultRoles));
      Builder b(f.getContext());
      if (!sig.ptSlots.empty()) f->setAttr(fhe::FHEDialect::getPtInputsAttrName(), b.getDenseI64ArrayAttr(sig.ptSlots));
      f->setAttr(fhe::FHEDialect::getCtInputsAttrName(), b.getArrayAttr(sig.ctIn));
      f->setAttr(fhe::FHEDialect::getCtOutputsAttrName(), b.getArrayAttr(sig.ctOut));
    });
    unsigned next = numCtArgs;
    for (auto key : sig.plainUses) state.plainUses[key] = entry->getArgument(next++);
    auto takeKey = [&]() {
      KeyParts parts;
      for (int j = 0; j < int(state.params.getDnum()); ++j, next += 2)
        parts.push_back({entry->getArgument(next), entry->getArgument(next + 1)});
      return parts;
    };
    if (sig.hasMul) state.evk = takeKey();
    for (uint64_t g : sig.galois) state.rotationKeys[g] = takeKey();
    for (unsigned q0 : sig.encaps) state.encapsulationKeys[q0].second = takeKey();
    for (unsigned q0 : sig.encaps) {
      state.encapsulationKeys[q0].first = {entry->getArgument(next), entry->getArgument(next + 1)};
      next += 2;
    }
    sig.converted = true;
    return success();
  }

  func::FuncOp func;
  Signature &sig;
  LoweringState &state;
};

// func.return of ciphertexts: their (ax, bx) pairs.
struct ReturnLowering : OpConversionPattern<func::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(func::ReturnOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> results;
    for (ValueRange r : adaptor.getOperands()) llvm::append_range(results, r);
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, results);
    return success();
  }
};

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
    // A linear transform sums its giant steps' key-switch products in this
    // basis (a prefix at its level) before one iCRT: sized for the most terms.
    // With hybrid key switching a transform is double-hoisted: its sums over
    // the baby steps' key-switch products stay in this basis too.
    unsigned maxLogq = 0, switches = 1, region2Max = 0, hoistedMax = 0;
    module.walk([&](Operation *op) {
      if (auto lt = dyn_cast<ckks::LinearTransformOp>(op)) {
        unsigned giants = unsigned(lt.getPlan().giantRotations()), logq = lt.getInput().getType().getLogq();
        switches = std::max(switches, giants);
        region2Max = std::max(region2Max, region2Bits(params.getLogN(), logq, params.getLogQ(), giants));
        if (params.getDnum() > 1) hoistedMax = std::max(hoistedMax, FheBuilder::hoistedLinearTransformBits(lt, params));
      }
      if (isa<ckks::MulOp>(op)) maxLogq = std::max(maxLogq, cast<ckks::MulOp>(op).getType().getLogq());
      if (!ckks::keySwitchGaloisElements(op).empty() || isa<ckks::DecapsulateOp>(op))
        maxLogq = std::max(maxLogq, cast<ckks::CiphertextType>(op->getResult(0).getType()).getLogq());
      if (isa<ckks::EncapsulateOp>(op)) encapsulationModuli.insert(*ckks::encapsulationModulus(op));
    });
    fhe::BasisAttr evkBasis;
    if (maxLogq) {
      // Hybrid key switching reads the whole key basis at every level.
      unsigned bits = params.getDnum() > 1
                          ? std::max(hoistedMax, hybridKeySwitchBits(params.getLogN(), params.getLogP(),
                                                                     params.getLargestLogModulus(), params.getDnum(),
                                                                     switches))
                          : std::max(region2Max, region2Bits(params.getLogN(), maxLogq, params.getLogQ()));
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
    if (!f.getBody().hasOneBlock())
      return f.emitOpError() << "ckks-to-fhe supports straight-line functions only (one block)";
    LoweringState state;
    state.params = params;
    state.evkBasis = evkBasis;
    FailureOr<Signature> signature = planSignature(f, state);
    if (failed(signature)) return failure();

    TypeConverter types;
    types.addConversion([](Type t) { return t; });
    types.addConversion([](ckks::CiphertextType t, SmallVectorImpl<Type> &out) {
      auto poly = fhe::PolyType::get(t.getContext(), t.getLogN(), t.getLogq());
      out.append({poly, poly});
      return success();
    });
    // A plaintext argument becomes the arguments of its uses (Signature).
    types.addConversion([](ckks::PlaintextType, SmallVectorImpl<Type> &) { return success(); });
    RewritePatternSet patterns(ctx);
    patterns.add<SignatureLowering>(types, ctx, f, *signature, state);
    patterns.add<ReturnLowering>(types, ctx);
    populateArithmeticPatterns(types, patterns, state);
    populateKeySwitchingPatterns(types, patterns, state);
    FrozenRewritePatternSet frozen(std::move(patterns));
    // Every op of the body must have a pattern.
    for (Operation &op : f.getBody().front())
      if (!isa<func::ReturnOp>(op) && !frozen.getOpSpecificNativePatterns().count(op.getName()))
        return op.emitOpError() << "is not supported by ckks-to-fhe";

    ConversionTarget target(*ctx);
    target.addLegalDialect<fhe::FHEDialect>();
    target.addIllegalDialect<ckks::CKKSDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp g) { return g != f || signature->converted; });
    target.addDynamicallyLegalOp<func::ReturnOp>([&](func::ReturnOp r) { return types.isLegal(r.getOperandTypes()); });
    // A pattern that fails says why at its op; the driver's own "failed to
    // legalize" messages that follow say nothing more and are dropped.
    bool ownError = false;
    SmallVector<Diagnostic> driverErrors;
    LogicalResult converted = success();
    {
      ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
        if (d.getSeverity() == DiagnosticSeverity::Error && StringRef(d.str()).starts_with("failed to legalize")) {
          driverErrors.push_back(std::move(d));
          return success();
        }
        ownError |= d.getSeverity() == DiagnosticSeverity::Error;
        return failure();  // to the next handler
      });
      converted = applyPartialConversion(f, target, frozen);
    }
    if (failed(converted) && !ownError)
      for (Diagnostic &d : driverErrors) ctx->getDiagEngine().emit(std::move(d));
    return converted;
  }
};

} // namespace
