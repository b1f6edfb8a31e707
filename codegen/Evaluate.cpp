#include "codegen/Evaluate.h"

#include "fhec/runtime/Error.h"
#include "fhec/runtime/Reference.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace fhec {

namespace {
// Walks the straight-line body of `f`, applying `ops` to every ckks op.
template <typename V, typename Ops>
FailureOr<std::vector<V>> interpret(func::FuncOp f, const std::vector<V> &inputs, Ops &ops) {
  if (f.getNumArguments() != inputs.size())
    return f.emitOpError() << "expects " << f.getNumArguments() << " inputs, got " << inputs.size();
  llvm::DenseMap<Value, V> env;
  for (auto [a, v] : llvm::zip(f.getArguments(), inputs)) env[a] = v;
  std::vector<V> outputs;
  for (Operation &op : f.getBody().front()) {
    auto get = [&](Value v) -> const V & { return env.find(v)->second; };
    LogicalResult r =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .template Case<ckks::AddOp>([&](auto o) { return env[o.getResult()] = ops.add(get(o.getLhs()), get(o.getRhs())), success(); })
            .template Case<ckks::SubOp>([&](auto o) { return env[o.getResult()] = ops.sub(get(o.getLhs()), get(o.getRhs())), success(); })
            .template Case<ckks::NegateOp>([&](auto o) { return env[o.getResult()] = ops.negate(get(o.getInput())), success(); })
            .template Case<ckks::MulOp>([&](auto o) { return env[o.getResult()] = ops.mul(get(o.getLhs()), get(o.getRhs())), success(); })
            .template Case<ckks::RescaleOp>([&](auto o) { return env[o.getResult()] = ops.rescale(o, get(o.getInput())), success(); })
            .template Case<ckks::ModDownOp>([&](auto o) { return env[o.getResult()] = ops.modDown(o, get(o.getInput())), success(); })
            .template Case<ckks::MulConstOp>([&](auto o) { return env[o.getResult()] = ops.mulConst(o, get(o.getInput())), success(); })
            .template Case<ckks::AddConstOp>([&](auto o) { return env[o.getResult()] = ops.addConst(o, get(o.getInput())), success(); })
            .template Case<func::ReturnOp>([&](func::ReturnOp o) {
              for (Value v : o.getOperands()) outputs.push_back(get(v));
              return success();
            })
            .template Default([](Operation *o) { return o->emitOpError() << "cannot be evaluated"; });
    if (failed(r)) return failure();
  }
  return outputs;
}

struct ReferenceOps {
  const rt::Params &params;
  const rt::EvalKey &evk;
  ckks::ParamsAttr attr;

  rt::Ciphertext add(const rt::Ciphertext &a, const rt::Ciphertext &b) { return rt::referenceAdd(a, b); }
  rt::Ciphertext sub(const rt::Ciphertext &a, const rt::Ciphertext &b) { return rt::referenceSub(a, b); }
  rt::Ciphertext negate(const rt::Ciphertext &a) { return rt::referenceNegate(a); }
  rt::Ciphertext mul(const rt::Ciphertext &a, const rt::Ciphertext &b) { return rt::referenceMul(params, a, b, evk); }
  rt::Ciphertext rescale(ckks::RescaleOp o, const rt::Ciphertext &a) {
    return rt::referenceRescale(a, int(o.getInput().getType().getLogq() - o.getResult().getType().getLogq()));
  }
  rt::Ciphertext modDown(ckks::ModDownOp o, const rt::Ciphertext &a) {
    return rt::referenceModDown(a, int(o.getResult().getType().getLogq()));
  }
  rt::Ciphertext mulConst(ckks::MulConstOp o, const rt::Ciphertext &a) {
    mpz_t k;
    mpz_init(k);
    rt::scaleConstant(o.getValue().convertToDouble(), int(attr.getLogp()), k);
    rt::Ciphertext r = rt::referenceMulConst(a, k, int(attr.getLogp()));
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
};

using Vec = std::vector<rt::Complex>;
struct PlainOps {
  template <typename F> static Vec map(const Vec &a, F f) {
    Vec r(a.size());
    for (size_t i = 0; i < a.size(); ++i) r[i] = f(a[i], i);
    return r;
  }
  Vec add(const Vec &a, const Vec &b) { return map(a, [&](rt::Complex x, size_t i) { return x + b[i]; }); }
  Vec sub(const Vec &a, const Vec &b) { return map(a, [&](rt::Complex x, size_t i) { return x - b[i]; }); }
  Vec negate(const Vec &a) { return map(a, [](rt::Complex x, size_t) { return -x; }); }
  Vec mul(const Vec &a, const Vec &b) { return map(a, [&](rt::Complex x, size_t i) { return x * b[i]; }); }
  Vec rescale(ckks::RescaleOp, const Vec &a) { return a; }
  Vec modDown(ckks::ModDownOp, const Vec &a) { return a; }
  Vec mulConst(ckks::MulConstOp o, const Vec &a) {
    double c = o.getValue().convertToDouble();
    return map(a, [&](rt::Complex x, size_t) { return x * c; });
  }
  Vec addConst(ckks::AddConstOp o, const Vec &a) {
    double c = o.getValue().convertToDouble();
    return map(a, [&](rt::Complex x, size_t) { return x + c; });
  }
};
} // namespace

FailureOr<std::vector<rt::Ciphertext>> evaluateReference(func::FuncOp f, const rt::Params &params,
                                                         const rt::EvalKey &evk,
                                                         const std::vector<rt::Ciphertext> &inputs) {
  ReferenceOps ops{params, evk, ckks::getModuleParams(f)};
  try {
    return interpret(f, inputs, ops);
  } catch (const rt::Error &e) {
    return f.emitError() << "reference evaluation failed: " << e.what();
  }
}

FailureOr<std::vector<std::vector<rt::Complex>>> evaluatePlain(func::FuncOp f, const std::vector<Vec> &inputs) {
  PlainOps ops;
  return interpret(f, inputs, ops);
}

} // namespace fhec
