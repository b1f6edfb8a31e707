// fhec-emit-abi: the C ABI of a compiled module (fhec/runtime/Abi.h) on the
// LLVM dialect: `void __fhec_entry_<f>(void **args)` wrappers around the
// bare-pointer functions, plus the version and manifest globals.
#include "abi/Passes.h"
#include "dialect/CKKS/IR/CKKSDialect.h"

#include "fhec/runtime/Abi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace fhec {
#define GEN_PASS_DEF_FHECEMITABI
#include "abi/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {
struct FHECEmitABIPass : public fhec::impl::FHECEmitABIBase<FHECEmitABIPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Attribute manifestRaw = module->getAttr(fhe::FHEDialect::getManifestAttrName());
    Attribute entriesRaw = module->getAttr(fhe::FHEDialect::getEntriesAttrName());
    if (!manifestRaw || !entriesRaw) {
      module.emitError() << "fhec-emit-abi: the module has no manifest; run fhec-abi first";
      return signalPassFailure();
    }
    auto manifest = dyn_cast<StringAttr>(manifestRaw);
    auto entries = dyn_cast<ArrayAttr>(entriesRaw);
    if (!manifest || !entries) {
      module.emitError() << "fhec-emit-abi: '" << fhe::FHEDialect::getManifestAttrName()
                         << "' must be a string and '" << fhe::FHEDialect::getEntriesAttrName()
                         << "' an array of function names";
      return signalPassFailure();
    }
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    b.setInsertionPointToEnd(module.getBody());
    Location loc = module.getLoc();
    auto ptrT = LLVM::LLVMPointerType::get(ctx);
    auto i32 = b.getI32Type(), i64 = b.getI64Type();

    for (Attribute e : entries) {
      auto nameAttr = dyn_cast<StringAttr>(e);
      if (!nameAttr || !abi::isExportableName(nameAttr.getValue())) {
        module.emitError() << "fhec-emit-abi: '" << fhe::FHEDialect::getEntriesAttrName()
                           << "' must list function names (C identifiers), got " << e;
        return signalPassFailure();
      }
      StringRef name = nameAttr.getValue();
      auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (!callee) {
        module.emitError() << "fhec-emit-abi: function '" << name << "' was not lowered to the LLVM dialect";
        return signalPassFailure();
      }
      auto fnT = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptrT});
      auto entry = LLVM::LLVMFuncOp::create(b, loc, (abi::kEntryPrefix + name).str(), fnT);
      Block *body = entry.addEntryBlock(b);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(body);
      SmallVector<Value> args;
      for (unsigned i = 0; i < callee.getNumArguments(); ++i) {
        Value idx = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(i));
        Value slot = LLVM::GEPOp::create(b, loc, ptrT, ptrT, body->getArgument(0), ValueRange{idx});
        args.push_back(LLVM::LoadOp::create(b, loc, ptrT, slot));
      }
      LLVM::CallOp::create(b, loc, callee, args);
      LLVM::ReturnOp::create(b, loc, ValueRange{});
    }

    LLVM::GlobalOp::create(b, loc, i32, /*isConstant=*/true, LLVM::Linkage::External, abi::kAbiVersionSymbol,
                           b.getI32IntegerAttr(abi::kAbiVersion));
    std::string text = manifest.getValue().str();
    text.push_back('\0');
    auto arrT = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
    LLVM::GlobalOp::create(b, loc, arrT, /*isConstant=*/true, LLVM::Linkage::External, abi::kManifestSymbol,
                           b.getStringAttr(text));

    // Drop fhec's bookkeeping attributes: nothing below LLVM reads them.
    for (StringRef a : {fhe::FHEDialect::getManifestAttrName(), fhe::FHEDialect::getEntriesAttrName(),
                        fhe::FHEDialect::getTargetAttrName(), ckks::CKKSDialect::getParamsAttrName()})
      module->removeAttr(a);
    module.walk([](LLVM::LLVMFuncOp f) {
      for (StringRef a : {fhe::FHEDialect::getCtInputsAttrName(), fhe::FHEDialect::getCtOutputsAttrName(),
                          fhe::FHEDialect::getPtInputsAttrName(), fhe::FHEDialect::getWorkspaceBytesAttrName()})
        f->removeAttr(a);
      if (f.getArgAttrs()) f.setArgAttrsAttr(nullptr);
    });
  }
};
} // namespace
