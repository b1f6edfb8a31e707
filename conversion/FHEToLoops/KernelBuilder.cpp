#include "conversion/FHEToLoops/KernelBuilder.h"

#include "fhec/runtime/Tables.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace fhec {

KernelBuilder::KernelBuilder(OpBuilder &b, Location loc, const LoweringOptions &options)
    : b(b), loc(loc), options(options) {
  Operation *fn = b.getInsertionBlock()->getParentOp();
  while (!isa<FunctionOpInterface>(fn)) fn = fn->getParentOp();
  functionEntry = &fn->getRegion(0).front();
}

Value KernelBuilder::c64(int64_t v) { return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v); }
Value KernelBuilder::cidx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
Value KernelBuilder::add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
Value KernelBuilder::mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
Value KernelBuilder::shl(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
Value KernelBuilder::shr(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }

Type KernelBuilder::wordType(int64_t W) {
  if (W == 1) return b.getI64Type();
  return VectorType::get({W}, b.getI64Type());
}

Value KernelBuilder::loadW(Value mem, ValueRange idx, int64_t W) {
  if (W == 1) return load(mem, idx);
  Type elem = cast<MemRefType>(mem.getType()).getElementType();
  return widen(vector::LoadOp::create(b, loc, VectorType::get({W}, elem), mem, idx));
}

void KernelBuilder::storeW(Value v, Value mem, ValueRange idx) {
  if (isa<VectorType>(v.getType()))
    vector::StoreOp::create(b, loc, narrowTo(v, cast<MemRefType>(mem.getType()).getElementType()), mem, idx);
  else
    store(v, mem, idx);
}

Value KernelBuilder::widen(Value v) {
  Type elem = getElementTypeOrSelf(v.getType());
  if (!elem.isInteger() || elem.getIntOrFloatBitWidth() >= 64) return v;
  Type wide = b.getI64Type();
  if (auto vt = dyn_cast<VectorType>(v.getType())) wide = VectorType::get(vt.getShape(), wide);
  return arith::ExtUIOp::create(b, loc, wide, v);
}

Value KernelBuilder::narrowTo(Value v, Type elem) {
  Type have = getElementTypeOrSelf(v.getType());
  if (have == elem || !have.isInteger() || !elem.isInteger() ||
      elem.getIntOrFloatBitWidth() >= have.getIntOrFloatBitWidth())
    return v;
  Type to = elem;
  if (auto vt = dyn_cast<VectorType>(v.getType())) to = VectorType::get(vt.getShape(), elem);
  return arith::TruncIOp::create(b, loc, to, v);
}

SmallVector<Value> KernelBuilder::loadRun(Value mem, ValueRange idx, int64_t n, int64_t alignBytes) {
  Type elem = cast<MemRefType>(mem.getType()).getElementType();
  int64_t eb = elem.getIntOrFloatBitWidth() / 8;
  SmallVector<Value> out;
  for (int64_t i = 0; i < n;) {
    int64_t off = i * eb, align = off ? std::min<int64_t>(alignBytes, off & -off) : alignBytes;
    int64_t piece = 1;
    while (2 * piece <= n - i && 2 * piece * eb <= std::min<int64_t>(16, align)) piece *= 2;
    SmallVector<Value> at(idx);
    at.back() = add(at.back(), cidx(i));
    if (piece == 1) {
      out.push_back(load(mem, at));
    } else {
      auto v = vector::LoadOp::create(b, loc, VectorType::get({piece}, elem), mem, at, /*nontemporal=*/false,
                                      llvm::MaybeAlign(uint64_t(piece * eb)));
      for (int64_t l = 0; l < piece; ++l) out.push_back(widen(vector::ExtractOp::create(b, loc, v, l)));
    }
    i += piece;
  }
  return out;
}

Value KernelBuilder::splat(Value scalar, int64_t W) {
  if (W == 1) return scalar;
  return vector::BroadcastOp::create(b, loc, wordType(W), scalar);
}

Value KernelBuilder::constW(int64_t v, int64_t W) {
  if (W == 1) return c64(v);
  auto t = cast<VectorType>(wordType(W));
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(t, b.getI64IntegerAttr(v)));
}

