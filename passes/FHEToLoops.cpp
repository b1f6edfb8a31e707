// fhe-to-loops: fhe kernel ops to loop nests over memrefs with the modular
// arithmetic expanded (portable 64-bit code). The tables each kernel reads
// become leading function arguments (built by the runtime, Abi.h), results
// become trailing out-parameters, and the module's ABI manifest is recorded.
#include "passes/Manifest.h"
#include "passes/ModArith.h"
#include "passes/Passes.h"

#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Tables.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

namespace fhec {
#define GEN_PASS_DEF_FHETOLOOPS
#include "passes/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;
using abi::TableKind;

namespace {

constexpr StringLiteral kRoleAttr = "fhe.role";

// Memory form of the fhe types.
MemRefType memrefFor(Type t) {
  auto i64 = IntegerType::get(t.getContext(), 64);
  if (auto p = dyn_cast<fhe::PolyType>(t)) return MemRefType::get({p.getN(), int64_t(p.getLimbs())}, i64);
  auto r = cast<fhe::RnsType>(t);
  int64_t m = int64_t(r.getBasis().size());
  if (r.getLayout() == fhe::Layout::prime_major) return MemRefType::get({m, r.getN()}, i64);
  return MemRefType::get({r.getN(), m}, i64);
}

struct TableRequest {
  TableKind kind;
  fhe::BasisAttr basis;
  int limbs;  // CrtPowers only
  bool operator==(const TableRequest &o) const { return kind == o.kind && basis == o.basis && limbs == o.limbs; }
};

MemRefType tableType(MLIRContext *ctx, const TableRequest &t, unsigned logN) {
  auto i64 = IntegerType::get(ctx, 64);
  int64_t m = int64_t(t.basis.size()), N = int64_t(1) << logN;
  int64_t pLimbs = rt::productLimbs(std::vector<uint64_t>(t.basis.getPrimes().begin(), t.basis.getPrimes().end()));
  switch (t.kind) {
  case TableKind::PrimeConsts: return MemRefType::get({m, abi::kPrimeConstCols}, i64);
  case TableKind::NttTwiddles:
  case TableKind::NttTwiddlesShoup:
  case TableKind::InttTwiddles:
  case TableKind::InttTwiddlesShoup: return MemRefType::get({m, N}, i64);
  case TableKind::CrtPowers: return MemRefType::get({m, t.limbs}, i64);
  case TableKind::IcrtPDivP: return MemRefType::get({m, pLimbs}, i64);
  case TableKind::IcrtP: return MemRefType::get({pLimbs}, i64);
  }
  llvm_unreachable("table kind");
}

// Tables each kernel op reads.
SmallVector<TableRequest> tablesFor(Operation *op) {
  auto basisOf = [](Value v) { return cast<fhe::RnsType>(v.getType()).getBasis(); };
  return llvm::TypeSwitch<Operation *, SmallVector<TableRequest>>(op)
      .Case<fhe::CrtOp>([&](fhe::CrtOp o) -> SmallVector<TableRequest> {
        auto b = basisOf(o.getResult());
        int L = int(o.getInput().getType().getLimbs());
        return {{TableKind::PrimeConsts, b, 0}, {TableKind::CrtPowers, b, L}};
      })
      .Case<fhe::NttOp>([&](fhe::NttOp o) -> SmallVector<TableRequest> {
        auto b = basisOf(o.getResult());
        return {{TableKind::PrimeConsts, b, 0}, {TableKind::NttTwiddles, b, 0}, {TableKind::NttTwiddlesShoup, b, 0}};
      })
      .Case<fhe::InttOp>([&](fhe::InttOp o) -> SmallVector<TableRequest> {
        auto b = basisOf(o.getResult());
        return {{TableKind::PrimeConsts, b, 0}, {TableKind::InttTwiddles, b, 0}, {TableKind::InttTwiddlesShoup, b, 0}};
      })
      .Case<fhe::IcrtOp>([&](fhe::IcrtOp o) -> SmallVector<TableRequest> {
        auto b = basisOf(o.getInput());
        return {{TableKind::PrimeConsts, b, 0}, {TableKind::IcrtPDivP, b, 0}, {TableKind::IcrtP, b, 0}};
      })
      .Case<fhe::HadamardOp, fhe::AddOp, fhe::SubOp>(
          [&](Operation *o) -> SmallVector<TableRequest> { return {{TableKind::PrimeConsts, basisOf(o->getResult(0)), 0}}; })
      .Default([](Operation *) { return SmallVector<TableRequest>{}; });
}

abi::Phase phaseOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, abi::Phase>(op)
      .Case<fhe::CrtOp>([](auto) { return abi::Phase::Crt; })
      .Case<fhe::NttOp>([](auto) { return abi::Phase::Ntt; })
      .Case<fhe::InttOp>([](auto) { return abi::Phase::Intt; })
      .Case<fhe::HadamardOp>([](auto) { return abi::Phase::Hadamard; })
      .Case<fhe::IcrtOp>([](auto) { return abi::Phase::Icrt; })
      .Default([](Operation *) { return abi::Phase::Other; });
}

/// Emits the loop nest of every kernel of one function.
class KernelEmitter {
public:
  KernelEmitter(OpBuilder &b, Location loc, unsigned logN) : b(b), loc(loc), A(b, loc), logN(logN) {}

