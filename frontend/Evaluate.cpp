#include "frontend/Evaluate.h"

#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Reference.h"

#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <type_traits>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace fhec {

namespace {
// The slot values of each plaintext argument (!ckks.pt) of f, padded with zeros.
using Vec = std::vector<rt::Complex>;
FailureOr<llvm::DenseMap<Value, Vec>> bindPlaintexts(func::FuncOp f, const std::vector<Vec> &plaintexts) {
  size_t expected = llvm::count_if(f.getArgumentTypes(), [](Type t) { return isa<ckks::PlaintextType>(t); });
  if (plaintexts.size() != expected)
    return f.emitOpError() << "expects one value vector per plaintext argument, got " << plaintexts.size();
  llvm::DenseMap<Value, Vec> bound;
  size_t j = 0;
  for (BlockArgument a : f.getArguments()) {
    auto pt = dyn_cast<ckks::PlaintextType>(a.getType());
    if (!pt) continue;
    if (plaintexts[j].size() > pt.getSlots())
      return f.emitOpError() << "plaintext argument " << j << " has " << plaintexts[j].size() << " values for "
                             << pt.getSlots() << " slots";
    Vec v(pt.getSlots(), rt::Complex(0));
    std::copy(plaintexts[j].begin(), plaintexts[j].end(), v.begin());
    bound[a] = std::move(v);
    ++j;
  }
  return bound;
}

// The slot values a mul_plain / add_plain multiplies or adds: its plaintext
// argument's (bound) or its constant's.
template <typename Op> Vec plainOperand(Op o, const llvm::DenseMap<Value, Vec> &plain) {
  return o.getPlain() ? plain.at(o.getPlain()) : o.getSlotValues();
}

// Walks the straight-line body of `f`, applying `ops` to every ckks op.
template <typename V, typename Ops>
FailureOr<std::vector<V>> interpret(func::FuncOp f, const std::vector<V> &inputs, Ops &ops) {
  size_t numCt = llvm::count_if(f.getArgumentTypes(), [](Type t) { return isa<ckks::CiphertextType>(t); });
  if (numCt != inputs.size()) return f.emitOpError() << "expects " << numCt << " inputs, got " << inputs.size();
  llvm::DenseMap<Value, V> env;
  size_t k = 0;
  for (BlockArgument a : f.getArguments())
    if (isa<ckks::CiphertextType>(a.getType())) env[a] = inputs[k++];
  std::vector<V> outputs;
  for (Operation &op : f.getBody().front()) {
    auto get = [&](Value v) -> const V & { return env.find(v)->second; };
    LogicalResult r =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .template Case<ckks::AddOp>([&](auto o) { return env[o.getResult()] = ops.add(o, get(o.getLhs()), get(o.getRhs())), success(); })
            .template Case<ckks::SubOp>([&](auto o) { return env[o.getResult()] = ops.sub(o, get(o.getLhs()), get(o.getRhs())), success(); })
            .template Case<ckks::NegateOp>([&](auto o) { return env[o.getResult()] = ops.negate(get(o.getInput())), success(); })
            .template Case<ckks::MulMonomialOp>([&](auto o) {
              return env[o.getResult()] = ops.mulMonomial(o, get(o.getInput())), success();
            })
            .template Case<ckks::MulOp>([&](auto o) -> LogicalResult {
              FailureOr<V> r = ops.mul(o, get(o.getLhs()), get(o.getRhs()));
              if (failed(r)) return failure();
              env[o.getResult()] = *r;
              return success();
            })
            .template Case<ckks::RescaleOp>([&](auto o) { return env[o.getResult()] = ops.rescale(o, get(o.getInput())), success(); })
            .template Case<ckks::ModDownOp>([&](auto o) { return env[o.getResult()] = ops.modDown(o, get(o.getInput())), success(); })
            .template Case<ckks::ModRaiseOp>([&](auto o) { return env[o.getResult()] = ops.modRaise(o, get(o.getInput())), success(); })
            .template Case<ckks::EncapsulateOp, ckks::DecapsulateOp>([&](auto o) -> LogicalResult {
              FailureOr<V> r = ops.switchSecret(o, get(o.getInput()));
              if (failed(r)) return failure();
              env[o.getResult()] = *r;
              return success();
            })
            .template Case<ckks::DivByPo2Op>([&](auto o) { return env[o.getResult()] = ops.divByPo2(o, get(o.getInput())), success(); })
            .template Case<ckks::RelabelOp>([&](auto o) { return env[o.getResult()] = ops.relabel(o, get(o.getInput())), success(); })
            .template Case<ckks::MulConstOp>([&](auto o) { return env[o.getResult()] = ops.mulConst(o, get(o.getInput())), success(); })
            .template Case<ckks::AddConstOp>([&](auto o) { return env[o.getResult()] = ops.addConst(o, get(o.getInput())), success(); })
            .template Case<ckks::MulPlainOp>([&](auto o) { return env[o.getResult()] = ops.mulPlain(o, get(o.getInput())), success(); })
            .template Case<ckks::AddPlainOp>([&](auto o) { return env[o.getResult()] = ops.addPlain(o, get(o.getInput())), success(); })
            .template Case<ckks::RotateOp>([&](ckks::RotateOp o) -> LogicalResult {
              for (auto [i, result] : llvm::enumerate(o.getResults())) {
                FailureOr<V> r = ops.rotate(o, i, get(o.getInput()));
                if (failed(r)) return failure();
                env[result] = *r;
              }
              return success();
            })
            .template Case<ckks::ConjugateOp>([&](ckks::ConjugateOp o) -> LogicalResult {
              FailureOr<V> r = ops.conjugate(o, get(o.getInput()));
              if (failed(r)) return failure();
              env[o.getResult()] = *r;
              return success();
            })
            .template Case<func::ReturnOp>([&](func::ReturnOp o) {
              for (Value v : o.getOperands()) outputs.push_back(get(v));
              return success();
            })
            .template Case<ckks::LinearTransformOp>([&](auto o) -> LogicalResult {
              FailureOr<V> r = ops.linearTransform(o, get(o.getInput()));
              if (failed(r)) return failure();
              env[o.getResult()] = *r;
              return success();
            })
            .template Case<ckks::PolyEvalOp>([](auto o) {
              return o.emitOpError() << "is evaluated in its expanded form: run ckks-expand-poly-eval first";
            })
            .template Case<ckks::BootstrapOp>([](auto o) {
              return o.emitOpError() << "is evaluated in its expanded form: run ckks-expand-bootstrap first";
            })
            .template Default([](Operation *o) { return o->emitOpError() << "cannot be evaluated"; });
    if (failed(r)) return failure();
  }
  return outputs;
}

struct ReferenceOps {
  const rt::Params &params;
  const EvaluationKeys &keys;
  ckks::ParamsAttr attr;
  llvm::DenseMap<Value, Vec> plain;  // the plaintext arguments' values

