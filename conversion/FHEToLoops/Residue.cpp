// Residue-space kernels: the pointwise RNS ops (Hadamard product, add, sub)
// alone or fused (fhe.fused residue: HE-Booster's FMAC, Jung et al. 2021
// Section IV, one pass over memory for a whole chain; on GPUs with the
// evaluation-domain automorphisms of its inputs as gathers), the transpose between
// layouts, and basis_prefix views. With an incomplete NTT (cuTraNTT) an
// evaluation-domain element is a polynomial of K = 2^k residues mod
// X^K - zeta_b and the Hadamard product multiplies those small polynomials.
#include "conversion/FHEToLoops/Patterns.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace fhec {

SmallVector<Value> emitResidueElement(KernelBuilder &kb, Operation *op, ArrayRef<SmallVector<Value>> args,
                                      const PrimeRow &row) {
  const SmallVector<Value> &x = args[0], &y = args[1];
  size_t K = x.size();
  SmallVector<Value> z(K);
  if (isa<fhe::AddOp>(op)) {
    for (size_t u = 0; u < K; ++u) z[u] = kb.modAdd(x[u], y[u], row.p);
  } else if (auto sub = dyn_cast<fhe::SubOp>(op)) {
    // Lazy: operands and result in [0, 2p) (an iNTT's input).
    int64_t range = sub.getLazy() ? 2 : 1;
    for (size_t u = 0; u < K; ++u) z[u] = kb.modSub(x[u], y[u], row.p, range, range);
  } else {
    auto had = cast<fhe::HadamardOp>(op);
    auto prod = [&](size_t a, size_t b) { return kb.mulBarrett(x[a], y[b], row.p, row.mu, row.bits); };
    // Lazy: the product stays in [0, 2p), one conditional subtraction fewer.
    if (K == 1) return {kb.mulBarrett(x[0], y[0], row.p, row.mu, row.bits, had.getLazy() ? 2 : 1)};
    // c_l = sum_{a+b=l} x_a y_b + zeta sum_{a+b=l+K} x_a y_b.
    for (size_t l = 0; l < K; ++l) {
      Value lo, hi;
      for (size_t a = 0; a < K; ++a) {
        size_t b = (l + K - a) % K;
        Value t = prod(a, b);
        Value &acc = a <= l ? lo : hi;
        acc = acc ? kb.modAdd(acc, t, row.p) : t;
      }
      z[l] = hi ? kb.modAdd(lo, kb.mulShoup(hi, row.zeta, row.zetaShoup, row.p), row.p) : lo;
    }
  }
  return z;
}

void assignResidueBuffers(KernelBuilder &kb, ArrayRef<Value> results, llvm::DenseMap<Value, Value> &env,
                          SmallVector<Value> donors) {
  for (Value r : results) {
    auto d = llvm::find_if(donors, [&](Value in) { return env.at(in).getType() == kb.memrefOf(r.getType()); });
    if (d == donors.end()) {
      env[r] = kb.alloc(kb.memrefOf(r.getType()));
      continue;
    }
    // A copy first: env[r] may grow the map and free the entry at() refers to.
    Value donated = env.at(*d);
    env[r] = donated;
    donors.erase(d);
  }
}

ResidueEmitter::ResidueEmitter(KernelBuilder &kb, ArrayRef<Operation *> ops, const llvm::DenseMap<Value, Value> &env,
                               ArrayRef<Value> results)
    : kb(kb), ops(ops), env(env), results(results) {
  auto t0 = cast<fhe::RnsType>(results.front().getType());
  basis = t0.getBasis();
  K = int64_t(1) << t0.getIncomplete();
  N = t0.getN();
  consts = kb.table(abi::TableKind::PrimeConsts, basis, 0, t0.getLogN());
  zetas = K > 1 ? kb.table(abi::TableKind::IncompleteZeta, basis, t0.getIncomplete(), t0.getLogN()) : Value();
}

namespace {

// Lazy sums of products on 32-bit residue words (HE-Booster's FMAC, Jung et
// al. 2021 Section IV, with the reduction deferred as in Harvey 2014): a tree
// of fhe.add over at least kLazyProducts Hadamard products, each used only
// by the tree and no kernel result, sums the 64-bit products x y < p^2 and
// reduces once, not a Barrett reduction and a modular add per product. A
// 64-bit word holds 2^(64 - 2b) products of b-bit primes (16 at b = 30).
constexpr int64_t kLazyProducts = 3;

struct LazySums {
  llvm::DenseSet<Operation *> ops;  // the trees' adds and products
  int64_t capacity = 0;             // products a 64-bit sum holds

