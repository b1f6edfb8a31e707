// fhe-fuse: kernel fusion (HE-Booster's FMAC; Jung et al. 2021, Section IV).
// Ops of one iteration space are grouped with union-find; a tentative merge
// stands only if the graph of groups stays acyclic (no path leaves a group
// and comes back), so each group can run as one kernel at one point of the
// program. Groups become fhe.fused ops and the body is re-sorted.
#include "dialect/FHE/Transforms/Passes.h"
#include "target/Target.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/IntEqClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace fhec {
#define GEN_PASS_DEF_FHEFUSE
#include "dialect/FHE/Transforms/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

// The dataflow graph of a single-block body, with groups of ops: a
// union-find over the ops' positions, whose leader is a group's first op.
class Grouping {
public:
  explicit Grouping(Block &body) {
    for (Operation &op : body.without_terminator()) {
      index[&op] = ops.size();
      ops.push_back(&op);
    }
    for (auto [to, op] : llvm::enumerate(ops))
      for (Value v : op->getOperands())
        if (auto it = index.find(v.getDefiningOp()); it != index.end()) edges.push_back({it->second, unsigned(to)});
    groups.grow(ops.size());
  }

  bool sameGroup(Operation *a, Operation *b) { return leader(a) == leader(b); }
  unsigned leaderOf(Operation *op) const { return leader(op); }

  // Merges the groups of a and b unless that makes the group graph cyclic.
  bool tryMerge(Operation *a, Operation *b) {
    if (sameGroup(a, b)) return true;
    unsigned n = members(a) + members(b);
    llvm::IntEqClasses before = groups;
    groups.join(index.lookup(a), index.lookup(b));
    if (acyclic()) {
      sizes[leader(a)] = n;
      return true;
    }
    groups = std::move(before);
    return false;
  }

  // The number of ops in op's group.
  unsigned members(Operation *op) const {
    auto it = sizes.find(leader(op));
    return it == sizes.end() ? 1 : it->second;
  }

  // Groups of at least two ops, members in program order.
  SmallVector<SmallVector<Operation *>> multiOpGroups() {
    llvm::MapVector<unsigned, SmallVector<Operation *>> byLeader;
    for (auto [i, op] : llvm::enumerate(ops)) byLeader[groups.findLeader(i)].push_back(op);
    SmallVector<SmallVector<Operation *>> out;
    for (auto &[leader, members] : byLeader)
      if (members.size() > 1) out.push_back(members);
    return out;
  }

private:
  unsigned leader(Operation *op) const { return groups.findLeader(index.lookup(op)); }

  // Kahn's algorithm on the group graph: an edge from the group of an
  // operand's producer to the group of its user. Runs once per tentative
  // merge, so it works on flat arrays (a bootstrap body has ~10^5 ops).
  bool acyclic() const {
    unsigned n = ops.size();
    SmallVector<unsigned> leaderOf(n), indegree(n, 0), start(n + 1, 0);
    for (unsigned i = 0; i < n; ++i) leaderOf[i] = groups.findLeader(i);
    for (auto [from, to] : edges)
      if (leaderOf[from] != leaderOf[to]) {
        ++start[leaderOf[from] + 1];
        ++indegree[leaderOf[to]];
      }
    for (unsigned i = 0; i < n; ++i) start[i + 1] += start[i];
    SmallVector<unsigned> succ(start[n]), fill(start.begin(), start.end() - 1);
    for (auto [from, to] : edges)
      if (leaderOf[from] != leaderOf[to]) succ[fill[leaderOf[from]]++] = leaderOf[to];
    SmallVector<unsigned> ready;
    unsigned nodes = 0;
    for (unsigned i = 0; i < n; ++i)
      if (leaderOf[i] == i) {
        ++nodes;
        if (!indegree[i]) ready.push_back(i);
      }
    unsigned sorted = 0;
    while (!ready.empty()) {
      unsigned g = ready.pop_back_val();
      ++sorted;
      for (unsigned s : ArrayRef<unsigned>(succ).slice(start[g], start[g + 1] - start[g]))
        if (!--indegree[s]) ready.push_back(s);
    }
    return sorted == nodes;
  }