Value KernelBuilder::lane(Value v, int64_t l) {
  if (!isa<VectorType>(v.getType())) return v;
  return vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{l});
}

Value KernelBuilder::bitAnd(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
Value KernelBuilder::bitOr(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
Value KernelBuilder::sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }

Value KernelBuilder::load(Value mem, ValueRange idx) { return widen(memref::LoadOp::create(b, loc, mem, idx)); }
void KernelBuilder::store(Value v, Value mem, ValueRange idx) {
  memref::StoreOp::create(b, loc, narrowTo(v, cast<MemRefType>(mem.getType()).getElementType()), mem, idx);
}

void KernelBuilder::prefetch(Value mem, ValueRange idx, unsigned locality, bool write) {
  memref::PrefetchOp::create(b, loc, mem, idx, write, locality, /*isDataCache=*/true);
}

Value KernelBuilder::alloc(MemRefType t) {
  if (t.getLayout().isIdentity()) return memref::AllocOp::create(b, loc, t, /*alignment=*/b.getI64IntegerAttr(64));
  // A padded-row layout: the dense (rows, row stride) buffer and its (rows, N) view.
  auto [strides, offset] = t.getStridesAndOffset();
  assert(t.getRank() == 2 && strides[1] == 1 && offset == 0 && "only padded rows");
  auto dense = MemRefType::get({t.getDimSize(0), strides[0]}, t.getElementType());
  Value buf = memref::AllocOp::create(b, loc, dense, /*alignment=*/b.getI64IntegerAttr(64));
  return memref::SubViewOp::create(b, loc, t, buf, ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
                                   ArrayRef<OpFoldResult>{b.getIndexAttr(t.getDimSize(0)), b.getIndexAttr(t.getDimSize(1))},
                                   ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
}

Value KernelBuilder::scratch(ArrayRef<int64_t> shape) {
  return memref::AllocaOp::create(b, loc, MemRefType::get(shape, b.getI64Type()), b.getI64IntegerAttr(64));
}

Value KernelBuilder::load(const CoeffRef &r, Value i, Value k) {
  Value c = coeffIndex(r, i);
  return r.wordMajor ? load(r.mem, {k, c}) : load(r.mem, {c, k});
}

void KernelBuilder::store(Value v, const CoeffRef &r, Value i, Value k) {
  Value c = coeffIndex(r, i);
  if (r.wordMajor)
    store(v, r.mem, {k, c});
  else
    store(v, r.mem, {c, k});
}

Value KernelBuilder::loadW(const CoeffRef &r, Value i, Value k, int64_t W) {
  if (W == 1) return load(r, i, k);
  assert(r.wordMajor && "vector access of a coefficient-major buffer");
  return loadW(r.mem, {k, coeffIndex(r, i)}, W);
}

void KernelBuilder::storeW(Value v, const CoeffRef &r, Value i, Value k) {
  if (!isa<VectorType>(v.getType())) return store(v, r, i, k);
  assert(r.wordMajor && "vector access of a coefficient-major buffer");
  storeW(v, r.mem, {k, coeffIndex(r, i)});
}

int64_t KernelBuilder::lanesFor(int64_t B, ArrayRef<CoeffRef> refs) const {
  int64_t lanes = options.target->lanes;
  if (lanes == 1 || B % lanes) return 1;
  return llvm::all_of(refs, [](const CoeffRef &r) { return r.wordMajor; }) ? lanes : 1;
}

SmallVector<Value> KernelBuilder::transpose8(ArrayRef<Value> a) {
  auto shuffle = [&](Value x, Value y, ArrayRef<int64_t> mask) -> Value {
    return vector::ShuffleOp::create(b, loc, x, y, mask);
  };
  SmallVector<Value> t(8), u(8), r(8);
  for (int i = 0; i < 8; i += 2) {
    t[i] = shuffle(a[i], a[i + 1], {0, 8, 2, 10, 4, 12, 6, 14});
    t[i + 1] = shuffle(a[i], a[i + 1], {1, 9, 3, 11, 5, 13, 7, 15});
  }
  for (int i : {0, 1, 4, 5}) {
    u[i] = shuffle(t[i], t[i + 2], {0, 1, 8, 9, 4, 5, 12, 13});
    u[i + 2] = shuffle(t[i], t[i + 2], {2, 3, 10, 11, 6, 7, 14, 15});
  }
  for (int i = 0; i < 4; ++i) {
    r[i] = shuffle(u[i], u[i + 4], {0, 1, 2, 3, 8, 9, 10, 11});
    r[i + 4] = shuffle(u[i], u[i + 4], {4, 5, 6, 7, 12, 13, 14, 15});
  }
  return r;
}

SmallVector<Value> KernelBuilder::loop(Value lb, Value ub, Value step, ValueRange init,
                                       function_ref<SmallVector<Value>(Value, ValueRange)> body) {
  auto f = scf::ForOp::create(b, loc, lb, ub, step, init, [&](OpBuilder &nb, Location l, Value iv, ValueRange it) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
    SmallVector<Value> res = body(iv, it);
    scf::YieldOp::create(b, l, res);
  });
  b.setInsertionPointAfter(f);
  return SmallVector<Value>(f.getResults());
}

SmallVector<Value> KernelBuilder::loop(int64_t lb, int64_t ub, ValueRange init,
                                       function_ref<SmallVector<Value>(Value, ValueRange)> body) {
  return loop(cidx(lb), cidx(ub), cidx(1), init, body);
}

void KernelBuilder::loop(int64_t ub, function_ref<void(Value)> body) { loop(cidx(0), cidx(ub), body); }

void KernelBuilder::loop(Value lb, Value ub, function_ref<void(Value)> body) {
  loop(lb, ub, cidx(1), {}, [&](Value iv, ValueRange) {
    body(iv);
    return SmallVector<Value>{};
  });
}

void KernelBuilder::parallel(ArrayRef<int64_t> ubs, function_ref<void(ValueRange)> body, ArrayRef<int64_t> steps) {
  SmallVector<Value> lbs, ups, st;
  for (auto [d, u] : llvm::enumerate(ubs)) {
    lbs.push_back(cidx(0));
    ups.push_back(cidx(u));
    st.push_back(cidx(steps.empty() ? 1 : steps[d]));
  }
  auto p = scf::ParallelOp::create(b, loc, lbs, ups, st, [&](OpBuilder &nb, Location, ValueRange ivs) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
    body(ivs);
  });
  b.setInsertionPointAfter(p);
}