  LazySums(const KernelBuilder &kb, ArrayRef<Operation *> chain, ArrayRef<Value> results, fhe::BasisAttr basis,
           int64_t K) {
    int64_t b = int64_t(basis.getPrimeBits());
    // b <= 30: a reduced sum's two halves below 4p < 2^32; b >= 28: the
    // quotient's correction below takes at most 8 steps.
    if (!kb.options.target->gpu || kb.options.target->wordBits != 32 || K != 1 || b < 28 || b > 30) return;
    capacity = int64_t(1) << (64 - 2 * b);
    llvm::SmallPtrSet<Operation *, 32> in(chain.begin(), chain.end());
    // v's only use is an fhe.add of the chain and it is no result.
    auto feedsSum = [&](Value v) {
      return v.hasOneUse() && !llvm::is_contained(results, v) && isa<fhe::AddOp>(*v.user_begin()) &&
             in.contains(*v.user_begin());
    };
    for (Operation *root : chain) {
      if (!isa<fhe::AddOp>(root) || feedsSum(root->getResult(0))) continue;
      SmallVector<Operation *> tree, work{root};
      int64_t products = 0;
      while (!work.empty()) {
        Operation *a = work.pop_back_val();
        tree.push_back(a);
        for (Value v : a->getOperands()) {
          Operation *d = v.getDefiningOp();
          if (!d || !in.contains(d) || !feedsSum(v)) continue;
          if (isa<fhe::AddOp>(d)) work.push_back(d);
          if (isa<fhe::HadamardOp>(d)) {
            tree.push_back(d);
            ++products;
          }
        }
      }
      if (products >= kLazyProducts) ops.insert(tree.begin(), tree.end());
    }
  }
};

// z mod p for a 64-bit z (KernelBuilder::reduceWide) with constants derived
// from Barrett's mu = floor(2^(2b) / p): floor(2^32 / p) = floor(mu /
// 2^(2b - 32)); floor(2^64 / p) = mu 2^(64 - 2b) + c, c < 2^(64 - 2b) found
// by binary steps on the remainder.
struct WideReduction {
  Value p, oneShoup, r32, r32Shoup;
  WideReduction(KernelBuilder &kb, const PrimeRow &row, int64_t b) : p(row.p) {
    oneShoup = kb.shr(row.mu, kb.c64(2 * b - 32));
    r32 = kb.sub(kb.c64(int64_t(1) << 32), kb.mul(row.p, oneShoup));
    Value q = kb.shl(row.mu, kb.c64(64 - 2 * b));
    Value rem = kb.sub(kb.c64(0), kb.mul(q, row.p));  // 2^64 - q p, in [0, 2^(64 - 2b) p)
    for (int64_t s = 64 - 2 * b - 1; s >= 0; --s) {
      Value step = kb.shl(row.p, kb.c64(s));
      Value ge = arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::uge, rem, step);
      rem = arith::SelectOp::create(kb.b, kb.loc, ge, kb.sub(rem, step), rem);
      q = arith::SelectOp::create(kb.b, kb.loc, ge, kb.add(q, kb.c64(int64_t(1) << s)), q);
    }
    r32Shoup = kb.sub(q, kb.shl(oneShoup, kb.c64(32)));
  }
  Value operator()(KernelBuilder &kb, Value z) const { return kb.reduceWide(z, p, oneShoup, r32, r32Shoup); }
};

} // namespace