  SmallVector<Operation *> ops;
  llvm::DenseMap<Operation *, unsigned> index;
  SmallVector<std::pair<unsigned, unsigned>> edges;  // dataflow: (producer, user) positions
  // Not llvm::EquivalenceClasses: it has no move assignment, and the copy
  // that undid a rejected merge kept every old node in its bump allocator
  // (20 GB for a full-slot bootstrap).
  llvm::IntEqClasses groups;
  llvm::DenseMap<unsigned, unsigned> sizes;  // by leader, groups of two or more
};

// GPU targets: the most members of a batch (transforms, lone CRTs), whose
// launch takes each one's input and output pointers as kernel parameters:
// PTX before ISA 8.1 allows 4352 bytes of them (544 pointers).
constexpr unsigned kMaxGpuBatch = 128;

// A CRT with prime-major residues: on GPU targets a tiled launch of its own (emitGpuCrt).
bool isPrimeMajorCrt(Operation *op) {
  auto crt = dyn_cast<fhe::CrtOp>(op);
  return crt && crt.getResult().getType().getLayout() == fhe::Layout::prime_major;
}

bool isResidueOp(Operation *op) { return isa<fhe::HadamardOp, fhe::AddOp, fhe::SubOp>(op); }

bool isCoefficientOp(Operation *op) {
  return isa<fhe::IcrtOp, fhe::CrtOp, fhe::PolyAddOp, fhe::PolySubOp, fhe::PolyNegateOp, fhe::PolyShrOp,
             fhe::PolyReduceOp, fhe::PolyModRaiseOp, fhe::PolyAddScalarOp>(op);
}

// The iteration space key of a residue op: its RNS type (basis, ring, layout, domain).
Type residueKey(Operation *op) { return op->getResult(0).getType(); }

unsigned ringOf(Type t) {
  if (auto p = dyn_cast<fhe::PolyType>(t)) return p.getLogN();
  return cast<fhe::RnsType>(t).getLogN();
}

struct FHEFusePass : public fhec::impl::FHEFuseBase<FHEFusePass> {
  using FHEFuseBase::FHEFuseBase;

  void runOnOperation() override {
    const TargetSpec *spec = getTarget(getOperation());
    if (!spec) return signalPassFailure();
    for (auto f : getOperation().getOps<func::FuncOp>()) {
      if (f.isExternal() || !f.getBody().hasOneBlock()) continue;
      eraseDeadOps(f);
      if (scaleIcrt) foldIcrtScaling(f);
      if (shiftIcrt) foldIcrtShift(f);
      if (lazyCrt) markLazyCrt(f);
      if (lazyProducts) markLazyProducts(f);
      if (residue && failed(fuse(f, fhe::Space::residue, spec->gpu && gathers))) return signalPassFailure();
      if (coefficient && failed(fuse(f, fhe::Space::coefficient, spec->gpu))) return signalPassFailure();
      if (transform && failed(fuse(f, fhe::Space::transform, spec->gpu))) return signalPassFailure();
      if (rows && failed(fuseRows(f, spec->gpu))) return signalPassFailure();
    }
  }

  // Results nothing reads: a group of them would be a kernel without results
  // (found by fhec-fuzz-mlir on a program with dead values). fhe ops are pure.
  static void eraseDeadOps(func::FuncOp f) {
    SmallVector<Operation *> ops;
    for (Operation &op : f.getBody().front().without_terminator()) ops.push_back(&op);
    // Users first, so that a chain dies whole.
    for (Operation *op : llvm::reverse(ops))
      if (isOpTriviallyDead(op)) op->erase();
  }