  llvm::DenseMap<Value, Value> mem;  // fhe value -> memref
  SmallVector<std::pair<TableRequest, Value>> tables;
  SmallVector<Value> allocs;

  LogicalResult emit(Operation *op) {
    A = ModArith(b, loc = op->getLoc());
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case<fhe::CrtOp>([&](auto o) { return crt(o); })
        .Case<fhe::NttOp>([&](auto o) { return ntt(o); })
        .Case<fhe::InttOp>([&](auto o) { return intt(o); })
        .Case<fhe::IcrtOp>([&](auto o) { return icrt(o); })
        .Case<fhe::HadamardOp>([&](auto o) { return pointwise(o, 0); })
        .Case<fhe::AddOp>([&](auto o) { return pointwise(o, 1); })
        .Case<fhe::SubOp>([&](auto o) { return pointwise(o, 2); })
        .Case<fhe::TransposeOp>([&](auto o) { return transpose(o); })
        .Case<fhe::BasisPrefixOp>([&](auto o) { return basisPrefix(o); })
        .Case<fhe::PolyAddOp>([&](auto o) { return polyAddSub(o, o.getLhs(), o.getRhs(), false); })
        .Case<fhe::PolySubOp>([&](auto o) { return polyAddSub(o, o.getLhs(), o.getRhs(), true); })
        .Case<fhe::PolyNegateOp>([&](auto o) { return polyAddSub(o, Value(), o.getInput(), true); })
        .Case<fhe::PolyShrOp>([&](auto o) { return polyShr(o); })
        .Case<fhe::PolyReduceOp>([&](auto o) { return polyReduce(o); })
        .Case<fhe::PolyMulScalarOp>([&](auto o) { return polyMulScalar(o); })
        .Case<fhe::PolyAddConstantTermOp>([&](auto o) { return polyAddConstantTerm(o); })
        .Default([](Operation *o) { return o->emitOpError() << "has no lowering in fhe-to-loops"; });
  }

private:
  OpBuilder &b;
  Location loc;
  ModArith A;
  unsigned logN;

  int64_t N() const { return int64_t(1) << logN; }

  Value table(TableKind kind, fhe::BasisAttr basis, int limbs = 0) {
    for (auto &[req, v] : tables)
      if (req.kind == kind && req.basis == basis && req.limbs == limbs) return v;
    llvm_unreachable("table was not requested");
  }

  Value alloc(Type fheType) {
    Value m = memref::AllocOp::create(b, loc, memrefFor(fheType), /*alignment=*/b.getI64IntegerAttr(64));
    allocs.push_back(m);
    return m;
  }

  Value load(Value m, ValueRange idx) { return memref::LoadOp::create(b, loc, m, idx); }
  void store(Value v, Value m, ValueRange idx) { memref::StoreOp::create(b, loc, v, m, idx); }

  // Indices of residue (prime j, coefficient i) in an RNS memref.
  SmallVector<Value> rnsIdx(Value v, Value j, Value i) {
    auto t = cast<fhe::RnsType>(v.getType());
    if (t.getLayout() == fhe::Layout::prime_major) return {j, i};
    return {i, j};
  }

  Value primeConst(Value consts, Value j, int col) { return load(consts, {j, A.cidx(col)}); }

  SmallVector<Value> loopFor(Value lb, Value ub, ValueRange init,
                             function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto f = scf::ForOp::create(b, loc, lb, ub, A.cidx(1), init, [&](OpBuilder &nb, Location l, Value iv, ValueRange it) {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
      SmallVector<Value> res = body(iv, it);
      scf::YieldOp::create(b, l, res);
    });
    b.setInsertionPointAfter(f);
    return SmallVector<Value>(f.getResults());
  }

  void loopFor(int64_t ub, function_ref<void(Value)> body) {
    loopFor(A.cidx(0), A.cidx(ub), {}, [&](Value iv, ValueRange) {
      body(iv);
      return SmallVector<Value>{};
    });
  }