void KernelBuilder::parallel(ValueRange ubs, function_ref<void(ValueRange)> body) {
  SmallVector<Value> lbs(ubs.size(), cidx(0)), st(ubs.size(), cidx(1));
  auto p = scf::ParallelOp::create(b, loc, lbs, ubs, st, [&](OpBuilder &nb, Location, ValueRange ivs) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
    body(ivs);
  });
  b.setInsertionPointAfter(p);
}

void KernelBuilder::rowMajorGrid(Value rows, Value cols, function_ref<void(Value, Value)> body) {
  parallel(ValueRange{mul(rows, cols)}, [&](ValueRange e) {
    Value row = arith::DivUIOp::create(b, loc, e[0], cols);
    body(row, arith::RemUIOp::create(b, loc, e[0], cols));
  });
}

Value KernelBuilder::primeCount(fhe::BasisAttr basis) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(functionEntry);
  return fhe::PrimeCountOp::create(b, loc, basis);
}

Value KernelBuilder::kernelParam(int64_t value) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(functionEntry);
  return fhe::KernelParamOp::create(b, loc, value);
}

Value KernelBuilder::pick(Value index, ArrayRef<Value> options) {
  Value v = options.front();
  for (size_t i = 1; i < options.size(); ++i) {
    Value isI = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index, cidx(int64_t(i)));
    v = arith::SelectOp::create(b, loc, isI, options[i], v);
  }
  return v;
}

void KernelBuilder::ifThen(Value cond, function_ref<void()> body) {
  auto op = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&op.getThenRegion().front());
  body();
}