void ResidueEmitter::element(Value j, Value blk, const PrimeRow &row, int64_t W,
                             const llvm::DenseMap<Value, Value> *known) {
  llvm::DenseMap<Value, SmallVector<Value>> vals;
  if (known)
    for (auto [v, x] : *known) vals[v] = {x};
  auto idxOf = [&](Value v, int64_t u) -> SmallVector<Value> {
    Value i = K == 1 ? blk : kb.add(kb.mul(blk, kb.cidx(K)), kb.cidx(u));
    if (cast<fhe::RnsType>(v.getType()).getLayout() == fhe::Layout::prime_major) return {j, i};
    return {i, j};
  };
  auto get = [&](Value v) -> SmallVector<Value> {
    auto it = vals.find(v);
    if (it != vals.end()) return it->second;
    SmallVector<Value> e;
    for (int64_t u = 0; u < K; ++u) e.push_back(kb.loadW(env.at(v), idxOf(v, u), W));
    return vals[v] = e;
  };
  LazySums lazy(kb, ops, results, basis, K);
  // A lazy value: its 64-bit sum and the products it may hold (a reduced
  // residue, below p, counts as one).
  llvm::DenseMap<Value, std::pair<Value, int64_t>> wide;
  std::optional<WideReduction> reduceWide;
  auto reduced = [&](Value z) {
    if (!reduceWide) reduceWide.emplace(kb, row, int64_t(basis.getPrimeBits()));
    return (*reduceWide)(kb, z);
  };
  auto wideOf = [&](Value v) -> std::pair<Value, int64_t> {
    auto it = wide.find(v);
    return it != wide.end() ? it->second : std::pair<Value, int64_t>{get(v)[0], 1};
  };
  // x y as one 32 x 32 -> 64-bit multiply (PTX mul.wide.u32).
  // (Operands built one statement at a time: argument evaluation order is
  // unspecified, and the IR should not depend on the host compiler.)
  auto wideProduct = [&](Value x, Value y) {
    auto w32 = [&](Value v) { return kb.widen(arith::TruncIOp::create(kb.b, kb.loc, kb.b.getI32Type(), v)); };
    Value wx = w32(x);
    Value wy = w32(y);
    return kb.mul(wx, wy);
  };
  for (Operation *op : ops) {
    if (lazy.ops.contains(op)) {
      Value r = op->getResult(0);
      if (isa<fhe::HadamardOp>(op)) {
        Value x = get(op->getOperand(0))[0];
        Value y = get(op->getOperand(1))[0];
        wide[r] = {wideProduct(x, y), 1};
        continue;
      }
      auto x = wideOf(op->getOperand(0)), y = wideOf(op->getOperand(1));
      while (x.second + y.second > lazy.capacity) {
        auto &big = x.second >= y.second ? x : y;
        big = {reduced(big.first), 1};
      }
      std::pair<Value, int64_t> sum{kb.add(x.first, y.first), x.second + y.second};
      // Inside a tree (its one user a lazy add) the sum stays wide; the
      // root's is reduced once, also when a lazy product reads it.
      Operation *user = r.hasOneUse() ? *r.user_begin() : nullptr;
      if (user && isa<fhe::AddOp>(user) && lazy.ops.contains(user) && !llvm::is_contained(results, r))
        wide[r] = sum;
      else
        vals[r] = {reduced(sum.first)};
      continue;
    }
    if (auto a = dyn_cast<fhe::AutomorphismOp>(op)) {
      // A gather of a kernel input (fhe-fuse's, complete NTTs on GPUs only).
      // (The verifier: a kernel operand, complete NTTs; row() takes W = 1.)
      assert(K == 1 && W == 1 && "a gather reads one residue of a complete NTT");
      Value from = evalAutomorphismSource(kb, a, blk);
      vals[a.getResult()] = {kb.loadW(env.at(a.getInput()), {j, from}, W)};
      continue;
    }
    SmallVector<SmallVector<Value>> args;
    for (Value a : op->getOperands()) args.push_back(get(a));
    vals[op->getResult(0)] = emitResidueElement(kb, op, args, row);
  }
  for (Value r : results) {
    SmallVector<Value> e = get(r);
    for (int64_t u = 0; u < K; ++u) kb.storeW(e[u], env.at(r), idxOf(r, u));
  }
}

PrimeRow ResidueEmitter::rowFor(Value j, Value blk, int64_t W) {
  // Every prime of a basis has prime_bits bits: Barrett's shifts are constants.
  PrimeRow row{kb.splat(kb.tableAt(consts, j, abi::kPrime), W), kb.splat(kb.tableAt(consts, j, abi::kBarrettMu), W),
               kb.constW(int64_t(basis.getPrimeBits()), W), Value(), Value()};
  if (zetas) {
    row.zeta = kb.load(zetas, {j, blk});
    row.zetaShoup = kb.load(zetas, {j, kb.add(blk, kb.cidx(N / K))});
  }
  return row;
}

