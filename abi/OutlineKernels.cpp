// fhec-outline-kernels: every top-level loop nest of a lowered function becomes
// a private kernel function called with the buffers it reads and writes, and
// structurally identical kernels are merged. A program repeats its kernels
// (every product runs the same CRT, NTT and iCRT of its basis; every rotation
// the same key switching), so code size and LLVM's compile time follow the
// number of distinct kernels instead of the number of ops. Constants the loops
// read are cloned into the kernel, so that equal kernels compare equal.
//
// Kernels over prime-major residues are also made generic in the basis size,
// as hand-written libraries loop over their limbs: their prime loops run to
// an fhe.prime_count, which becomes an index argument, and their buffers
// (all (m, X) with rows a fixed stride apart) are passed as views of the
// module's largest basis size; only rows below the count are touched. A
// program's levels (each with its own bases) then share their kernels.
// Likewise an fhe.kernel_param (e.g. a rotation's Galois element) is an
// argument, so rotations by different amounts share one kernel.
#include "abi/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SetVector.h"

namespace fhec {
#define GEN_PASS_DEF_FHECOUTLINEKERNELS
#include "abi/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

struct FHECOutlineKernelsPass : public fhec::impl::FHECOutlineKernelsBase<FHECOutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    created = reused = 0;
    maxPrimes = 0;
    module.walk([&](fhe::PrimeCountOp c) { maxPrimes = std::max<int64_t>(maxPrimes, int64_t(c.getBasis().size())); });
    SmallVector<func::FuncOp> functions;
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal() && f.getBody().hasOneBlock()) functions.push_back(f);
    for (func::FuncOp f : functions) {
      SmallVector<Operation *> loops;
      for (Operation &op : f.getBody().front())
        if (isa<scf::ParallelOp, scf::ForOp>(op) && op.getNumResults() == 0) loops.push_back(&op);
      for (Operation *loop : loops) {
        auto [kernel, call] = outline(loop, f, symbols);
        generalizeBasisSize(kernel, call);
        outlineLevels(kernel, symbols);
        merge(kernel, call, symbols);
      }
    }
    numKernels = created;
    numReused = reused;
    distinct.clear();
    // The counts and parameters left at the call sites are constants again.
    module.walk([](fhe::PrimeCountOp c) {
      OpBuilder b(c);
      c.replaceAllUsesWith(arith::ConstantIndexOp::create(b, c.getLoc(), int64_t(c.getBasis().size())).getResult());
      c.erase();
    });
    module.walk([](fhe::KernelParamOp c) {
      OpBuilder b(c);
      c.replaceAllUsesWith(arith::ConstantIndexOp::create(b, c.getLoc(), c.getValue()).getResult());
      c.erase();
    });
  }

  int64_t maxPrimes = 0;
  unsigned created = 0, reused = 0;
  // The distinct kernels so far, by structural hash (type and ops).
  llvm::DenseMap<llvm::hash_code, SmallVector<func::FuncOp>> distinct;

  static llvm::hash_code fingerprint(func::FuncOp k) {
    llvm::hash_code h = llvm::hash_value(k.getFunctionType().getAsOpaquePointer());
    k.getBody().walk([&](Operation *op) {
      h = llvm::hash_combine(h, OperationEquivalence::computeHash(op, OperationEquivalence::ignoreHashValue,
                                                                  OperationEquivalence::ignoreHashValue,
                                                                  OperationEquivalence::IgnoreLocations));
    });
    return h;
  }

  // Replaces `kernel` (called only by `call`) by an identical one (same
  // argument types and body) if there is one, else records it.
  void merge(func::FuncOp kernel, func::CallOp call, SymbolTable &symbols) {
    auto &bucket = distinct[fingerprint(kernel)];
    auto same = llvm::find_if(bucket, [&](func::FuncOp k) {
      return k.getFunctionType() == kernel.getFunctionType() &&
             OperationEquivalence::isRegionEquivalentTo(&k.getBody(), &kernel.getBody(),
                                                        OperationEquivalence::IgnoreLocations);
    });
    if (same == bucket.end()) {
      bucket.push_back(kernel);
      ++created;
      return;
    }
    call.setCallee((*same).getSymName());
    symbols.erase(kernel);
    ++reused;
  }

  // The loops directly inside a kernel's parallel loop over primes (the
  // levels of each transform of a batch) become sub-kernels of their own,
  // merged like kernels: a batch of transforms then holds one copy of each
  // level's code, not one per member.
  void outlineLevels(func::FuncOp kernel, SymbolTable &symbols) {
    for (Operation &op : kernel.getBody().front()) {
      // Loops over primes of a basis-generic kernel (the transforms'): each
      // level is a pass over a whole row, so a call per level costs nothing.
      // Kernels over blocks of coefficients keep their loops inline.
      auto par = dyn_cast<scf::ParallelOp>(op);
      if (!par || par.getUpperBound().size() != 1 || !isa<BlockArgument>(par.getUpperBound()[0])) continue;
      SmallVector<Operation *> levels;
      // Loops that yield values (accumulations) stay where they are.
      for (Operation &inner : par.getBody()->without_terminator())
        if (isa<scf::ForOp>(inner) && inner.getNumResults() == 0) levels.push_back(&inner);
      if (levels.size() < 2) continue;
      for (Operation *level : levels) {
        auto [sub, call] = outline(level, kernel, symbols);
        merge(sub, call, symbols);
      }
    }
  }

  // If `kernel` takes one prime count m and every other argument is a buffer
  // (m, X) whose rows lie a static stride apart, its buffers become views
  // (maxPrimes, X) of the same rows, reinterpreted at the call site. A
  // static buffer with no dimension m (an automorphism's slot sources) is
  // not per prime and stays as it is.
  void generalizeBasisSize(func::FuncOp kernel, func::CallOp caller) {
    Block &body = kernel.getBody().front();
    std::optional<int64_t> m;
    for (auto [i, operand] : llvm::enumerate(caller.getOperands())) {
      auto count = operand.getDefiningOp<fhe::PrimeCountOp>();
      if (!count) continue;
      if (m) return;  // two prime counts: not one basis
      m = int64_t(count.getBasis().size());
    }
    if (!m || *m == maxPrimes) return;
    SmallVector<unsigned> buffers;
    for (auto [i, t] : llvm::enumerate(kernel.getArgumentTypes())) {
      if (t.isIndex()) continue;
      auto mt = dyn_cast<MemRefType>(t);
      if (mt && mt.hasStaticShape() && !llvm::is_contained(mt.getShape(), *m)) continue;
      if (!mt || mt.getRank() != 2 || mt.getDimSize(0) != *m || !mt.hasStaticShape()) return;
      auto [strides, offset] = mt.getStridesAndOffset();
      if (ShapedType::isDynamic(strides[0]) || strides[1] != 1 || ShapedType::isDynamic(offset)) return;
      buffers.push_back(unsigned(i));
    }
    OpBuilder b(caller);
    SmallVector<Type> types(kernel.getArgumentTypes());
    for (unsigned i : buffers) {
      auto mt = cast<MemRefType>(types[i]);
      auto [strides, offset] = mt.getStridesAndOffset();
      // The same layout kind: a row-major buffer stays identity-laid-out.
      MemRefLayoutAttrInterface layout =
          mt.getLayout().isIdentity() ? MemRefLayoutAttrInterface()
                                      : StridedLayoutAttr::get(mt.getContext(), offset, strides);
      auto wide = MemRefType::get({maxPrimes, mt.getDimSize(1)}, mt.getElementType(), layout);
      Value view = memref::ReinterpretCastOp::create(b, caller.getLoc(), wide, caller.getOperand(i), offset,
                                                     ArrayRef<int64_t>{maxPrimes, mt.getDimSize(1)}, strides);
      caller->setOperand(i, view);
      body.getArgument(i).setType(wide);
      types[i] = wide;
    }
    kernel.setFunctionType(FunctionType::get(kernel.getContext(), types, {}));
  }

  // Moves `loop` into a new private function of the values it captures
  // (placed before `parent`) and replaces it with a call.
  static std::pair<func::FuncOp, func::CallOp> outline(Operation *loop, func::FuncOp parent, SymbolTable &symbols) {
    // Captured values in order of first use, constants excepted (cloned).
    llvm::SetVector<Value> captured;
    llvm::SetVector<Operation *> constants;
    auto definedInside = [&](Value v) {
      Operation *owner = v.getDefiningOp() ? v.getDefiningOp() : v.getParentBlock()->getParentOp();
      return loop->isAncestor(owner);
    };
    loop->walk([&](Operation *op) {
      for (Value v : op->getOperands()) {
        if (definedInside(v)) continue;
        Operation *def = v.getDefiningOp();
        if (def && def->hasTrait<OpTrait::ConstantLike>()) constants.insert(def);
        else captured.insert(v);
      }
    });
    OpBuilder b(loop->getContext());
    b.setInsertionPoint(parent);
    SmallVector<Type> types;
    for (Value v : captured) types.push_back(v.getType());
    auto kernel = func::FuncOp::create(b, loop->getLoc(), (parent.getName() + "_kernel").str(),
                                       b.getFunctionType(types, {}));
    kernel.setPrivate();
    // Internal to the module, and kept out of line by LLVM: inlining them
    // back would undo the merging.
    kernel->setAttr("llvm.linkage", LLVM::LinkageAttr::get(b.getContext(), LLVM::Linkage::Internal));
    kernel->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline")}));
    symbols.insert(kernel);  // uniques the name
    Block *body = kernel.addEntryBlock();
    b.setInsertionPointToStart(body);
    IRMapping map;
    for (auto [v, arg] : llvm::zip(captured, body->getArguments())) map.map(v, arg);
    for (Operation *c : constants) b.clone(*c, map);
    b.clone(*loop, map);
    func::ReturnOp::create(b, loop->getLoc());
    b.setInsertionPoint(loop);
    auto call = func::CallOp::create(b, loop->getLoc(), kernel, captured.getArrayRef());
    loop->erase();
    return {kernel, call};
  }
};

} // namespace