  rt::KeySwitchForm form() const {
    return attr.isHeaanKeySwitch() ? rt::KeySwitchForm::Heaan : rt::KeySwitchForm::Centered;
  }
  // ckks.add's alignment: reduce to the result's logq, multiply up to its logp.
  static rt::Ciphertext align(const rt::Ciphertext &c, ckks::CiphertextType to) {
    rt::Ciphertext r = c.logq() > int(to.getLogq()) ? rt::referenceModDown(c, int(to.getLogq())) : c;
    if (r.logp < int(to.getLogp())) {
      mpz_t k;
      mpz_init(k);
      mpz_setbit(k, to.getLogp() - r.logp);
      r = rt::referenceMulConst(r, k, int(to.getLogp()) - r.logp);
      mpz_clear(k);
    }
    return r;
  }
  rt::Ciphertext add(ckks::AddOp o, const rt::Ciphertext &a, const rt::Ciphertext &b) {
    return rt::referenceAdd(align(a, o.getType()), align(b, o.getType()));
  }
  rt::Ciphertext sub(ckks::SubOp o, const rt::Ciphertext &a, const rt::Ciphertext &b) {
    return rt::referenceSub(align(a, o.getType()), align(b, o.getType()));
  }
  rt::Ciphertext negate(const rt::Ciphertext &a) { return rt::referenceNegate(a); }
  rt::Ciphertext mulMonomial(ckks::MulMonomialOp o, const rt::Ciphertext &a) {
    return rt::referenceMulMonomial(a, o.getK());
  }
  FailureOr<rt::Ciphertext> mul(ckks::MulOp o, const rt::Ciphertext &a, const rt::Ciphertext &b) {
    if (!keys.evk) return o.emitOpError() << "needs the evaluation key";
    int logq = int(o.getType().getLogq());
    auto level = [&](const rt::Ciphertext &c) { return c.logq() > logq ? rt::referenceModDown(c, logq) : c; };
    return rt::referenceMul(params, level(a), level(b), *keys.evk, form());
  }
  rt::Ciphertext rescale(ckks::RescaleOp o, const rt::Ciphertext &a) {
    return rt::referenceRescale(a, int(o.getInput().getType().getLogq() - o.getResult().getType().getLogq()),
                                o.getRound());
  }
  rt::Ciphertext modDown(ckks::ModDownOp o, const rt::Ciphertext &a) {
    return rt::referenceModDown(a, int(o.getResult().getType().getLogq()));
  }
  rt::Ciphertext modRaise(ckks::ModRaiseOp o, const rt::Ciphertext &a) {
    return rt::referenceModRaise(a, int(o.getResult().getType().getLogq()));
  }
  // Sparse-secret encapsulation's key switches, with the key of q0.
  template <typename Op> FailureOr<rt::Ciphertext> switchSecret(Op o, const rt::Ciphertext &a) {
    unsigned q0 = *ckks::encapsulationModulus(o);
    const rt::EncapsulationKey *ek = nullptr;
    if (keys.encapsulationKeys) {
      auto it = keys.encapsulationKeys->find(int(q0));
      if (it != keys.encapsulationKeys->end()) ek = &it->second;
    }
    if (!ek) return o.emitOpError() << "needs the encapsulation key for q0 = 2^" << q0;
    if constexpr (std::is_same_v<Op, ckks::EncapsulateOp>) return rt::referenceEncapsulate(params, a, *ek, form());
    else return rt::referenceDecapsulate(params, a, *ek, form());
  }
  rt::Ciphertext divByPo2(ckks::DivByPo2Op o, const rt::Ciphertext &a) {
    return rt::referenceDivByPo2(a, int(o.getInput().getType().getLogq() - o.getResult().getType().getLogq()));
  }
  rt::Ciphertext relabel(ckks::RelabelOp o, const rt::Ciphertext &a) {
    return rt::referenceRelabel(a, int(o.getType().getLogp()), int(o.getType().getSlots()));
  }
  rt::Ciphertext mulConst(ckks::MulConstOp o, const rt::Ciphertext &a) {
    mpz_t k;
    mpz_init(k);
    rt::scaleConstant(o.getValue().convertToDouble(), int(o.getConstantLogScale()), k);
    rt::Ciphertext r = rt::referenceMulConst(a, k, int(o.getConstantLogScale()));
    mpz_clear(k);
    return r;
  }
  rt::Ciphertext addConst(ckks::AddConstOp o, const rt::Ciphertext &a) {
    mpz_t k;
    mpz_init(k);
    rt::scaleConstant(o.getValue().convertToDouble(), a.logp, k);
    rt::Ciphertext r = rt::referenceAddConst(a, k);
    mpz_clear(k);
    return r;
  }
  // The plaintexts are encoded exactly as ckks-to-fhe (constants) and the
  // runtime (arguments) encode them (rt::encode).
  rt::Ciphertext mulPlain(ckks::MulPlainOp o, const rt::Ciphertext &a) {
    Vec v = plainOperand(o, plain);
    rt::BigPoly m = rt::encode(v, params.logN, int(o.getConstantLogScale()), a.logq());
    return rt::referenceMulPlain(a, m, int(o.getConstantLogScale()));
  }
  rt::Ciphertext addPlain(ckks::AddPlainOp o, const rt::Ciphertext &a) {
    Vec v = plainOperand(o, plain);
    if (o.getNegate())
      for (auto &x : v) x = -x;
    return rt::referenceAddPlain(a, rt::encode(v, params.logN, a.logp, a.logq()));
  }
  FailureOr<rt::Ciphertext> automorphism(Operation *op, uint64_t g, const rt::Ciphertext &a) {
    const rt::RotationKey *rk = rotationKey(g);
    if (!rk) return op->emitOpError() << "needs the rotation key of Galois element " << g;
    return rt::referenceRotate(params, a, *rk, form());
  }
  // Result i of `o`.
  FailureOr<rt::Ciphertext> rotate(ckks::RotateOp o, unsigned i, const rt::Ciphertext &a) {
    return automorphism(o, o.getGaloisElement(i), a);
  }
  FailureOr<rt::Ciphertext> conjugate(ckks::ConjugateOp o, const rt::Ciphertext &a) {
    return automorphism(o, o.getGaloisElement(), a);
  }
  const rt::RotationKey *rotationKey(uint64_t g) const {
    if (!keys.rotationKeys) return nullptr;
    auto it = keys.rotationKeys->find(g);
    return it == keys.rotationKeys->end() ? nullptr : &it->second;
  }
  // ckks.linear_transform's BSGS sequence: per giant step, the exact sum mod q
  // of the unrescaled plaintext products of the baby rotations; the nonzero
  // giant steps rotated with their key switches summed before one shift
  // (referenceRotateSum), added to giant 0's sum.
  FailureOr<rt::Ciphertext> linearTransform(ckks::LinearTransformOp o, const rt::Ciphertext &a) {
    ckks::BsgsPlan plan = o.getPlan();
    int logp = int(o.getConstantLogScale());
    if (params.dnum > 1) return linearTransformHoisted(o, a);
    std::map<int64_t, rt::Ciphertext> babies;
    for (int64_t b : plan.babies) {
      if (b == 0) {
        babies.emplace(0, a);
        continue;
      }
      FailureOr<rt::Ciphertext> r = automorphism(o, rt::galoisForRotation(params.logN, b), a);
      if (failed(r)) return failure();
      babies.emplace(b, std::move(*r));
    }
    std::vector<Vec> diagonals = o.getDiagonalRows();
    std::optional<rt::Ciphertext> sum;
    std::vector<std::pair<rt::Ciphertext, const rt::RotationKey *>> giants;
    for (auto &[giant, members] : plan.groups) {
      std::optional<rt::Ciphertext> inner;
      for (auto [b, i] : members) {
        rt::BigPoly m = rt::encode(ckks::rotatedDiagonal(diagonals[i], giant), params.logN, logp, a.logq());
        rt::Ciphertext p = rt::referenceMulPlain(babies.at(b), m, logp);
        inner = inner ? rt::referenceAdd(*inner, p) : p;
      }
      if (giant == 0) {
        sum = std::move(*inner);
        continue;
      }
      uint64_t g = rt::galoisForRotation(params.logN, giant);
      const rt::RotationKey *rk = rotationKey(g);
      if (!rk) return o.emitOpError() << "needs the rotation key of Galois element " << g;
      giants.emplace_back(std::move(*inner), rk);
    }
    if (giants.empty()) return *sum;
    rt::Ciphertext rotated = rt::referenceRotateSum(params, giants, form());
    return sum ? rt::referenceAdd(*sum, rotated) : rotated;
  }
  // With hybrid key switching: double hoisting (referenceLinearTransformHoisted).
  FailureOr<rt::Ciphertext> linearTransformHoisted(ckks::LinearTransformOp o, const rt::Ciphertext &a) {
    ckks::BsgsPlan plan = o.getPlan();
    int logp = int(o.getConstantLogScale());
    auto key = [&](int64_t rotation) -> FailureOr<const rt::RotationKey *> {
      if (rotation == 0) return static_cast<const rt::RotationKey *>(nullptr);
      uint64_t g = rt::galoisForRotation(params.logN, rotation);
      const rt::RotationKey *rk = rotationKey(g);
      if (!rk) return o.emitOpError() << "needs the rotation key of Galois element " << g;
      return rk;
    };
    std::vector<Vec> diagonals = o.getDiagonalRows();
    std::vector<rt::HoistedGiantStep> steps;
    for (auto &[giant, members] : plan.groups) {
      FailureOr<const rt::RotationKey *> gk = key(giant);
      if (failed(gk)) return failure();
      rt::HoistedGiantStep &step = steps.emplace_back();
      step.giant = *gk;
      for (auto [b, i] : members) {
        FailureOr<const rt::RotationKey *> bk = key(b);
        if (failed(bk)) return failure();
        step.members.emplace_back(*bk, rt::encode(ckks::rotatedDiagonal(diagonals[i], giant), params.logN, logp,
                                                  a.logq()));
      }
    }
    return rt::referenceLinearTransformHoisted(params, a, steps, logp, form());
  }
};

struct PlainOps {
  llvm::DenseMap<Value, Vec> plain;  // the plaintext arguments' values
  template <typename F> static Vec map(const Vec &a, F f) {
    Vec r(a.size());
    for (size_t i = 0; i < a.size(); ++i) r[i] = f(a[i], i);
    return r;
  }
  template <typename Op> Vec add(Op, const Vec &a, const Vec &b) { return map(a, [&](rt::Complex x, size_t i) { return x + b[i]; }); }
  template <typename Op> Vec sub(Op, const Vec &a, const Vec &b) { return map(a, [&](rt::Complex x, size_t i) { return x - b[i]; }); }
  Vec negate(const Vec &a) { return map(a, [](rt::Complex x, size_t) { return -x; }); }
  // Slot j (the value at zeta^(5^j), zeta = e^(2 pi i / 2N)) times zeta^(k 5^j).
  Vec mulMonomial(ckks::MulMonomialOp o, const Vec &a) {
    uint64_t twoN = uint64_t(2) << o.getType().getLogN(), five = 1;
    Vec r(a.size());
    for (size_t j = 0; j < a.size(); ++j, five = five * 5 % twoN) {
      double angle = 2.0 * M_PI * double(uint64_t(o.getK()) * five % twoN) / double(twoN);
      r[j] = a[j] * rt::Complex(std::cos(angle), std::sin(angle));
    }
    return r;
  }
  FailureOr<Vec> mul(ckks::MulOp, const Vec &a, const Vec &b) { return map(a, [&](rt::Complex x, size_t i) { return x * b[i]; }); }
  Vec rescale(ckks::RescaleOp, const Vec &a) { return a; }
  Vec modDown(ckks::ModDownOp, const Vec &a) { return a; }
  // The values of m, not of m + q I: exact once reduced back to q, and what EvalMod recovers.
  Vec modRaise(ckks::ModRaiseOp, const Vec &a) { return a; }
  template <typename Op> FailureOr<Vec> switchSecret(Op, const Vec &a) { return a; }
  Vec divByPo2(ckks::DivByPo2Op o, const Vec &a) {
    double f = std::ldexp(1.0, -int(o.getInput().getType().getLogq() - o.getType().getLogq()));
    return map(a, [&](rt::Complex x, size_t) { return x * f; });
  }
  // Scale: times 2^(logp in - logp out). Slots: n -> m > n repeats the n
  // values; m -> n < m takes the mean of slots j, j + n, ...
  Vec relabel(ckks::RelabelOp o, const Vec &a) {
    auto in = o.getInput().getType(), out = o.getType();
    double f = std::ldexp(1.0, int(in.getLogp()) - int(out.getLogp()));
    size_t n = out.getSlots();
    Vec r(n, rt::Complex(0));
    if (n >= a.size()) {
      for (size_t j = 0; j < n; ++j) r[j] = a[j % a.size()] * f;
    } else {
      double copies = double(a.size() / n);
      for (size_t j = 0; j < a.size(); ++j) r[j % n] += a[j] * (f / copies);
    }
    return r;
  }
  Vec mulConst(ckks::MulConstOp o, const Vec &a) {
    double c = o.getValue().convertToDouble();
    return map(a, [&](rt::Complex x, size_t) { return x * c; });
  }
  Vec addConst(ckks::AddConstOp o, const Vec &a) {
    double c = o.getValue().convertToDouble();
    return map(a, [&](rt::Complex x, size_t) { return x + c; });
  }
  Vec mulPlain(ckks::MulPlainOp o, const Vec &a) {
    Vec v = plainOperand(o, plain);
    return map(a, [&](rt::Complex x, size_t i) { return x * v[i]; });
  }
  Vec addPlain(ckks::AddPlainOp o, const Vec &a) {
    Vec v = plainOperand(o, plain);
    double sign = o.getNegate() ? -1 : 1;
    return map(a, [&](rt::Complex x, size_t i) { return x + sign * v[i]; });
  }
  // Result i: slot j takes slot j + offsets[i] (mod slots: a sparse vector repeats).
  FailureOr<Vec> rotate(ckks::RotateOp o, unsigned i, const Vec &a) {
    size_t n = a.size(), k = size_t(o.getOffsets()[i]) % n;
    return map(a, [&](rt::Complex, size_t i) { return a[(i + k) % n]; });
  }
  // y[j] = sum_i diag_i[j] x[(j + offset_i) mod slots].
  FailureOr<Vec> linearTransform(ckks::LinearTransformOp o, const Vec &a) {
    Vec y(a.size(), rt::Complex(0));
    size_t n = a.size();
    std::vector<Vec> diagonals = o.getDiagonalRows();
    for (auto [i, d] : llvm::enumerate(o.getOffsets()))
      for (size_t j = 0; j < n; ++j) y[j] += diagonals[i][j] * a[(j + size_t(d)) % n];
    return y;
  }
  FailureOr<Vec> conjugate(ckks::ConjugateOp, const Vec &a) {
    return map(a, [](rt::Complex x, size_t) { return std::conj(x); });
  }
};
} // namespace