void ResidueEmitter::row(Value j) {
  int64_t lanes = kb.options.target->lanes;
  bool allPrimeMajor = true, gathers = false;
  for (Operation *op : ops) {
    gathers |= isa<fhe::AutomorphismOp>(op);
    for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
      allPrimeMajor &= cast<fhe::RnsType>(v.getType()).getLayout() == fhe::Layout::prime_major;
  }
  int64_t W = K == 1 && allPrimeMajor && !gathers && N % lanes == 0 ? lanes : 1;
  PrimeRow base = rowFor(j, kb.cidx(0), W);
  kb.loop(kb.cidx(0), kb.cidx(N / K), kb.cidx(W), {}, [&](Value blk, ValueRange) {
    PrimeRow row = base;
    if (zetas) row = rowFor(j, blk, W);
    element(j, blk, row, W);
    return SmallVector<Value>{};
  });
}

namespace {

// A residue kernel: `ops` (pointwise, in order) over every element of one basis.
// `env` maps the kernel's input values to their buffers. A result takes over
// the buffer of a `donor` input that dies in this kernel (an element's inputs
// are all loaded before its results are stored), others are allocated.
void emitResidueKernel(KernelBuilder &kb, ArrayRef<Operation *> ops, llvm::DenseMap<Value, Value> &env,
                       ArrayRef<Value> results, SmallVector<Value> donors) {
  assignResidueBuffers(kb, results, env, std::move(donors));
  emitResidueElements(kb, ops, env, results);
}

} // namespace

void emitResidueElements(KernelBuilder &kb, ArrayRef<Operation *> ops, const llvm::DenseMap<Value, Value> &env,
                         ArrayRef<Value> results) {
  ResidueEmitter e(kb, ops, env, results);
  bool primeMajor = cast<fhe::RnsType>(results.front().getType()).getLayout() == fhe::Layout::prime_major;
  if (kb.options.target->gpu) {
    // GPU: one thread per (prime, element), all primes in one grid, with
    // consecutive threads on consecutive words of the results' layout, so a
    // warp's accesses coalesce (HE-Booster's thread-level mapping of the
    // element-wise phases).
    // (Coefficient-major rows are m words wide, m a constant of the layout.)
    Value m = primeMajor ? kb.primeCount(e.basis) : kb.cidx(int64_t(e.basis.size())), B = kb.cidx(e.N / e.K);
    auto element = [&](Value j, Value blk) { e.element(j, blk, e.rowFor(j, blk, 1), 1); };
    if (primeMajor)
      kb.rowMajorGrid(m, B, element);
    else
      kb.rowMajorGrid(B, m, [&](Value blk, Value j) { element(j, blk); });
    return;
  }
  if (primeMajor) {
    // Primes in parallel.
    kb.parallel(ValueRange{kb.primeCount(e.basis)}, [&](ValueRange iv) { e.row(iv[0]); });
  } else {
    kb.parallel({e.N / e.K}, [&](ValueRange iv) {
      kb.loop(int64_t(e.basis.size()), [&](Value j) { e.element(j, iv[0], e.rowFor(j, iv[0], 1), 1); });
    });
  }
}

void emitResidueRow(KernelBuilder &kb, ArrayRef<Operation *> ops, const llvm::DenseMap<Value, Value> &env,
                    ArrayRef<Value> results, Value j) {
  ResidueEmitter(kb, ops, env, results).row(j);
}

namespace {

template <typename OpTy> struct PointwiseLowering : KernelPattern<OpTy> {
  using KernelPattern<OpTy>::KernelPattern;
  using KernelPattern<OpTy>::options;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    KernelBuilder kb(rewriter, op.getLoc(), options);
    llvm::DenseMap<Value, Value> env;
    SmallVector<Value> donors;
    for (auto [v, mem] : llvm::zip(op->getOperands(), adaptor.getOperands())) {
      env[v] = mem;
      if (diesHere(v)) donors.push_back(v);
    }
    kb.phaseBegin(phaseOf(op));
    emitResidueKernel(kb, {op.getOperation()}, env, {op.getResult()}, donors);
    kb.phaseEnd(phaseOf(op));
    rewriter.replaceOp(op, env.at(op.getResult()));
    return success();
  }
};