  void parallel(ArrayRef<int64_t> ubs, function_ref<void(ValueRange)> body) {
    SmallVector<Value> lbs, ups, steps;
    for (int64_t u : ubs) {
      lbs.push_back(A.cidx(0));
      ups.push_back(A.cidx(u));
      steps.push_back(A.cidx(1));
    }
    auto p = scf::ParallelOp::create(b, loc, lbs, ups, steps, [&](OpBuilder &nb, Location, ValueRange ivs) {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
      body(ivs);
    });
    b.setInsertionPointAfter(p);
  }

  // Output buffer of an in-place kernel: the input's own buffer when this op
  // is its only reader and it is a temporary, else a fresh copy.
  Value inPlaceTarget(Value input, Value result) {
    Value src = mem.at(input);
    if (input.hasOneUse() && llvm::is_contained(allocs, src)) return src;
    Value dst = alloc(result.getType());
    memref::CopyOp::create(b, loc, src, dst);
    return dst;
  }

  // Algo. 1: OUT[j][i] = sum_k IN[i][k] (beta^k mod p_j) mod p_j with a
  // 3-word accumulator and a Shoup reduction of each word.
  LogicalResult crt(fhe::CrtOp op) {
    auto rt = op.getResult().getType();
    auto basis = rt.getBasis();
    int64_t L = op.getInput().getType().getLimbs(), m = basis.size();
    Value in = mem.at(op.getInput()), out = alloc(rt);
    Value consts = table(TableKind::PrimeConsts, basis), pow = table(TableKind::CrtPowers, basis, int(L));
    parallel({N()}, [&](ValueRange iv) {
      Value i = iv[0];
      loopFor(m, [&](Value j) {
        Value zero = A.c64(0);
        auto acc = loopFor(A.cidx(0), A.cidx(L), {zero, zero, zero}, [&](Value k, ValueRange a) {
          auto [lo, hi] = A.mulWide(load(in, {i, k}), load(pow, {j, k}));
          auto [s0, c0] = A.addCarry(a[0], lo);
          auto [s1, c1] = A.addCarry(a[1], arith::AddIOp::create(b, loc, hi, c0));
          return SmallVector<Value>{s0, s1, arith::AddIOp::create(b, loc, a[2], c1)};
        });
        Value p = primeConst(consts, j, abi::kPrime);
        Value r0 = A.mulShoup(acc[0], A.c64(1), primeConst(consts, j, abi::kOneShoup), p);
        Value r1 = A.mulShoup(acc[1], primeConst(consts, j, abi::kBetaMod), primeConst(consts, j, abi::kBetaModShoup), p);
        Value r2 = A.mulShoup(acc[2], primeConst(consts, j, abi::kBeta2Mod), primeConst(consts, j, abi::kBeta2ModShoup), p);
        store(A.addMod(A.addMod(r0, r1, p), r2, p), out, rnsIdx(op.getResult(), j, i));
      });
    });
    mem[op.getResult()] = out;
    return success();
  }

  LogicalResult requirePrimeMajor(Operation *op, Value v) {
    if (cast<fhe::RnsType>(v.getType()).getLayout() != fhe::Layout::prime_major)
      return op->emitOpError() << "is lowered for the prime_major layout only; insert an fhe.transpose";
    return success();
  }

  // One radix-2 stage: `groups` groups of butterflies of stride t, group g
  // using twiddle tw[groups + g] (loaded once per group, Algo. 3 lines 7-9).
  // Forward (Cooley-Tukey): (u, v) -> (u + w v, u - w v); inverse
  // (Gentleman-Sande): (u, v) -> (u + v, (u - v) w).
  void butterflyStage(Value a, Value j, Value p, Value tw, Value tws, Value groups, Value t, bool inverse) {
    loopFor(A.cidx(0), groups, {}, [&](Value g, ValueRange) {
      Value widx = arith::AddIOp::create(b, loc, groups, g);
      Value w = load(tw, {j, widx}), ws = load(tws, {j, widx});
      Value base = arith::MulIOp::create(b, loc, g, arith::AddIOp::create(b, loc, t, t));
      Value end = arith::AddIOp::create(b, loc, base, t);
      loopFor(base, end, {}, [&](Value x, ValueRange) {
        Value y = arith::AddIOp::create(b, loc, x, t);
        Value u = load(a, {j, x}), v = load(a, {j, y});
        if (!inverse) {
          Value wv = A.mulShoup(v, w, ws, p);
          store(A.addMod(u, wv, p), a, {j, x});
          store(A.subMod(u, wv, p), a, {j, y});
        } else {
          store(A.addMod(u, v, p), a, {j, x});
          Value diff = arith::SubIOp::create(b, loc, arith::AddIOp::create(b, loc, u, p), v);  // in [1, 2p)
          store(A.mulShoup(diff, w, ws, p), a, {j, y});
        }
        return SmallVector<Value>{};
      });
      return SmallVector<Value>{};
    });
  }