void KernelBuilder::gpuLaunch(Value gx, Value gy, Value gz, int64_t threads, ArrayRef<MemRefType> shared,
                              function_ref<void(Value, Value, Value, Value, ValueRange)> body) {
  Value one = cidx(1);
  SmallVector<Type> sharedTypes(shared.begin(), shared.end());
  auto launch = gpu::LaunchOp::create(b, loc, gx, gy, gz, cidx(threads), one, one, /*dynamicSharedMemorySize=*/nullptr,
                                      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, sharedTypes);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&launch.getBody().front());
    SmallVector<Value> buffers(launch.getWorkgroupAttributions().begin(), launch.getWorkgroupAttributions().end());
    body(launch.getBlockIds().x, launch.getBlockIds().y, launch.getBlockIds().z, launch.getThreadIds().x, buffers);
    gpu::TerminatorOp::create(b, loc);
  }
  b.setInsertionPointAfter(launch);
}

void KernelBuilder::gpuStage(Value tid, int64_t threads, int64_t rows, int64_t cols,
                             function_ref<void(Value, Value)> copy) {
  // The thread's first element, divided on 32-bit words (a block's thread
  // index fits one; a 64-bit division by a constant is a 64-bit multiply-high).
  Type i32 = b.getI32Type();
  Value t32 = arith::IndexCastUIOp::create(b, loc, i32, tid), n32 = arith::ConstantIntOp::create(b, loc, i32, cols);
  Value row = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), arith::DivUIOp::create(b, loc, t32, n32));
  Value col = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), arith::RemUIOp::create(b, loc, t32, n32));
  for (int64_t e0 = 0; e0 < rows * cols; e0 += threads) {
    if (e0) {
      col = add(col, cidx(threads % cols));
      Value wrap = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, col, cidx(cols));
      col = arith::SelectOp::create(b, loc, wrap, sub(col, cidx(cols)), col);
      row = add(row, arith::SelectOp::create(b, loc, wrap, cidx(threads / cols + 1), cidx(threads / cols)));
    }
    if (e0 + threads <= rows * cols)
      copy(row, col);
    else
      ifThen(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, cidx(rows)), [&] { copy(row, col); });
  }
}

MemRefType KernelBuilder::sharedType(ArrayRef<int64_t> shape, unsigned bits) {
  auto space = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  return MemRefType::get(shape, b.getIntegerType(bits), MemRefLayoutAttrInterface(), space);
}

void KernelBuilder::barrier() { gpu::BarrierOp::create(b, loc); }

Value KernelBuilder::modAdd(Value x, Value y, Value p, int64_t in, int64_t out) {
  return modarith::AddOp::create(b, loc, x.getType(), x, y, p, b.getI64IntegerAttr(in), b.getI64IntegerAttr(out));
}
Value KernelBuilder::modSub(Value x, Value y, Value p, int64_t in, int64_t out) {
  return modarith::SubOp::create(b, loc, x.getType(), x, y, p, b.getI64IntegerAttr(in), b.getI64IntegerAttr(out));
}
Value KernelBuilder::reduce(Value x, Value p, int64_t in, int64_t out) {
  if (in == out) return x;
  return modarith::ReduceOp::create(b, loc, x.getType(), x, p, b.getI64IntegerAttr(in), b.getI64IntegerAttr(out));
}
Value KernelBuilder::mulShoup(Value x, Value w, Value wShoup, Value p, int64_t out) {
  return modarith::MulShoupOp::create(b, loc, x.getType(), x, w, wShoup, p, b.getI64IntegerAttr(out));
}
Value KernelBuilder::reduceWide(Value z, Value p, Value oneShoup, Value r32, Value r32Shoup, int64_t out) {
  Value hi = mulShoup(shr(z, c64(32)), r32, r32Shoup, p, 2);
  Value lo = mulShoup(bitAnd(z, c64(0xffffffff)), c64(1), oneShoup, p, 2);
  return reduce(add(hi, lo), p, 4, out);
}
Value KernelBuilder::mulBarrett(Value x, Value y, Value p, Value mu, Value bits, int64_t out) {
  return modarith::MulBarrettOp::create(b, loc, x.getType(), x, y, p, mu, bits, b.getI64IntegerAttr(out));
}
std::pair<Value, Value> KernelBuilder::macSplit(Value lo, Value hi, Value x, Value y, unsigned digit) {
  auto m = modarith::MacSplitOp::create(b, loc, lo.getType(), lo.getType(), lo, hi, x, y,
                                        b.getI64IntegerAttr(int64_t(digit)));
  return {m.getOutLo(), m.getOutHi()};
}

