// fhe-hoist-constants: what a function computes from its constants alone (a
// linear transform's encoded diagonals: their CRT and NTT) is computed once,
// when the module loads, by __fhec_constants_prepare; the function reads the
// results as arguments (role "const<k>"). Load-time evaluation of constant
// expressions, as IREE's hoist-into-globals does. Values several functions
// read are kept once.
#include "dialect/FHE/Transforms/Passes.h"

#include "dialect/FHE/IR/FHEDialect.h"
#include "fhec/runtime/Abi.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"

#include "llvm/ADT/DenseSet.h"

namespace fhec {
#define GEN_PASS_DEF_FHEHOISTCONSTANTS
#include "dialect/FHE/Transforms/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

// An op the preparation may compute: a pure fhe op on values (no kernel
// bookkeeping, no region), all of whose operands are constant.
bool foldable(Operation *op, const llvm::DenseSet<Value> &constant) {
  if (!isa<fhe::FHEDialect>(op->getDialect()) || op->getNumRegions() || op->getNumOperands() == 0 ||
      op->getNumResults() == 0 || isa<fhe::TableOp, fhe::KernelParamOp, fhe::PrimeCountOp>(op))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value v) { return constant.contains(v); });
}

struct FHEHoistConstantsPass : public fhec::impl::FHEHoistConstantsBase<FHEHoistConstantsPass> {
  using FHEHoistConstantsBase::FHEHoistConstantsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> funcs;
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal() && !f.getName().starts_with("__fhec_")) funcs.push_back(f);
    for (func::FuncOp f : funcs)
      if (failed(hoist(module, f))) return signalPassFailure();
    if (auto prep = module.lookupSymbol<func::FuncOp>(abi::kConstantsPrepareFunc)) shareValues(prep, funcs);
  }

  // The preparation's signature, once every function is hoisted: a value
  // several functions read (the same constants, converted alike) is computed
  // and kept once (common subexpressions merged, results deduplicated), and
  // every const<k> role, the functions' too, numbers the results in order.
  void shareValues(func::FuncOp prep, ArrayRef<func::FuncOp> funcs) {
    IRRewriter rewriter(prep.getContext());
    DominanceInfo dominance(prep);
    eliminateCommonSubExpressions(rewriter, dominance, prep);
    Operation *ret = prep.getBody().front().getTerminator();
    llvm::DenseMap<Value, int> index;
    SmallVector<Value> kept;
    SmallVector<int> renumber;
    for (Value v : ret->getOperands()) {
      auto [it, fresh] = index.try_emplace(v, int(kept.size()));
      if (fresh) kept.push_back(v);
      renumber.push_back(it->second);
    }
    const StringRef roleName = fhe::FHEDialect::getRoleAttrName();
    for (func::FuncOp f : funcs)
      for (unsigned i = 0; i < f.getNumArguments(); ++i)
        if (auto r = f.getArgAttrOfType<StringAttr>(i, roleName))
          if (auto k = abi::constantRoleIndex(r.getValue()))
            f.setArgAttrs(i, roleAttr(renumber[size_t(*k)]));
    ret->setOperands(kept);
    SmallVector<Type> types;
    SmallVector<DictionaryAttr> attrs;
    for (auto [k, v] : llvm::enumerate(kept)) {
      types.push_back(v.getType());
      attrs.push_back(roleAttr(int(k)));
    }
    prep.setType(FunctionType::get(prep.getContext(), {}, types));
    prep.setAllResultAttrs(attrs);
  }

  // {fhe.role = "const<k>"}
  DictionaryAttr roleAttr(int k) {
    Builder b(&getContext());
    return b.getDictionaryAttr({b.getNamedAttr(fhe::FHEDialect::getRoleAttrName(), b.getStringAttr(abi::constantRole(k)))});
  }

  // The preparation function, created (no arguments, no results) on first use.
  func::FuncOp preparation(ModuleOp module) {
    if (auto f = module.lookupSymbol<func::FuncOp>(abi::kConstantsPrepareFunc)) return f;
    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(module.getBody());
    auto f = func::FuncOp::create(b, module.getLoc(), abi::kConstantsPrepareFunc, b.getFunctionType({}, {}));
    b.setInsertionPointToStart(f.addEntryBlock());
    func::ReturnOp::create(b, module.getLoc());
    return f;
  }

  LogicalResult hoist(ModuleOp module, func::FuncOp f) {
    if (!f.getBody().hasOneBlock()) return success();
    Block &body = f.getBody().front();
    // Values computed from constants alone, and those of them the rest of
    // the function reads: RNS values made by an op (a poly_constant itself
    // is already the module's words).
    llvm::DenseSet<Value> constant;
    for (Operation &op : body)
      if (isa<fhe::PolyConstantOp>(op) || foldable(&op, constant))
        for (Value r : op.getResults()) constant.insert(r);
    SmallVector<Value> frontier;
    for (Operation &op : body) {
      if (isa<fhe::PolyConstantOp>(op) || !foldable(&op, constant)) continue;
      for (Value r : op.getResults())
        if (isa<fhe::RnsType>(r.getType()) && llvm::any_of(r.getUsers(), [&](Operation *u) {
              return u->getNumResults() == 0 || !constant.contains(u->getResult(0));
            }))
          frontier.push_back(r);
    }
    if (frontier.empty()) return success();

    // The ops the frontier needs, cloned in order into the preparation.
    llvm::DenseSet<Operation *> needed;
    SmallVector<Operation *> work;
    for (Value v : frontier) work.push_back(v.getDefiningOp());
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      if (!needed.insert(op).second) continue;
      for (Value v : op->getOperands()) work.push_back(v.getDefiningOp());
    }
    func::FuncOp prep = preparation(module);
    Operation *ret = prep.getBody().front().getTerminator();
    OpBuilder b(ret);
    IRMapping map;
    for (Operation &op : body)
      if (needed.contains(&op)) b.clone(op, map);
    // Each value the function reads becomes its last argument and the next
    // operand of the preparation's return (its signature: shareValues).
    SmallVector<Value> results(ret->getOperands());
    for (Value v : frontier) {
      unsigned index = f.getNumArguments();
      if (failed(f.insertArgument(index, v.getType(), roleAttr(int(results.size())), v.getLoc()))) return failure();
      results.push_back(map.lookup(v));
      v.replaceAllUsesWith(f.getArgument(index));
    }
    ret->setOperands(results);
    // What the function no longer reads.
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
      if (needed.contains(&op) && op.use_empty()) op.erase();
    return success();
  }
};

} // namespace
