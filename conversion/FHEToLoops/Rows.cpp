// fhe.fused rows (fhe-fuse (g)): a pipeline of transform and residue kernels
// of one basis -- NTTs, automorphisms (row permutations), the Hadamard chain,
// iNTTs -- taken one prime row at a time through all of them. A row one stage
// writes is read by the next while it is still in cache, instead of after the
// whole (m, N) matrix went through memory. The buffers are those the separate
// kernels would use (in place where a value dies), so only the loop order
// changes: every stage touches row j alone, so running the stages row by row
// computes the same values.
#include "conversion/FHEToLoops/Ntt.h"
#include "conversion/FHEToLoops/Patterns.h"

using namespace mlir;

namespace fhec {

namespace {

// One stage of the pipeline: a batch of transforms, a residue kernel, or an
// automorphism (a permutation within each row).
struct Stage {
  bool transform = false;
  std::unique_ptr<AutomorphismRows> automorphism;
  bool prefetchInput = false;  ///< automorphism: prefetch the next prime's input row
  abi::Phase phase = abi::Phase::Other;  ///< what the stage's time counts for
  SmallVector<Operation *> ops;       ///< the transforms, or the residue ops in order
  SmallVector<Value> ins, outs;       ///< transforms: input and result buffers
  llvm::DenseMap<Value, Value> env;   ///< residue kernel: values -> buffers
  SmallVector<Value> results;         ///< residue kernel: the values it stores
};

struct FusedRowsLowering : KernelPattern<fhe::FusedOp> {
  using KernelPattern::KernelPattern;