  // Algo. 3/4: in-place radix-2 Cooley-Tukey, one prime per parallel iteration;
  // stage s has 2^s groups of stride t = N / 2^(s+1). Output in bit-reversed order.
  LogicalResult ntt(fhe::NttOp op) {
    if (failed(requirePrimeMajor(op, op.getInput()))) return failure();
    auto basis = op.getResult().getType().getBasis();
    Value a = inPlaceTarget(op.getInput(), op.getResult());
    Value consts = table(TableKind::PrimeConsts, basis);
    Value tw = table(TableKind::NttTwiddles, basis), tws = table(TableKind::NttTwiddlesShoup, basis);
    parallel({int64_t(basis.size())}, [&](ValueRange iv) {
      Value j = iv[0];
      Value p = primeConst(consts, j, abi::kPrime);
      loopFor(int64_t(logN), [&](Value s) {
        Value one = A.cidx(1);
        Value groups = arith::ShLIOp::create(b, loc, one, s);
        Value t = arith::ShRUIOp::create(b, loc, A.cidx(N() / 2), s);
        butterflyStage(a, j, p, tw, tws, groups, t, /*inverse=*/false);
      });
    });
    mem[op.getResult()] = a;
    return success();
  }

  // Gentleman-Sande inverse: stage s has N / 2^(s+1) groups of stride t = 2^s,
  // then every residue times N^-1.
  LogicalResult intt(fhe::InttOp op) {
    if (failed(requirePrimeMajor(op, op.getInput()))) return failure();
    auto basis = op.getResult().getType().getBasis();
    Value a = inPlaceTarget(op.getInput(), op.getResult());
    Value consts = table(TableKind::PrimeConsts, basis);
    Value tw = table(TableKind::InttTwiddles, basis), tws = table(TableKind::InttTwiddlesShoup, basis);
    parallel({int64_t(basis.size())}, [&](ValueRange iv) {
      Value j = iv[0];
      Value p = primeConst(consts, j, abi::kPrime);
      loopFor(int64_t(logN), [&](Value s) {
        Value t = arith::ShLIOp::create(b, loc, A.cidx(1), s);
        Value groups = arith::ShRUIOp::create(b, loc, A.cidx(N() / 2), s);
        butterflyStage(a, j, p, tw, tws, groups, t, /*inverse=*/true);
      });
      Value nInv = primeConst(consts, j, abi::kNInv), nInvS = primeConst(consts, j, abi::kNInvShoup);
      loopFor(N(), [&](Value i) { store(A.mulShoup(load(a, {j, i}), nInv, nInvS, p), a, {j, i}); });
    });
    mem[op.getResult()] = a;
    return success();
  }