  // (b) iNTT -> iCRT: the iNTT's result becomes coeff_scaled when every user
  // is an iCRT (through transposes, which keep the domain).
  // v and its transposes (transitively), if every other user of them is an
  // OpTy; none otherwise.
  template <typename... OpTys> static std::optional<SmallVector<Value>> onlyUsedBy(Value v) {
    SmallVector<Value> chain{v};
    for (size_t i = 0; i < chain.size(); ++i)
      for (Operation *user : chain[i].getUsers()) {
        if (isa<fhe::TransposeOp>(user))
          chain.push_back(user->getResult(0));
        else if (!isa<OpTys...>(user))
          return std::nullopt;
      }
    return chain;
  }

  void foldIcrtScaling(func::FuncOp f) {
    f.walk([&](fhe::InttOp intt) {
      auto t = cast<fhe::RnsType>(intt.getResult().getType());
      if (t.getDomain() != fhe::Domain::coeff) return;
      if (auto chain = onlyUsedBy<fhe::IcrtOp, fhe::IcrtSumOp>(intt.getResult()))
        for (Value v : *chain) v.setType(cast<fhe::RnsType>(v.getType()).withDomain(fhe::Domain::coeff_scaled));
    });
  }

  // (h) CRT -> NTT: a CRT whose users are all forward NTTs (through
  // transposes) may leave its residues in [0, 4p), the NTT's input range:
  // the IFMA CRT then saves two of its four final conditional subtractions.
  void markLazyCrt(func::FuncOp f) {
    f.walk([&](fhe::CrtOp crt) {
      if (onlyUsedBy<fhe::NttOp>(crt.getResult())) crt.setLazy(true);
    });
  }

  // (i) Products for the iNTT: a Hadamard product or difference whose users
  // are all iNTTs (through transposes) or such differences may leave its
  // residues in [0, 2p), the iNTT's input range: Barrett's second
  // conditional subtraction goes (HE Mul: the Karatsuba terms, axbx, and
  // the evaluation-key products).
  void markLazyProducts(func::FuncOp f) {
    llvm::DenseMap<Value, bool> memo;
    std::function<bool(Value)> lazyOk = [&](Value v) -> bool {
      if (auto it = memo.find(v); it != memo.end()) return it->second;
      memo[v] = false;  // no cycles in a function body; a guard all the same
      bool ok = llvm::all_of(v.getUsers(), [&](Operation *u) {
        if (isa<fhe::InttOp>(u)) return true;
        if (isa<fhe::TransposeOp, fhe::SubOp>(u)) return lazyOk(u->getResult(0));
        return false;
      });
      return memo[v] = ok;
    };
    f.walk([&](Operation *op) {
      if (auto had = dyn_cast<fhe::HadamardOp>(op); had && lazyOk(had.getResult())) had.setLazy(true);
      if (auto sub = dyn_cast<fhe::SubOp>(op); sub && lazyOk(sub.getResult())) sub.setLazy(true);
    });
  }

  // (f) poly_shr(icrt(x)) -> icrt(x) {shift}: floor(floor(X / 2^a) / 2^b) = floor(X / 2^(a + b)),
  // and a rounded poly_shr gives a rounded shift, floor((floor(X / 2^a) + 2^(b-1)) / 2^b) =
  // floor((X + 2^(a+b-1)) / 2^(a+b)) (an addend e included: X + e throughout).
  void foldIcrtShift(func::FuncOp f) {
    f.walk([&](fhe::PolyShrOp shr) {
      auto icrt = shr.getInput().getDefiningOp<fhe::IcrtOp>();
      // (A rounded shift followed by another shift is not one shift.)
      if (!icrt || !icrt->hasOneUse() || icrt.getRound()) return;
      OpBuilder b(shr);
      auto folded = fhe::IcrtOp::create(b, b.getFusedLoc({icrt.getLoc(), shr.getLoc()}), shr.getResult().getType(),
                                        icrt.getInput(), icrt.getAddend(), icrt.getOrderAttr(), icrt.getBlockAttr(),
                                        b.getI64IntegerAttr(icrt.getShiftBits() + int64_t(shr.getShift())),
                                        shr.getRound());
      shr.getResult().replaceAllUsesWith(folded.getResult());
      shr.erase();
      icrt.erase();
    });
  }