// fhe.fused residue: the body's ops as one loop nest.
struct FusedResidueLowering : KernelPattern<fhe::FusedOp> {
  using KernelPattern::KernelPattern;
  LogicalResult matchAndRewrite(fhe::FusedOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    if (op.getSpace() != fhe::Space::residue) return failure();
    KernelBuilder kb(rewriter, op.getLoc(), options);
    llvm::DenseMap<Value, Value> env;
    Block &body = *op.getBody();
    SmallVector<Value> donors;
    for (auto [a, input, mem] : llvm::zip(body.getArguments(), op.getInputs(), adaptor.getInputs())) {
      env[a] = mem;
      if (diesHere(input) && !readByGather(a)) donors.push_back(a);
    }
    SmallVector<Operation *> ops;
    for (Operation &o : body.without_terminator()) ops.push_back(&o);
    // Each distinct yielded value gets one buffer (the verifier forbids yielding an operand).
    SmallVector<Value> yielded(op.getYield().getValues());
    SmallVector<Value> results;
    for (Value y : yielded)
      if (!llvm::is_contained(results, y)) results.push_back(y);
    kb.phaseBegin(phaseOf(op));
    emitResidueKernel(kb, ops, env, results, donors);
    kb.phaseEnd(phaseOf(op));
    SmallVector<Value> repl;
    for (Value y : yielded) repl.push_back(env.at(y));
    rewriter.replaceOp(op, repl);
    return success();
  }
};

// Cache-blocked transpose between (m, N) and (N, m): one tile of 64
// coefficients across all primes at a time.
struct TransposeLowering : KernelPattern<fhe::TransposeOp> {
  using KernelPattern::KernelPattern;
  LogicalResult matchAndRewrite(fhe::TransposeOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    KernelBuilder kb(rewriter, op.getLoc(), options);
    auto t = op.getResult().getType();
    int64_t m = int64_t(t.getBasis().size()), N = t.getN(), tile = std::min<int64_t>(64, N);
    Value in = adaptor.getInput(), out = kb.alloc(kb.memrefOf(t));
    bool toCoeffMajor = t.getLayout() == fhe::Layout::coeff_major;
    kb.phaseBegin(abi::Phase::Other);
    if (kb.options.target->gpu) {
      // GPU: one thread per residue, consecutive threads on consecutive words
      // of the result (its stores coalesce; the strided loads meet in L2).
      CoeffRef src{in, Value(), toCoeffMajor}, dst{out, Value(), !toCoeffMajor};
      kb.rowMajorGrid(kb.cidx(toCoeffMajor ? N : m), kb.cidx(toCoeffMajor ? m : N), [&](Value row, Value col) {
        auto [i, j] = toCoeffMajor ? std::pair(row, col) : std::pair(col, row);
        kb.store(kb.load(src, i, j), dst, i, j);
      });
      kb.phaseEnd(abi::Phase::Other);
      rewriter.replaceOp(op, out);
      return success();
    }
    forEachCoefficientBlock(kb, N, tile, [&](Value i0) {
      CoeffRef src{in, i0, toCoeffMajor}, dst{out, i0, !toCoeffMajor};
      kb.loop(m, [&](Value j) { kb.loop(tile, [&](Value i) { kb.store(kb.load(src, i, j), dst, i, j); }); });
    });
    kb.phaseEnd(abi::Phase::Other);
    rewriter.replaceOp(op, out);
    return success();
  }
};

// The first m' rows of a prime-major (m, N) matrix: a contiguous view.
struct BasisPrefixLowering : OpConversionPattern<fhe::BasisPrefixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(fhe::BasisPrefixOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    auto t = op.getResult().getType();
    MemRefType mt = cast<MemRefType>(getTypeConverter()->convertType(t));
    rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(op, mt, adaptor.getInput(), /*offset=*/0, mt.getShape(),
                                                           ArrayRef<int64_t>{abi::rnsRowWords(t.getN()), 1});
    return success();
  }
};

} // namespace

void populateResiduePatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<PointwiseLowering<fhe::HadamardOp>, PointwiseLowering<fhe::AddOp>, PointwiseLowering<fhe::SubOp>,
               FusedResidueLowering, TransposeLowering>(tc, ctx, o);
  patterns.add<BasisPrefixLowering>(tc, ctx);
}

} // namespace fhec