  // Algo. 5: temp_j = x_j (P/p_j)^-1 mod p_j; acc = sum_j temp_j (P/p_j) (PLimbs + 1
  // words, row by row); X = acc - k P with k = round(sum_j temp_j / p_j) is the
  // centered value (|X| < P/16 by the basis bound), and its low words are X mod 2^logq.
  LogicalResult icrt(fhe::IcrtOp op) {
    auto in = op.getInput();
    auto basis = cast<fhe::RnsType>(in.getType()).getBasis();
    auto outT = op.getResult().getType();
    int64_t m = basis.size(), Lq = outT.getLimbs();
    Value consts = table(TableKind::PrimeConsts, basis);
    Value pdivp = table(TableKind::IcrtPDivP, basis), P = table(TableKind::IcrtP, basis);
    int64_t PL = cast<MemRefType>(P.getType()).getShape()[0];
    Value x = mem.at(in), out = alloc(outT);
    auto i64 = b.getI64Type();
    Value acc = memref::AllocOp::create(b, loc, MemRefType::get({N(), PL + 1}, i64), b.getI64IntegerAttr(64));
    allocs.push_back(acc);
    parallel({N()}, [&](ValueRange iv) {
      Value i = iv[0];
      loopFor(PL + 1, [&](Value w) { store(A.c64(0), acc, {i, w}); });
      Value zeroF = arith::ConstantOp::create(b, loc, b.getF64FloatAttr(0.0));
      auto kf = loopFor(A.cidx(0), A.cidx(m), {zeroF}, [&](Value j, ValueRange it) {
        Value p = primeConst(consts, j, abi::kPrime);
        Value t = A.mulShoup(load(x, rnsIdx(in, j, i)), primeConst(consts, j, abi::kIcrtInv),
                             primeConst(consts, j, abi::kIcrtInvShoup), p);
        auto carry = loopFor(A.cidx(0), A.cidx(PL), {A.c64(0)}, [&](Value k, ValueRange c) {
          auto [lo, hi] = A.mulWide(t, load(pdivp, {j, k}));
          auto [s1, o1] = A.addCarry(load(acc, {i, k}), lo);
          auto [s2, o2] = A.addCarry(s1, c[0]);
          store(s2, acc, {i, k});
          return SmallVector<Value>{arith::AddIOp::create(b, loc, hi, arith::AddIOp::create(b, loc, o1, o2))};
        });
        Value top = A.cidx(PL);
        store(arith::AddIOp::create(b, loc, load(acc, {i, top}), carry[0]), acc, {i, top});
        Value invp = arith::BitcastOp::create(b, loc, b.getF64Type(), primeConst(consts, j, abi::kInvPrimeF64));
        Value tf = arith::UIToFPOp::create(b, loc, b.getF64Type(), t);
        return SmallVector<Value>{arith::AddFOp::create(b, loc, it[0], arith::MulFOp::create(b, loc, tf, invp))};
      });
      Value half = arith::ConstantOp::create(b, loc, b.getF64FloatAttr(0.5));
      Value k = arith::FPToUIOp::create(b, loc, i64, arith::AddFOp::create(b, loc, kf[0], half));
      // out = low Lq words of acc - k P.
      Value zero = A.c64(0);
      loopFor(A.cidx(0), A.cidx(Lq), {zero, zero}, [&](Value w, ValueRange st) {
        auto [lo, hi] = A.mulWide(k, load(P, {w}));
        auto [kp, c1] = A.addCarry(lo, st[0]);
        auto [d, borrow] = A.subBorrow(load(acc, {i, w}), kp, st[1]);
        store(d, out, {i, w});
        return SmallVector<Value>{arith::AddIOp::create(b, loc, hi, c1), borrow};
      });
      maskTop(out, i, outT);
    });
    mem[op.getResult()] = out;
    return success();
  }

  void maskTop(Value poly, Value i, fhe::PolyType t) {
    unsigned r = t.getLogq() % 64;
    if (r == 0) return;
    Value top = A.cidx(t.getLimbs() - 1);
    Value v = arith::AndIOp::create(b, loc, load(poly, {i, top}), A.c64(int64_t((uint64_t(1) << r) - 1)));
    store(v, poly, {i, top});
  }

  // Residue-wise Hadamard product (Barrett), sum or difference mod p_j.
  LogicalResult pointwise(Operation *op, int kind) {
    Value lhsV = op->getOperand(0), rhsV = op->getOperand(1), res = op->getResult(0);
    auto basis = cast<fhe::RnsType>(res.getType()).getBasis();
    Value l = mem.at(lhsV), r = mem.at(rhsV), out = alloc(res.getType());
    Value consts = table(TableKind::PrimeConsts, basis);
    parallel({int64_t(basis.size()), N()}, [&](ValueRange iv) {
      Value j = iv[0], i = iv[1];
      Value p = primeConst(consts, j, abi::kPrime);
      Value x = load(l, rnsIdx(lhsV, j, i)), y = load(r, rnsIdx(rhsV, j, i));
      Value z;
      if (kind == 0)
        z = A.mulBarrett(x, y, p, primeConst(consts, j, abi::kBarrettMu), primeConst(consts, j, abi::kBarrettShift));
      else if (kind == 1)
        z = A.addMod(x, y, p);
      else
        z = A.subMod(x, y, p);
      store(z, out, rnsIdx(res, j, i));
    });
    mem[res] = out;
    return success();
  }

  LogicalResult transpose(fhe::TransposeOp op) {
    auto t = op.getResult().getType();
    Value in = mem.at(op.getInput()), out = alloc(t);
    parallel({int64_t(t.getBasis().size()), N()}, [&](ValueRange iv) {
      store(load(in, rnsIdx(op.getInput(), iv[0], iv[1])), out, rnsIdx(op.getResult(), iv[0], iv[1]));
    });
    mem[op.getResult()] = out;
    return success();
  }

  // The first m' rows of a prime-major (m, N) matrix: a contiguous view.
  LogicalResult basisPrefix(fhe::BasisPrefixOp op) {
    if (failed(requirePrimeMajor(op, op.getInput()))) return failure();
    auto t = memrefFor(op.getResult().getType());
    Value v = memref::ReinterpretCastOp::create(b, loc, t, mem.at(op.getInput()), /*offset=*/0,
                                                /*sizes=*/t.getShape(), /*strides=*/ArrayRef<int64_t>{N(), 1});
    mem[op.getResult()] = v;
    return success();
  }