  // (j) An automorphism a residue kernel can gather: a complete NTT's
  // prime-major slots, from a value no residue kernel computes (the
  // kernel's input), read only by residue ops of its type in one group.
  static bool isFusableGather(fhe::AutomorphismOp a, Grouping &g) {
    fhe::RnsType t = a.getResult().getType();
    if (t.getDomain() != fhe::Domain::eval || t.getIncomplete() || t.getLayout() != fhe::Layout::prime_major ||
        a->use_empty())
      return false;
    if (Operation *def = a.getInput().getDefiningOp(); def && (isResidueOp(def) || isa<fhe::AutomorphismOp>(def)))
      return false;
    Operation *first = *a->getUsers().begin();
    return llvm::all_of(a->getUsers(), [&](Operation *u) {
      return isResidueOp(u) && residueKey(u) == Type(t) && g.sameGroup(u, first);
    });
  }

  // `gpu`: the target's form of each space (coefficient: CRT batches and
  // the tiled CRT's input in memory; residue: with gathers, (j)).
  LogicalResult fuse(func::FuncOp f, fhe::Space space, bool gpu = false) {
    Block &body = f.getBody().front();
    Grouping g(body);
    bool residueSpace = space == fhe::Space::residue;
    SmallVector<Operation *> candidates;
    for (Operation &op : body.without_terminator())
      if (space == fhe::Space::residue     ? isResidueOp(&op)
          : space == fhe::Space::transform ? isa<fhe::NttOp, fhe::InttOp>(op)
                                           : isCoefficientOp(&op))
        candidates.push_back(&op);
    auto compatible = [&](Operation *a, Operation *b) {
      if (space == fhe::Space::transform) return fhe::sameShape(a, b);
      return residueSpace ? residueKey(a) == residueKey(b)
                          : ringOf(a->getResult(0).getType()) == ringOf(b->getResult(0).getType());
    };
    auto merge = [&](Operation *a, Operation *b) { g.tryMerge(a, b); };
    if (space == fhe::Space::transform) {
      // Siblings only (a transform never feeds one of its own kind); the
      // acyclicity check keeps transforms that depend on each other apart.
      for (auto [i, a] : llvm::enumerate(candidates))
        for (Operation *b : ArrayRef<Operation *>(candidates).take_front(i))
          if (compatible(a, b) && (!gpu || g.members(a) + g.members(b) <= kMaxGpuBatch)) merge(b, a);
    } else if (residueSpace) {
      // Producer-consumer and sibling ops of one basis: everything that can
      // share one pass over the residues. A merge of a's group with a group
      // that failed since a's group last changed fails again (the grouping is
      // the same): each such group is tried once.
      for (auto [i, a] : llvm::enumerate(candidates)) {
        llvm::SmallDenseSet<unsigned, 16> failed;
        for (Operation *b : ArrayRef<Operation *>(candidates).take_front(i)) {
          if (!compatible(a, b) || g.sameGroup(a, b) || failed.contains(g.leaderOf(b))) continue;
          if (g.tryMerge(b, a))
            failed.clear();
          else
            failed.insert(g.leaderOf(b));
        }
      }
      // (j) With `gpu` (GPU targets, gathers on): an evaluation-domain
      // automorphism whose users all lie in one group joins it.
      if (gpu)
        for (Operation &op : body.without_terminator())
          if (auto a = dyn_cast<fhe::AutomorphismOp>(op); a && isFusableGather(a, g))
            g.tryMerge(*a->getUsers().begin(), a);
    } else {
      // A producer joins the group of its users when all of them are in one
      // group: its BigInt (or residues) then never go to memory. On GPU
      // targets a prime-major CRT stays out of its producer's group: its
      // tiled launch (emitGpuCrt) reads the BigInt from memory, and a block
      // of the producer's tiled kernel could not hold every prime's
      // residues of its coefficients.
      for (Operation *op : llvm::reverse(candidates)) {
        Value r = op->getResult(0);
        if (r.use_empty()) continue;
        Operation *first = *r.getUsers().begin();
        if (gpu && llvm::any_of(r.getUsers(), isPrimeMajorCrt)) continue;
        bool oneGroup = llvm::all_of(r.getUsers(), [&](Operation *u) {
          return isCoefficientOp(u) && compatible(op, u) && g.sameGroup(u, first);
        });
        if (oneGroup) merge(first, op);
      }
      // The bit-windows of one BigInt (fhe.crt with `window`): one pass reads
      // it for all of them.
      llvm::DenseMap<Value, Operation *> firstWindow;
      for (Operation *op : candidates)
        if (auto crt = dyn_cast<fhe::CrtOp>(op); crt && crt.getWindow())
          if (auto [it, fresh] = firstWindow.try_emplace(crt.getInput(), op); !fresh) merge(it->second, op);
      // GPU targets: CRTs of one shape that stay alone (a product's input
      // BigInts) form a batch, one launch for all of them (emitGpuCrt).
      if (gpu) {
        llvm::DenseSet<Operation *> grouped;
        for (auto &members : g.multiOpGroups()) grouped.insert(members.begin(), members.end());
        SmallVector<Operation *> lone;
        for (Operation *op : candidates)
          if (isPrimeMajorCrt(op) && !grouped.count(op)) lone.push_back(op);
        for (auto [i, a] : llvm::enumerate(lone))
          for (Operation *b : ArrayRef<Operation *>(lone).take_front(i))
            if (fhe::sameShape(a, b) && g.members(b) < kMaxGpuBatch) {
              merge(b, a);
              break;
            }
      }
    }
    for (auto &members : g.multiOpGroups()) materialize(members, space);
    if (!sortTopologically(&body)) return f.emitOpError() << "fhe-fuse: the fused body has a cycle";
    return success();
  }