std::array<Value, 3> KernelBuilder::mac(std::array<Value, 3> acc, Value x, Value y) {
  Type t = x.getType();
  auto m = modarith::MacOp::create(b, loc, t, t, t, acc[0], acc[1], acc[2], x, y);
  return {m.getOut0(), m.getOut1(), m.getOut2()};
}

std::array<Value, 3> KernelBuilder::dot(int64_t n, unsigned yBits, std::array<Value, 3> init,
                                        function_ref<Value(Value)> x, function_ref<Value(Value)> y) {
  unsigned w = getElementTypeOrSelf(init[0].getType()).getIntOrFloatBitWidth();
  int64_t chunk = yBits >= w ? 1 : std::min<int64_t>(int64_t(1) << std::min(w - yBits, 20u), n);
  Value zero = c64(0);
  auto lazy = [&](ValueRange acc, Value idx) -> std::pair<Value, Value> {
    auto m = modarith::MacLazyOp::create(b, loc, acc[0].getType(), acc[0].getType(), acc[0], acc[1], x(idx), y(idx));
    return {m.getOut0(), m.getOut1()};
  };
  auto add3 = [&](ValueRange acc, Value s0, Value s1) -> SmallVector<Value> {
    auto [t0, c0] = addCarry(acc[0], s0, zero);
    auto [t1, c1] = addCarry(acc[1], s1, c0);
    return {t0, t1, add(acc[2], c1)};
  };
  // A chunk [lo, lo + len) summed in two words by two interleaved lazy
  // accumulators (two independent add-with-carry chains), then added in.
  auto chunkSum = [&](Value lo, int64_t len, ValueRange acc) -> SmallVector<Value> {
    int64_t pairs = len / 2;
    SmallVector<Value> s{zero, zero, zero, zero};
    if (pairs)
      s = loop(cidx(0), cidx(2 * pairs), cidx(2), s, [&](Value k, ValueRange a) {
        Value i0 = add(lo, k);
        auto [e0, e1] = lazy(a.take_front(2), i0);
        auto [o0, o1] = lazy(a.drop_front(2), add(i0, cidx(1)));
        return SmallVector<Value>{e0, e1, o0, o1};
      });
    if (len % 2) {
      auto [e0, e1] = lazy(ValueRange(s).take_front(2), add(lo, cidx(len - 1)));
      s[0] = e0;
      s[1] = e1;
    }
    return add3(add3(acc, s[0], s[1]), s[2], s[3]);
  };
  int64_t full = n / chunk * chunk;
  SmallVector<Value> acc{init[0], init[1], init[2]};
  if (full)
    acc = loop(cidx(0), cidx(full), cidx(chunk), acc, [&](Value lo, ValueRange a) { return chunkSum(lo, chunk, a); });
  if (n > full) acc = chunkSum(cidx(full), n - full, acc);
  return {acc[0], acc[1], acc[2]};
}

std::pair<Value, Value> KernelBuilder::mulWide(Value x, Value y) {
  auto m = arith::MulUIExtendedOp::create(b, loc, x, y);
  return {m.getLow(), m.getHigh()};
}

std::pair<Value, Value> KernelBuilder::addCarry(Value x, Value y, Value carryIn) {
  // carryIn may be a whole word (a product's high half): both additions can
  // overflow, so the carry out is the sum of the two overflow bits (0..2).
  auto s1 = arith::AddUIExtendedOp::create(b, loc, x, y);
  auto s2 = arith::AddUIExtendedOp::create(b, loc, s1.getSum(), carryIn);
  Type t = x.getType();
  return {s2.getSum(), add(arith::ExtUIOp::create(b, loc, t, s1.getOverflow()),
                           arith::ExtUIOp::create(b, loc, t, s2.getOverflow()))};
}

std::pair<Value, Value> KernelBuilder::subBorrow(Value x, Value y, Value borrowIn) {
  Value d1 = arith::SubIOp::create(b, loc, x, y);
  Value b1 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  Value d = arith::SubIOp::create(b, loc, d1, borrowIn);
  Value b2 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, d1, borrowIn);
  Value borrow = arith::OrIOp::create(b, loc, b1, b2);
  return {d, arith::ExtUIOp::create(b, loc, x.getType(), borrow)};
}