  LogicalResult matchAndRewrite(fhe::FusedOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    if (op.getSpace() != fhe::Space::rows) return failure();
    if (usesGpuLaunches(options) && failed(checkGpuForm(op, options))) return failure();
    KernelBuilder kb(rewriter, op.getLoc(), options);
    Block &body = *op.getBody();
    llvm::DenseMap<Value, Value> buffer;  // values of the body -> their buffers
    for (auto [a, mem] : llvm::zip(body.getArguments(), adaptor.getInputs())) buffer[a] = mem;
    // A value of the body may lend its buffer to its only user: an operand
    // of the kernel that dies here, or a value a stage computed.
    auto dies = [&](Value v) {
      if (!v.hasOneUse()) return false;
      auto arg = dyn_cast<BlockArgument>(v);
      return !arg || diesHere(op.getInputs()[arg.getArgNumber()]);
    };
    auto transformInto = [&](Stage &st, Operation *t, Value x, bool lend) {
      MemRefType resT = kb.memrefOf(t->getResult(0).getType());
      st.ops.push_back(t);
      st.ins.push_back(buffer.at(x));
      st.outs.push_back(lend && dies(x) && buffer.at(x).getType() == resT ? buffer.at(x) : kb.alloc(resT));
      return st.outs.back();
    };
    SmallVector<Stage, 3> stages;
    llvm::SmallPtrSet<Value, 4> prefetched;  // kernel operands an automorphism stage prefetches
    for (Operation &inner : body.without_terminator()) {
      Stage &st = stages.emplace_back();
      st.phase = phaseOf(&inner);
      if (auto a = dyn_cast<fhe::AutomorphismOp>(inner)) {
        // (An evaluation-domain automorphism's slot sources are computed
        // here, once for all rows, timed as "other".)
        Value out = kb.alloc(kb.memrefOf(a.getResult().getType()));
        kb.phaseBegin(abi::Phase::Other);
        st.automorphism = std::make_unique<AutomorphismRows>(kb, a, buffer.at(a.getInput()), out);
        kb.phaseEnd(abi::Phase::Other);
        buffer[a.getResult()] = out;
        // The first stage to read a kernel operand's rows prefetches its
        // next prime's row, as the automorphism kernel does (hoisted
        // rotations: the shared NTT's rows come from memory).
        if (auto arg = dyn_cast<BlockArgument>(a.getInput()); arg && prefetched.insert(arg).second)
          st.prefetchInput = true;
        continue;
      }
      auto fused = dyn_cast<fhe::FusedOp>(inner);
      st.transform = fused ? fused.getSpace() == fhe::Space::transform : isa<fhe::NttOp, fhe::InttOp>(inner);
      if (st.transform && !fused) {
        buffer[inner.getResult(0)] = transformInto(st, &inner, inner.getOperand(0), true);
      } else if (st.transform) {
        llvm::DenseMap<Value, Value> out;
        for (Operation &t : fused.getBody()->without_terminator()) {
          auto arg = cast<BlockArgument>(t.getOperand(0));
          out[t.getResult(0)] = transformInto(st, &t, fused.getInputs()[arg.getArgNumber()], arg.hasOneUse());
        }
        for (auto [r, y] : llvm::zip(fused.getResults(), fused.getYield().getValues())) buffer[r] = out.at(y);
      } else {
        SmallVector<Value> donors;
        if (!fused) {
          st.ops.push_back(&inner);
          for (Value v : inner.getOperands()) {
            st.env[v] = buffer.at(v);
            if (dies(v)) donors.push_back(v);
          }
          st.results.push_back(inner.getResult(0));
        } else {
          for (auto [a, x] : llvm::zip(fused.getBody()->getArguments(), fused.getInputs())) {
            st.env[a] = buffer.at(x);
            if (dies(x) && !readByGather(a)) donors.push_back(a);
          }
          for (Operation &o : fused.getBody()->without_terminator()) st.ops.push_back(&o);
          for (Value y : fused.getYield().getValues())
            if (!llvm::is_contained(st.results, y)) st.results.push_back(y);
        }
        assignResidueBuffers(kb, st.results, st.env, donors);
        if (!fused)
          buffer[inner.getResult(0)] = st.env.at(inner.getResult(0));
        else
          for (auto [r, y] : llvm::zip(fused.getResults(), fused.getYield().getValues())) buffer[r] = st.env.at(y);
      }
    }

    if (usesGpuLaunches(options))
      emitGpu(kb, stages);
    else
      emitCpu(kb, op, stages);
    SmallVector<Value> repl;
    for (Value y : op.getYield().getValues()) repl.push_back(buffer.at(y));
    rewriter.replaceOp(op, repl);
    return success();
  }

  // GPU targets (fhe-fuse (g) forms only these): a batch of forward NTTs
  // and the residue kernel they feed, computed in the NTTs' last level's
  // launch on their results in shared memory (the products never wait in
  // memory for a kernel of their own; cuTraNTT's fusion of the Hadamard's
  // neighbours).
  static LogicalResult checkGpuForm(fhe::FusedOp op, const LoweringOptions &o) {
    SmallVector<Operation *> stages, transforms;
    for (Operation &inner : op.getBody()->without_terminator()) stages.push_back(&inner);
    auto fused = [](Operation *x, fhe::Space s) {
      auto f = dyn_cast<fhe::FusedOp>(x);
      return f && f.getSpace() == s;
    };
    if (stages.size() == 2 && fused(stages[0], fhe::Space::transform))
      for (Operation &t : cast<fhe::FusedOp>(stages[0]).getBody()->without_terminator()) transforms.push_back(&t);
    else if (!stages.empty())
      transforms.push_back(stages[0]);
    if (stages.size() != 2 || !llvm::all_of(transforms, [](Operation *t) { return isa<fhe::NttOp>(t); }) ||
        !(fused(stages[1], fhe::Space::residue) || isa<fhe::HadamardOp, fhe::AddOp, fhe::SubOp>(stages[1])))
      return op.emitOpError() << "on a GPU target a rows kernel must be a batch of forward NTTs and the residue "
                                 "kernel they feed (as fhe-fuse forms it)";
    if (auto res = dyn_cast<fhe::FusedOp>(stages[1]))
      if (llvm::any_of(res.getBody()->without_terminator(), llvm::IsaPred<fhe::AutomorphismOp>))
        return op.emitOpError() << "on a GPU target a rows kernel's residue kernel cannot gather (fhe.automorphism): "
                                   "its inputs from the NTTs are one element per thread";
    for (Operation *t : transforms)
      if (failed(checkGpuLevels(t, o))) return failure();
    return success();
  }