  // BigInt a + b or a - b (a absent: 0 - b) mod 2^logq with a carry chain.
  LogicalResult polyAddSub(Operation *op, Value lhsV, Value rhsV, bool subtract) {
    auto t = cast<fhe::PolyType>(op->getResult(0).getType());
    Value l = lhsV ? mem.at(lhsV) : Value(), r = mem.at(rhsV), out = alloc(t);
    parallel({N()}, [&](ValueRange iv) {
      Value i = iv[0];
      loopFor(A.cidx(0), A.cidx(t.getLimbs()), {A.c64(0)}, [&](Value w, ValueRange c) {
        Value x = l ? load(l, {i, w}) : A.c64(0), y = load(r, {i, w});
        if (subtract) {
          auto [d, borrow] = A.subBorrow(x, y, c[0]);
          store(d, out, {i, w});
          return SmallVector<Value>{borrow};
        }
        auto [s1, o1] = A.addCarry(x, y);
        auto [s2, o2] = A.addCarry(s1, c[0]);
        store(s2, out, {i, w});
        return SmallVector<Value>{arith::OrIOp::create(b, loc, o1, o2)};
      });
      maskTop(out, i, t);
    });
    mem[op->getResult(0)] = out;
    return success();
  }

  // floor(x / 2^s): word w of the result takes bits [64w + s, 64w + s + 64) of x.
  LogicalResult polyShr(fhe::PolyShrOp op) {
    auto inT = op.getInput().getType(), t = op.getResult().getType();
    int64_t s = op.getShift(), q = s / 64, r = s % 64, Lin = inT.getLimbs();
    Value in = mem.at(op.getInput()), out = alloc(t);
    parallel({N()}, [&](ValueRange iv) {
      Value i = iv[0];
      for (int64_t w = 0; w < int64_t(t.getLimbs()); ++w) {
        Value v = load(in, {i, A.cidx(w + q)});
        if (r) {
          v = arith::ShRUIOp::create(b, loc, v, A.c64(r));
          if (w + q + 1 < Lin) {
            Value hi = arith::ShLIOp::create(b, loc, load(in, {i, A.cidx(w + q + 1)}), A.c64(64 - r));
            v = arith::OrIOp::create(b, loc, v, hi);
          }
        }
        store(v, out, {i, A.cidx(w)});
      }
      maskTop(out, i, t);
    });
    mem[op.getResult()] = out;
    return success();
  }

  LogicalResult polyReduce(fhe::PolyReduceOp op) {
    auto t = op.getResult().getType();
    Value in = mem.at(op.getInput()), out = alloc(t);
    parallel({N()}, [&](ValueRange iv) {
      Value i = iv[0];
      loopFor(int64_t(t.getLimbs()), [&](Value w) { store(load(in, {i, w}), out, {i, w}); });
      maskTop(out, i, t);
    });
    mem[op.getResult()] = out;
    return success();
  }

  // x * |c| by operand scanning over the constant's words, negated for c < 0.
  LogicalResult polyMulScalar(fhe::PolyMulScalarOp op) {
    auto t = op.getResult().getType();
    int64_t L = t.getLimbs();
    APInt c = op.getValue();
    bool negative = c.isNegative();
    APInt mag = negative ? -c : c;
    Value in = mem.at(op.getInput()), out = alloc(t);
    parallel({N()}, [&](ValueRange iv) {
      Value i = iv[0];
      loopFor(L, [&](Value w) { store(A.c64(0), out, {i, w}); });
      for (int64_t v = 0; v < L && v < int64_t(mag.getNumWords()); ++v) {
        uint64_t word = mag.getRawData()[v];
        if (!word) continue;
        Value cw = A.c64(int64_t(word)), off = A.cidx(v);
        loopFor(A.cidx(0), A.cidx(L - v), {A.c64(0)}, [&](Value w, ValueRange carry) {
          Value dst = arith::AddIOp::create(b, loc, w, off);
          auto [lo, hi] = A.mulWide(load(in, {i, w}), cw);
          auto [s1, o1] = A.addCarry(load(out, {i, dst}), lo);
          auto [s2, o2] = A.addCarry(s1, carry[0]);
          store(s2, out, {i, dst});
          return SmallVector<Value>{arith::AddIOp::create(b, loc, hi, arith::AddIOp::create(b, loc, o1, o2))};
        });
      }
      if (negative)
        loopFor(A.cidx(0), A.cidx(L), {A.c64(0)}, [&](Value w, ValueRange br) {
          auto [d, borrow] = A.subBorrow(A.c64(0), load(out, {i, w}), br[0]);
          store(d, out, {i, w});
          return SmallVector<Value>{borrow};
        });
      maskTop(out, i, t);
    });
    mem[op.getResult()] = out;
    return success();
  }