FailureOr<std::vector<rt::Ciphertext>> evaluateReference(func::FuncOp f, const rt::Params &params,
                                                         const EvaluationKeys &keys,
                                                         const std::vector<rt::Ciphertext> &inputs,
                                                         const std::vector<Vec> &plaintexts) {
  auto bound = bindPlaintexts(f, plaintexts);
  if (failed(bound)) return failure();
  ReferenceOps ops{params, keys, ckks::getModuleParams(f), std::move(*bound)};
  try {
    return interpret(f, inputs, ops);
  } catch (const rt::Error &e) {
    return f.emitError() << "reference evaluation failed: " << e.what();
  }
}

std::vector<uint64_t> galoisElements(func::FuncOp f) {
  std::set<uint64_t> g;
  f.walk([&](Operation *op) {
    for (uint64_t e : ckks::keySwitchGaloisElements(op)) g.insert(e);
  });
  return {g.begin(), g.end()};
}

std::vector<int> encapsulationModuli(func::FuncOp f) {
  std::set<int> q;
  f.walk([&](Operation *op) {
    if (auto q0 = ckks::encapsulationModulus(op)) q.insert(int(*q0));
  });
  return {q.begin(), q.end()};
}

FailureOr<std::vector<std::vector<rt::Complex>>> evaluatePlain(func::FuncOp f, const std::vector<Vec> &inputs,
                                                                const std::vector<Vec> &plaintexts) {
  auto bound = bindPlaintexts(f, plaintexts);
  if (failed(bound)) return failure();
  PlainOps ops{std::move(*bound)};
  return interpret(f, inputs, ops);
}

} // namespace fhec