  static void emitGpu(KernelBuilder &kb, ArrayRef<Stage> stages) {
    const Stage &tr = stages[0], &res = stages[1];
    if (!gpuNttEpilogueFits(*kb.options.target, tr.ops)) {
      // Too many transforms for a block's tiles: their launches, then the
      // residue kernel's.
      emitTransformsGpu(kb, tr.ops, tr.ins, tr.outs);
      kb.phaseBegin(res.phase);
      emitResidueElements(kb, res.ops, res.env, res.results);
      kb.phaseEnd(res.phase);
      return;
    }
    ResidueEmitter e(kb, res.ops, res.env, res.results);
    // The residue kernel's inputs that transform i computes: given from tile i.
    llvm::DenseMap<Value, int64_t> fromTransform;
    for (Operation *o : res.ops)
      for (Value v : o->getOperands())
        if (!llvm::is_contained(res.ops, v.getDefiningOp()))
          if (auto it = llvm::find(tr.outs, res.env.at(v)); it != tr.outs.end())
            fromTransform[v] = it - tr.outs.begin();
    PrimeRow row;
    Value prime;
    GpuNttEpilogue epilogue{[&](Value j) {
                              prime = j;
                              row = e.rowFor(j, kb.cidx(0), 1);
                            },
                            [&](Value at, ArrayRef<Value> xs) {
                              llvm::DenseMap<Value, Value> known;
                              for (auto [v, i] : fromTransform) known[v] = xs[size_t(i)];
                              e.element(prime, at, row, 1, &known);
                            }};
    // (Timed as the NTTs' phase: the products take no launch of their own.)
    emitTransformsGpu(kb, tr.ops, tr.ins, tr.outs, &epilogue);
  }

  static void emitCpu(KernelBuilder &kb, fhe::FusedOp op, MutableArrayRef<Stage> stages) {
    auto basis = cast<fhe::RnsType>(op.getResult(0).getType()).getBasis();
    Value m = kb.primeCount(basis);
    kb.phaseBegin(phaseOf(op));
    kb.parallel(ValueRange{m}, [&](ValueRange iv) {
      Value j = iv[0];
      // After a stage's last transform, the next prime's first row is
      // prefetched (when the pipeline starts with transforms).
      Value nextPrime = arith::MinUIOp::create(kb.b, kb.loc, kb.add(j, kb.cidx(1)), kb.sub(m, kb.cidx(1)));
      std::pair<Value, Value> after;
      if (stages.front().transform) after = {stages.front().ins.front(), nextPrime};
      // Each stage's time is lapped for its own phase (the kernel's wall time
      // is split in proportion).
      kb.phaseLap(std::nullopt);
      for (Stage &st : stages) {
        if (st.automorphism) {
          st.automorphism->row(j, st.prefetchInput ? nextPrime : Value());
          kb.phaseLap(st.phase);
          continue;
        }
        if (!st.transform) {
          emitResidueRow(kb, st.ops, st.env, st.results, j);
          kb.phaseLap(st.phase);
          continue;
        }
        emitTransformBatchRow(kb, st.ops, st.ins, st.outs, j, after);
        kb.phaseLap(st.phase);
      }
    });
    kb.phaseEnd(phaseOf(op));
  }
};

} // namespace

void populateRowsPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  patterns.add<FusedRowsLowering>(tc, patterns.getContext(), o);
}

} // namespace fhec