Value KernelBuilder::table(abi::TableKind kind, fhe::BasisAttr basis, int64_t param, unsigned logN, unsigned bits) {
  assert((bits == 64 || bits == 32) && "tables are read as 64-bit words or their 32-bit halves");
  std::vector<uint64_t> primes(basis.getPrimes().begin(), basis.getPrimes().end());
  abi::TableShape s = abi::tableShape(kind, int64_t(primes.size()), int(logN), param, rt::productBits(primes));
  auto t = MemRefType::get({s.rows, s.cols * int64_t(64 / bits)}, b.getIntegerType(bits));
  // At the top of the function: tables are loop-invariant, and CSE merges repeats.
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(functionEntry);
  return fhe::TableOp::create(b, loc, t, abi::tableKindName(kind), basis, param);
}

void KernelBuilder::phaseBegin(abi::Phase phase) {
  if (!options.phaseTimers) return;
  Value id = arith::ConstantIntOp::create(b, loc, b.getI32Type(), int64_t(phase));
  func::CallOp::create(b, loc, abi::kPhaseBeginSymbol, TypeRange{}, ValueRange{id});
}

void KernelBuilder::phaseEnd(abi::Phase phase) {
  if (!options.phaseTimers) return;
  Value id = arith::ConstantIntOp::create(b, loc, b.getI32Type(), int64_t(phase));
  func::CallOp::create(b, loc, abi::kPhaseEndSymbol, TypeRange{}, ValueRange{id});
}

void KernelBuilder::phaseLap(std::optional<abi::Phase> phase) {
  if (!options.phaseTimers) return;
  Value id = arith::ConstantIntOp::create(b, loc, b.getI32Type(), phase ? int64_t(*phase) : -1);
  func::CallOp::create(b, loc, abi::kPhaseLapSymbol, TypeRange{}, ValueRange{id});
}

MemRefType memrefFor(Type t, const TargetSpec &target) {
  auto i64 = IntegerType::get(t.getContext(), 64);
  if (auto p = dyn_cast<fhe::PolyType>(t)) return MemRefType::get({p.getN(), int64_t(p.getLimbs())}, i64);
  auto r = cast<fhe::RnsType>(t);
  auto word = IntegerType::get(t.getContext(), target.wordBits);
  int64_t m = int64_t(r.getBasis().size());
  if (r.getLayout() == fhe::Layout::prime_major)
    return MemRefType::get({m, r.getN()}, word,
                           StridedLayoutAttr::get(t.getContext(), 0, {abi::rnsRowWords(r.getN()), 1}));
  return MemRefType::get({r.getN(), m}, word);
}

abi::Phase phaseOf(Operation *op) {
  if (auto f = dyn_cast<fhe::FusedOp>(op)) {
    // A fused kernel counts under its heaviest phase (a transform batch: its transforms').
    if (f.getSpace() == fhe::Space::transform) return phaseOf(&f.getBody()->front());
    abi::Phase best = abi::Phase::Other;
    for (Operation &inner : f.getBody()->without_terminator()) {
      abi::Phase p = phaseOf(&inner);
      if (p == abi::Phase::Icrt || (p == abi::Phase::Crt && best != abi::Phase::Icrt) ||
          (p == abi::Phase::Hadamard && best == abi::Phase::Other))
        best = p;
    }
    return best;
  }
  return llvm::TypeSwitch<Operation *, abi::Phase>(op)
      .Case<fhe::CrtOp>([](auto) { return abi::Phase::Crt; })
      .Case<fhe::NttOp>([](auto) { return abi::Phase::Ntt; })
      .Case<fhe::InttOp>([](auto) { return abi::Phase::Intt; })
      .Case<fhe::HadamardOp>([](auto) { return abi::Phase::Hadamard; })
      .Case<fhe::IcrtOp, fhe::IcrtSumOp>([](auto) { return abi::Phase::Icrt; })
      .Default([](Operation *) { return abi::Phase::Other; });
}

} // namespace fhec