  // (g) Row pipelines: a residue kernel with the transform kernels (and
  // automorphisms) that only feed it and those that only read its results,
  // all prime-major on one basis, become one fhe.fused rows kernel that takes
  // each prime row through the whole pipeline while it is in cache. GPU
  // targets (a kernel's grid covers every prime at once) take only the
  // forward NTTs that feed the residue kernel: it becomes their last level's
  // epilogue (NttGpu.cpp), and their results never go to memory.
  LogicalResult fuseRows(func::FuncOp f, bool gpu) {
    Block &body = f.getBody().front();
    Grouping g(body);
    auto spaceOf = [](Operation *op) -> std::optional<fhe::Space> {
      if (auto fused = dyn_cast<fhe::FusedOp>(op)) return fused.getSpace();
      if (isa<fhe::NttOp, fhe::InttOp>(op)) return fhe::Space::transform;
      if (isResidueOp(op)) return fhe::Space::residue;
      return std::nullopt;
    };
    auto onlyUser = [](Operation *producer, Operation *user) {
      return llvm::all_of(producer->getUsers(), [&](Operation *u) { return u == user; });
    };
    for (Operation &r : body.without_terminator()) {
      if (spaceOf(&r) != fhe::Space::residue) continue;
      auto t0 = cast<fhe::RnsType>(r.getResult(0).getType());
      auto fits = [&](Operation *k) {
        return llvm::all_of(llvm::concat<Type>(k->getOperandTypes(), k->getResultTypes()), [&](Type t) {
          auto x = dyn_cast<fhe::RnsType>(t);
          return x && x.getBasis() == t0.getBasis() && x.getLogN() == t0.getLogN() &&
                 x.getLayout() == fhe::Layout::prime_major;
        });
      };
      if (!fits(&r) || (gpu && t0.getIncomplete() != 0)) continue;
      auto merge = [&](Operation *k) {
        return fits(k) && g.tryMerge(&r, k);
      };
      if (gpu) {
        // One batch of forward NTTs that only feeds it (their last level's
        // epilogue, NttGpu.cpp).
        auto forward = [](Operation *t) {
          auto fused = dyn_cast<fhe::FusedOp>(t);
          return fused ? llvm::all_of(fused.getBody()->without_terminator(),
                                      [](Operation &o) { return isa<fhe::NttOp>(o); })
                       : isa<fhe::NttOp>(t);
        };
        // (A kernel with gathers (j) reads other threads' elements: not an epilogue.)
        auto fused = dyn_cast<fhe::FusedOp>(&r);
        if (fused && llvm::any_of(fused.getBody()->without_terminator(), llvm::IsaPred<fhe::AutomorphismOp>))
          continue;
        for (Value v : r.getOperands()) {
          Operation *def = v.getDefiningOp();
          if (def && spaceOf(def) == fhe::Space::transform && onlyUser(def, &r) && forward(def) && merge(def)) break;
        }
        continue;
      }
      // Transforms that only feed it; an automorphism that only feeds it,
      // with the transform that only feeds the automorphism (a rotation's
      // NTT, slot permutation and products: each row stays in cache).
      for (Value v : r.getOperands()) {
        Operation *def = v.getDefiningOp();
        if (def && spaceOf(def) == fhe::Space::transform && onlyUser(def, &r)) merge(def);
        auto a = dyn_cast_or_null<fhe::AutomorphismOp>(def);
        if (!a || !onlyUser(a, &r) || !merge(a)) continue;
        if (Operation *t = a.getInput().getDefiningOp(); t && spaceOf(t) == fhe::Space::transform && onlyUser(t, a))
          merge(t);
      }
      llvm::SetVector<Operation *> users(r.getUsers().begin(), r.getUsers().end());
      for (Operation *u : users)
        if (spaceOf(u) == fhe::Space::transform &&
            llvm::all_of(u->getOperands(), [&](Value v) { return v.getDefiningOp() == &r; }))
          merge(u);
    }
    for (auto &members : g.multiOpGroups()) materialize(members, fhe::Space::rows);
    if (!sortTopologically(&body)) return f.emitOpError() << "fhe-fuse: the fused body has a cycle";
    return success();
  }