  // Copy, then add c (as L words of two's complement) to coefficient 0.
  LogicalResult polyAddConstantTerm(fhe::PolyAddConstantTermOp op) {
    auto t = op.getResult().getType();
    int64_t L = t.getLimbs();
    APInt c = op.getValue().sextOrTrunc(unsigned(64 * L));
    Value out = alloc(t);
    memref::CopyOp::create(b, loc, mem.at(op.getInput()), out);
    Value i = A.cidx(0), carry = A.c64(0);
    for (int64_t w = 0; w < L; ++w) {
      Value idx = A.cidx(w);
      auto [s1, o1] = A.addCarry(load(out, {i, idx}), A.c64(int64_t(c.getRawData()[w])));
      auto [s2, o2] = A.addCarry(s1, carry);
      store(s2, out, {i, idx});
      carry = arith::OrIOp::create(b, loc, o1, o2);
    }
    maskTop(out, i, t);
    mem[op.getResult()] = out;
    return success();
  }
};

struct FHEToLoopsPass : public fhec::impl::FHEToLoopsBase<FHEToLoopsPass> {
  using FHEToLoopsBase::FHEToLoopsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> funcs;
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal() && usesFHE(f)) funcs.push_back(f);
    if (funcs.empty()) return;
    ManifestBuilder manifest(module);
    for (func::FuncOp f : funcs) {
      FailureOr<func::FuncOp> lowered = lowerFunction(f);
      if (failed(lowered)) return signalPassFailure();
      manifest.addFunction(*lowered);
    }
    if (failed(manifest.finish())) return signalPassFailure();
  }

  static bool usesFHE(func::FuncOp f) {
    auto isFhe = [](Type t) { return isa<fhe::FHEDialect>(t.getDialect()); };
    return llvm::any_of(f.getArgumentTypes(), isFhe) || llvm::any_of(f.getResultTypes(), isFhe);
  }

  func::FuncOp phaseHook(ModuleOp module, StringRef name) {
    if (auto f = module.lookupSymbol<func::FuncOp>(name)) return f;
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToStart(module.getBody());
    auto f = func::FuncOp::create(b, module.getLoc(), name, b.getFunctionType({b.getI32Type()}, {}));
    f.setPrivate();
    return f;
  }

  FailureOr<func::FuncOp> lowerFunction(func::FuncOp f) {
    MLIRContext *ctx = f.getContext();
    ModuleOp module = f->getParentOfType<ModuleOp>();
    if (!f.getBody().hasOneBlock())
      return f.emitOpError() << "fhe-to-loops supports straight-line functions only (one block)";

    // Ring dimension and resolved bases.
    std::optional<unsigned> logN;
    WalkResult check = f.walk([&](Operation *op) -> WalkResult {
      for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
        unsigned n = 0;
        if (auto p = dyn_cast<fhe::PolyType>(t)) n = p.getLogN();
        if (auto r = dyn_cast<fhe::RnsType>(t)) {
          if (!r.getBasis().isResolved())
            return op->emitOpError() << "has an RNS basis without primes; run fhe-select-basis first";
          n = r.getLogN();
        }
        if (!n) continue;
        if (logN && *logN != n) return op->emitOpError() << "mixes ring dimensions in one function";
        logN = n;
      }
      return WalkResult::advance();
    });
    if (check.wasInterrupted()) return failure();
    for (Type t : llvm::concat<const Type>(f.getArgumentTypes(), f.getResultTypes())) {
      if (!isa<fhe::PolyType, fhe::RnsType>(t))
        return f.emitOpError() << "argument or result of type " << t << " is not an fhe type";
      if (auto r = dyn_cast<fhe::RnsType>(t); r && !r.getBasis().isResolved())
        return f.emitOpError() << "has an RNS basis without primes; run fhe-select-basis first";
      unsigned n = isa<fhe::PolyType>(t) ? cast<fhe::PolyType>(t).getLogN() : cast<fhe::RnsType>(t).getLogN();
      if (logN && *logN != n) return f.emitOpError() << "mixes ring dimensions in one function";
      logN = n;
    }

    // Tables, in first-use order.
    SmallVector<TableRequest> requests;
    f.walk([&](Operation *op) {
      for (const TableRequest &r : tablesFor(op))
        if (!llvm::is_contained(requests, r)) requests.push_back(r);
    });

    // Signature: (tables..., inputs..., outputs...) -> ().
    OpBuilder b(ctx);
    SmallVector<Type> argTypes;
    SmallVector<DictionaryAttr> argAttrs;
    for (const TableRequest &r : requests) {
      argTypes.push_back(tableType(ctx, r, *logN));
      argAttrs.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("fhe.table", b.getStringAttr(abi::tableKindName(r.kind))),
           b.getNamedAttr("fhe.basis", r.basis), b.getNamedAttr("fhe.limbs", b.getI64IntegerAttr(r.limbs))}));
    }
    unsigned numTables = argTypes.size();
    auto roleOf = [&](DictionaryAttr d, StringRef fallback) {
      auto s = d ? d.getAs<StringAttr>(kRoleAttr) : StringAttr();
      return s ? s : b.getStringAttr(fallback);
    };
    for (auto [i, t] : llvm::enumerate(f.getArgumentTypes())) {
      argTypes.push_back(memrefFor(t));
      argAttrs.push_back(b.getDictionaryAttr(
          {b.getNamedAttr(kRoleAttr, roleOf(f.getArgAttrDict(i), "arg" + std::to_string(i))),
           b.getNamedAttr("fhe.type", TypeAttr::get(t))}));
    }
    for (auto [i, t] : llvm::enumerate(f.getResultTypes())) {
      argTypes.push_back(memrefFor(t));
      argAttrs.push_back(b.getDictionaryAttr(
          {b.getNamedAttr(kRoleAttr, roleOf(f.getResultAttrDict(i), "res" + std::to_string(i))),
           b.getNamedAttr("fhe.type", TypeAttr::get(t)), b.getNamedAttr("fhe.output", b.getUnitAttr())}));
    }
    b.setInsertionPoint(f);
    auto nf = func::FuncOp::create(b, f.getLoc(), f.getName(), b.getFunctionType(argTypes, {}));
    for (auto [i, d] : llvm::enumerate(argAttrs)) nf.setArgAttrs(i, d);
    for (StringRef keep : {"fhe.ct_inputs", "fhe.ct_outputs"})
      if (Attribute a = f->getAttr(keep)) nf->setAttr(keep, a);
    Block *body = nf.addEntryBlock();
    b.setInsertionPointToStart(body);

    KernelEmitter em(b, f.getLoc(), *logN);
    for (auto [i, r] : llvm::enumerate(requests)) em.tables.push_back({r, body->getArgument(i)});
    for (auto [i, a] : llvm::enumerate(f.getArguments())) em.mem[a] = body->getArgument(numTables + i);

    func::FuncOp begin, end;
    if (phaseTimers) {
      begin = phaseHook(module, abi::kPhaseBeginSymbol);
      end = phaseHook(module, abi::kPhaseEndSymbol);
    }
    for (Operation &op : f.getBody().front()) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        lowerReturn(b, em, ret, body->getArguments().drop_front(numTables + f.getNumArguments()));
        continue;
      }
      Value phase;
      if (phaseTimers) {
        phase = arith::ConstantIntOp::create(b, op.getLoc(), b.getI32Type(), int64_t(phaseOf(&op)));
        func::CallOp::create(b, op.getLoc(), begin, ValueRange{phase});
      }
      if (failed(em.emit(&op))) {
        nf.erase();
        return failure();
      }
      if (phaseTimers) func::CallOp::create(b, op.getLoc(), end, ValueRange{phase});
    }
    f.erase();
    return nf;
  }

  // Results go to the out-parameters: a temporary that is returned is replaced
  // by its out-parameter, anything else is copied; temporaries are freed.
  void lowerReturn(OpBuilder &b, KernelEmitter &em, func::ReturnOp ret, ValueRange outs) {
    Location loc = ret.getLoc();
    llvm::SmallPtrSet<Operation *, 8> redirected;
    for (auto [v, out] : llvm::zip(ret.getOperands(), outs)) {
      Value buf = em.mem.at(v);
      Operation *def = buf.getDefiningOp();
      if (def && isa<memref::AllocOp>(def) && !redirected.contains(def) &&
          llvm::count(ret.getOperands(), v) == 1) {
        buf.replaceAllUsesWith(out);
        redirected.insert(def);
        continue;
      }
      memref::CopyOp::create(b, loc, buf, out);
    }
    for (Value a : em.allocs) {
      if (redirected.contains(a.getDefiningOp())) continue;
      memref::DeallocOp::create(b, loc, a);
    }
    for (Operation *op : redirected) op->erase();
    func::ReturnOp::create(b, loc);
  }
};

} // namespace
