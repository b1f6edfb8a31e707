// fhec-abi: the calling convention of a lowered module (fhec/runtime/Abi.h).
// Each lowered function's results become trailing out-parameters (a returned
// buffer is replaced by its out-parameter, anything else is copied into it),
// each distinct fhe.table becomes a leading argument the runtime fills, so
// does each constant global the function reads (an encoded plaintext: a
// GPU's kernels cannot read the host's copy, so the runtime passes one it
// made on the device), the workspace argument of fhec-plan-workspace goes last, and the module's
// manifest records it all. Buffers left on the heap are fhec-free-buffers'.
#include "abi/Manifest.h"
#include "abi/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace fhec {
#define GEN_PASS_DEF_FHECABI
#include "abi/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;
using fhe::FHEDialect;

namespace {

struct FHECABIPass : public fhec::impl::FHECABIBase<FHECABIPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    ManifestBuilder manifest(module);
    bool any = false;
    for (auto f : module.getOps<func::FuncOp>()) {
      if (f.isExternal() || !isLowered(f)) continue;
      any = true;
      if (failed(outParams(f)) || failed(tableArgs(f)) || failed(constantArgs(module, f)) ||
          failed(manifest.addFunction(f)))
        return signalPassFailure();
    }
    if (any && failed(manifest.finish())) signalPassFailure();
  }

  // A function fhe-to-loops lowered: its arguments or results name fhe types.
  static bool isLowered(func::FuncOp f) {
    for (unsigned i = 0; i < f.getNumArguments(); ++i)
      if (f.getArgAttr(i, FHEDialect::getTypeAttrName())) return true;
    for (unsigned i = 0; i < f.getNumResults(); ++i)
      if (f.getResultAttr(i, FHEDialect::getTypeAttrName())) return true;
    return false;
  }

  static unsigned workspaceIndex(func::FuncOp f) {
    for (unsigned i = 0; i < f.getNumArguments(); ++i)
      if (f.getArgAttr(i, FHEDialect::getWorkspaceAttrName())) return i;
    return f.getNumArguments();
  }

  LogicalResult outParams(func::FuncOp f) {
    OpBuilder b(f.getContext());
    if (!f.getBody().hasOneBlock())
      return f.emitOpError() << "fhec-abi expects a single-block function body (kernels are structured loops)";
    auto ret = dyn_cast<func::ReturnOp>(f.getBody().front().getTerminator());
    if (!ret) return f.emitOpError() << "fhec-abi expects the body to end in func.return";
    for (auto [r, t] : llvm::enumerate(f.getResultTypes()))
      if (!isa<MemRefType>(t))
        return f.emitOpError() << "result #" << r << " has type " << t << ": fhec-abi returns buffers (memrefs) only";
    SmallVector<Value> returned(ret.getOperands());
    SmallVector<Value> outs;
    for (unsigned r = 0; r < f.getNumResults(); ++r) {
      auto role = f.getResultAttrOfType<StringAttr>(r, FHEDialect::getRoleAttrName());
      SmallVector<NamedAttribute> attrs{
          b.getNamedAttr(FHEDialect::getRoleAttrName(), role ? role : b.getStringAttr("res" + std::to_string(r))),
          b.getNamedAttr(FHEDialect::getOutputAttrName(), b.getUnitAttr())};
      if (Attribute t = f.getResultAttr(r, FHEDialect::getTypeAttrName()))
        attrs.push_back(b.getNamedAttr(FHEDialect::getTypeAttrName(), t));
      unsigned idx = workspaceIndex(f);
      if (failed(f.insertArgument(idx, f.getResultTypes()[r], b.getDictionaryAttr(attrs), f.getLoc()))) return failure();
      outs.push_back(f.getArgument(idx));
    }
    // A returned buffer becomes the out-parameter itself; copies otherwise
    // (a returned input, a view, the same buffer returned twice).
    llvm::DenseMap<Value, Value> redirected;
    b.setInsertionPoint(ret);
    for (auto [v, out] : llvm::zip(returned, outs)) {
      // Already redirected (the same buffer returned twice): copy from its
      // out-parameter; `v` may belong to an erased op, so it is not touched.
      if (auto it = redirected.find(v); it != redirected.end()) {
        memref::CopyOp::create(b, ret.getLoc(), it->second, out);
        continue;
      }
      auto alloc = v.getDefiningOp<memref::AllocOp>();
      if (alloc) {
        v.replaceAllUsesWith(out);
        alloc.erase();
        redirected[v] = out;
        continue;
      }
      // A padded-row buffer returned through its (rows, N) view at offset 0:
      // the out-parameter has the same rows, so it replaces the whole buffer.
      auto view = v.getDefiningOp<memref::SubViewOp>();
      auto buf = view ? view.getSource().getDefiningOp<memref::AllocOp>() : memref::AllocOp();
      if (buf && buf.getType().getRank() == 2 && llvm::all_of(view.getStaticOffsets(), [](int64_t o) { return o == 0; })) {
        MemRefType dense = buf.getType();
        b.setInsertionPoint(buf);
        SmallVector<int64_t> strides{dense.getDimSize(1), 1};
        Value whole = memref::ReinterpretCastOp::create(b, buf.getLoc(), dense, out, /*offset=*/0, dense.getShape(), strides);
        buf.getResult().replaceAllUsesWith(whole);
        buf.erase();
        redirected[v] = out;
        b.setInsertionPoint(ret);
        continue;
      }
      memref::CopyOp::create(b, ret.getLoc(), v, out);
    }
    ret->setOperands({});
    llvm::BitVector all(f.getNumResults(), true);
    return f.eraseResults(all);
  }

  LogicalResult tableArgs(func::FuncOp f) {
    OpBuilder b(f.getContext());
    SmallVector<fhe::TableOp> tables;
    f.walk([&](fhe::TableOp t) { tables.push_back(t); });
    // One argument per distinct (kind, basis, parameter), in first-use order.
    SmallVector<fhe::TableOp> distinct;
    llvm::DenseMap<Operation *, unsigned> argOf;
    for (fhe::TableOp t : tables) {
      auto same = llvm::find_if(distinct, [&](fhe::TableOp d) {
        return d.getKind() == t.getKind() && d.getBasis() == t.getBasis() && d.getParam() == t.getParam();
      });
      if (same != distinct.end()) {
        if (same->getType() != t.getType()) return t.emitOpError() << "disagrees on the shape of a table";
        argOf[t] = unsigned(same - distinct.begin());
        continue;
      }
      argOf[t] = distinct.size();
      distinct.push_back(t);
    }
    for (auto [i, t] : llvm::enumerate(distinct)) {
      DictionaryAttr attrs = b.getDictionaryAttr({b.getNamedAttr(FHEDialect::getTableAttrName(), t.getKindAttr()),
                                                  b.getNamedAttr(FHEDialect::getBasisAttrName(), t.getBasisAttr()),
                                                  b.getNamedAttr(FHEDialect::getParamAttrName(), t.getParamAttr())});
      if (failed(f.insertArgument(unsigned(i), t.getType(), attrs, t.getLoc()))) return failure();
    }
    for (fhe::TableOp t : tables) {
      t.getResult().replaceAllUsesWith(f.getArgument(argOf[t]));
      t.erase();
    }
    return success();
  }

  // One leading argument per constant global the function reads, in
  // first-use order; the global becomes public, so that the runtime finds
  // its words by the symbol the manifest names.
  LogicalResult constantArgs(ModuleOp module, func::FuncOp f) {
    SmallVector<memref::GetGlobalOp> uses;
    f.walk([&](memref::GetGlobalOp g) { uses.push_back(g); });
    llvm::MapVector<StringAttr, SmallVector<memref::GetGlobalOp>> byGlobal;
    for (memref::GetGlobalOp g : uses) byGlobal[g.getNameAttr().getAttr()].push_back(g);
    OpBuilder b(f.getContext());
    for (auto [i, entry] : llvm::enumerate(byGlobal)) {
      auto global = module.lookupSymbol<memref::GlobalOp>(entry.first);
      if (!global || !global.getConstant() || !global.getInitialValue() || !global.getType().hasStaticShape() ||
          !global.getType().getElementType().isInteger(64))
        return entry.second.front().emitOpError()
               << "reads " << entry.first << ": fhec-abi passes constant globals of i64 with a static shape only";
      global.setPublic();
      DictionaryAttr attrs =
          b.getDictionaryAttr(b.getNamedAttr(FHEDialect::getConstantAttrName(), FlatSymbolRefAttr::get(entry.first)));
      if (failed(f.insertArgument(unsigned(i), global.getType(), attrs, global.getLoc()))) return failure();
      for (memref::GetGlobalOp g : entry.second) {
        if (g.getType() != global.getType()) return g.emitOpError() << "disagrees with the type of " << entry.first;
        g.getResult().replaceAllUsesWith(f.getArgument(unsigned(i)));
        g.erase();
      }
    }
    return success();
  }
};

} // namespace