  // One fhe.fused op for `members` (in program order), placed after the last.
  void materialize(ArrayRef<Operation *> members, fhe::Space space) {
    llvm::SmallPtrSet<Operation *, 8> inGroup(members.begin(), members.end());
    llvm::SetVector<Value> inputs;
    SmallVector<Value> results;
    for (Operation *op : members) {
      for (Value v : op->getOperands())
        if (!inGroup.contains(v.getDefiningOp())) inputs.insert(v);
      for (Value r : op->getResults())
        if (llvm::any_of(r.getUsers(), [&](Operation *u) { return !inGroup.contains(u); })) results.push_back(r);
    }
    OpBuilder b(members.back()->getContext());
    b.setInsertionPointAfter(members.back());
    Location loc = b.getFusedLoc(llvm::map_to_vector(members, [](Operation *op) { return op->getLoc(); }));
    auto fused = fhe::FusedOp::create(b, loc, TypeRange(ValueRange(results)), inputs.getArrayRef(),
                                      fhe::SpaceAttr::get(b.getContext(), space));
    Block *kernel = b.createBlock(&fused.getRegion());
    IRMapping map;
    for (Value v : inputs) map.map(v, kernel->addArgument(v.getType(), v.getLoc()));
    for (Operation *op : members) b.clone(*op, map);
    fhe::YieldOp::create(b, loc, llvm::map_to_vector(results, [&](Value r) { return map.lookup(r); }));
    for (auto [r, n] : llvm::zip(results, fused.getResults())) r.replaceAllUsesWith(n);
    for (Operation *op : llvm::reverse(members)) op->erase();
  }
};

} // namespace
