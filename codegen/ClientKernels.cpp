#include "codegen/ClientKernels.h"
#include "codegen/Compiler.h"
#include "target/Target.h"
#include "conversion/CKKSToFHE/Bounds.h"

#include "dialect/CKKS/IR/CKKSDialect.h"
#include "dialect/FHE/IR/FHEDialect.h"

#include "fhec/runtime/Abi.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <algorithm>
#include <limits>
#include <set>

using namespace mlir;

namespace fhec {

namespace {

// Builds the functions of the client module, one method each (Abi.h lists
// their signatures and roles).
class ClientKernelBuilder {
public:
  ClientKernelBuilder(ModuleOp module, const rt::Params &p, unsigned logH, unsigned primeBits)
      : b(module.getContext()), loc(module.getLoc()), p(p), primeBits(primeBits),
        moduleBody(module.getBody()),
        keyBasis(basis(clientKeyBits(unsigned(p.logN), unsigned(p.logKey())))),
        encryptBasis(basis(clientEncryptBits(unsigned(p.logN), unsigned(p.logQ)))) {}

  // The secret in the largest basis (key generation's; decryption reads a prefix).
  void prepareSecret() {
    Block *body = function(abi::kClientPrepareSecret, {{poly(2), "s"}}, {{eval(keyBasis), "sk"}});
    auto c = fhe::CrtOp::create(b, loc, coeff(keyBasis), body->getArgument(0));
    c.setCentered(true);
    ret({fhe::NttOp::create(b, loc, eval(keyBasis), c.getResult())});
  }

  // A half of a public-key polynomial (below Q, the low one below P <= Q) in
  // the encryption basis.
  void preparePublic() {
    Block *body = function(abi::kClientPreparePublic, {{poly(p.logQ), "half"}}, {{eval(encryptBasis), "pk"}});
    Value c = fhe::CrtOp::create(b, loc, coeff(encryptBasis), body->getArgument(0));
    ret({fhe::NttOp::create(b, loc, eval(encryptBasis), c)});
  }

  // b = E - a s mod PQ.
  void keyB() {
    int wide = p.logKey();
    Block *body = function(abi::kClientKeyB, {{poly(wide), "a"}, {poly(wide), "E"}, {eval(keyBasis), "sk"}},
                           {{poly(wide), "b"}});
    Value as = product(body->getArgument(0), body->getArgument(2), keyBasis, wide);
    ret({fhe::PolySubOp::create(b, loc, body->getArgument(1), as)});
  }

  // HEAAN's encMsg on the halves of pk = pk_hi P + pk_lo: with X = v pk + e,
  // round(X / P) = v pk_hi + round((v pk_lo + e) / P) exactly, so both
  // products fit a basis of half the bits (25 primes instead of 49 at the
  // paper's size: half the NTTs of v and of the iCRT's work). The error is
  // added as the iCRT reads the residues, the rounding in its columns.
  void encrypt() {
    Type e = poly(abi::kClientErrorBits);
    Type key = eval(encryptBasis);
    Block *body = function(abi::kClientEncrypt,
                           {{poly(2), "v"}, {e, "e0"}, {e, "e1"}, {poly(p.logQ), "m"}, {key, "pk.ax.hi"},
                            {key, "pk.ax.lo"}, {key, "pk.bx.hi"}, {key, "pk.bx.lo"}},
                           {{poly(p.logQ), "ax"}, {poly(p.logQ), "bx"}});
    auto cv = fhe::CrtOp::create(b, loc, coeff(encryptBasis), body->getArgument(0));
    cv.setCentered(true);
    Value v = fhe::NttOp::create(b, loc, key, cv.getResult());
    auto times = [&](Value k) {
      return fhe::InttOp::create(b, loc, coeff(encryptBasis), fhe::HadamardOp::create(b, loc, v, k).getResult()).getResult();
    };
    // round((v pk_lo + e) / P) is at most N + 1 in magnitude: logN + 3 bits
    // hold it (two's complement), and it enters v pk_hi's iCRT as its addend.
    auto half = [&](Value hi, Value lo, Value err) {
      Value low = fhe::IcrtOp::create(b, loc, poly(p.logN + 3), times(lo), err, nullptr, nullptr,
                                      b.getI64IntegerAttr(p.logP()), /*round=*/true);
      return fhe::IcrtOp::create(b, loc, poly(p.logQ), times(hi), low, nullptr, nullptr, nullptr, false).getResult();
    };
    Value ax = half(body->getArgument(4), body->getArgument(5), body->getArgument(1));
    Value bx = fhe::PolyAddOp::create(b, loc, half(body->getArgument(6), body->getArgument(7), body->getArgument(2)),
                                      body->getArgument(3));
    ret({ax, bx});
  }

  // m = bx + ax s mod 2^logq, with ax cut into bit-windows A_g (`plan`):
  // each window's CRT, NTT, Hadamard with the secret and iNTT in a basis of
  // the window's size, then one icrt_sum adds the products A_g s at their
  // offsets, and bx.
  void decrypt(int logq, ArrayRef<DecryptWindow> plan) {
    Block *body = function(abi::clientDecryptFunc(logq), {{poly(logq), "ax"}, {poly(logq), "bx"}, {eval(keyBasis), "sk"}},
                           {{poly(logq), "m"}});
    SmallVector<Value> products;
    SmallVector<int64_t> offsets;
    llvm::DenseMap<unsigned, Value> secrets;  // basis bits -> the secret in that basis
    for (const DecryptWindow &w : plan) {
      Value crt = windowCrt(body->getArgument(0), w);
      Value &key = secrets[w.basisBits];
      if (!key) key = prefix(body->getArgument(2), basis(w.basisBits));
      products.push_back(timesKey(crt, key));
      offsets.push_back(w.offset);
    }
    auto sum = fhe::IcrtSumOp::create(b, loc, poly(logq), products, body->getArgument(1),
                                      b.getDenseI64ArrayAttr(offsets), nullptr);
    ret({sum.getResult()});
  }

  // The decryption mod 2^w of ax's lowest window `w` alone, with a check
  // that it is the whole decryption: m_w = bx + A_0 s mod 2^w, and
  // r = (bx + ax s - c) mod p in a basis of one prime, where c is m_w read
  // centered. c is the decryption mod 2^logq exactly when Y - c = k 2^logq
  // with -h <= k <= h + 1 (Y = bx + ax s over Z), which the client checks
  // on r (Client.cpp). r comes back mod 2^b, b = primeBits - 1 (p in
  // (2^b, 2^(b+1)), r centered).
  void narrowDecrypt(int logq, const DecryptWindow &w) {
    Block *body = function(abi::clientNarrowDecryptFunc(logq),
                           {{poly(logq), "ax"}, {poly(logq), "bx"}, {eval(keyBasis), "sk"}},
                           {{poly(int(w.bits)), "m"}, {poly(int(primeBits) - 1), "check"}});
    Value ax = body->getArgument(0), bx = body->getArgument(1), sk = body->getArgument(2);
    Value crt = windowCrt(ax, w);
    Value low = timesKey(crt, prefix(sk, basis(w.basisBits)));
    Value bxLow = fhe::PolyReduceOp::create(b, loc, poly(int(w.bits)), bx);
    Value m = fhe::IcrtSumOp::create(b, loc, poly(int(w.bits)), ValueRange{low}, bxLow,
                                     b.getDenseI64ArrayAttr({0}), nullptr)
                  .getResult();
    // The check, in the first prime alone. (ax read as a window of all of
    // it: fhe-fuse then reads it in one pass for both CRTs.)
    Value cax = windowCrt(ax, {0, int64_t(logq), primeBits - 1});
    Value axs = timesKey(cax, prefix(sk, basis(primeBits - 1)));
    Value cbx = fhe::CrtOp::create(b, loc, cax.getType(), bx);
    auto cm = fhe::CrtOp::create(b, loc, cax.getType(), m);
    cm.setCentered(true);
    Value y = fhe::AddOp::create(b, loc, axs, cbx);
    Value r = fhe::SubOp::create(b, loc, y, cm.getResult());
    ret({m, fhe::IcrtOp::create(b, loc, poly(int(primeBits) - 1), r).getResult()});
  }

private:
  OpBuilder b;
  Location loc;
  rt::Params p;
  unsigned primeBits;
  Block *moduleBody;
  fhe::BasisAttr keyBasis, encryptBasis;

  fhe::BasisAttr basis(unsigned bits) { return fhe::BasisAttr::get(b.getContext(), bits); }
  fhe::PolyType poly(int logq) { return fhe::PolyType::get(b.getContext(), unsigned(p.logN), unsigned(logq)); }
  fhe::RnsType coeff(fhe::BasisAttr basis) {
    return fhe::RnsType::get(b.getContext(), unsigned(p.logN), basis, fhe::Domain::coeff, fhe::Layout::prime_major);
  }
  fhe::RnsType eval(fhe::BasisAttr basis) { return coeff(basis).withDomain(fhe::Domain::eval); }

  // The prepared secret (key basis) read in a smaller basis.
  Value prefix(Value key, fhe::BasisAttr to) {
    return to == keyBasis ? key : fhe::BasisPrefixOp::create(b, loc, eval(to), key).getResult();
  }

  // x * key mod 2^logq (key in NTT form): CRT, NTT, Hadamard, iNTT, iCRT.
  Value product(Value x, Value key, fhe::BasisAttr basis, int logq) {
    Value c = fhe::CrtOp::create(b, loc, coeff(basis), x);
    return fhe::IcrtOp::create(b, loc, poly(logq), timesKey(c, key));
  }

  // Coefficient-domain residues times a key in NTT form of their basis:
  // NTT, Hadamard, iNTT.
  Value timesKey(Value residues, Value key) {
    auto t = cast<fhe::RnsType>(residues.getType());
    Value h = fhe::HadamardOp::create(b, loc, fhe::NttOp::create(b, loc, t.withDomain(fhe::Domain::eval), residues), key);
    return fhe::InttOp::create(b, loc, t, h);
  }

  // The CRT of bit-window w of x, in a basis of w.basisBits bits.
  Value windowCrt(Value x, const DecryptWindow &w) {
    auto crt = fhe::CrtOp::create(b, loc, coeff(basis(w.basisBits)), x);
    crt.setWindow(ArrayRef<int64_t>{w.offset, w.bits});
    return crt.getResult();
  }

  // A public function with role-named arguments and results at the end of
  // the module; the builder is left in its body.
  Block *function(llvm::StringRef name, llvm::ArrayRef<std::pair<Type, const char *>> args,
                  llvm::ArrayRef<std::pair<Type, const char *>> results) {
    SmallVector<Type> in, out;
    for (auto &[t, role] : args) in.push_back(t);
    for (auto &[t, role] : results) out.push_back(t);
    b.setInsertionPointToEnd(moduleBody);
    auto f = func::FuncOp::create(b, loc, name, b.getFunctionType(in, out));
    for (auto [i, a] : llvm::enumerate(args)) f.setArgAttr(i, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr(a.second));
    for (auto [i, r] : llvm::enumerate(results))
      f.setResultAttr(i, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr(r.second));
    Block *body = f.addEntryBlock();
    b.setInsertionPointToEnd(body);
    return body;
  }

  void ret(ArrayRef<Value> values) { func::ReturnOp::create(b, loc, values); }
};

} // namespace

std::vector<DecryptWindow> planDecryptWindows(unsigned logq, unsigned logH, unsigned primeBits) {
  int64_t extra = clientDecryptWindowBits(logH, 0);
  // The fewest primes whose product holds `bits` (each above 2^(primeBits - 1),
  // the target's primes just below 2^primeBits: m of them above 2^(m primeBits - 1)).
  auto primesFor = [&](int64_t bits) { return (bits + int64_t(primeBits)) / int64_t(primeBits); };
  std::vector<DecryptWindow> best;
  int64_t bestCost = std::numeric_limits<int64_t>::max();
  for (int64_t m = 1; m <= primesFor(extra + logq); ++m) {
    int64_t w = m * primeBits - 1 - extra;
    if (w < 1) continue;
    std::vector<DecryptWindow> plan;
    int64_t offset = 0, rows = 0, work = 0;
    for (; int64_t(logq) - offset > w; offset += w, rows += m, work += m * m)
      plan.push_back({offset, w, unsigned(w + extra)});
    int64_t rest = int64_t(logq) - offset, last = primesFor(rest + extra);
    // (A last window as wide in primes as full ones before it shares their
    // basis; a window alone asks for no more bits than it needs, which stay
    // within the key basis its secret is a prefix of.)
    bool share = !plan.empty() && last == m;
    plan.push_back({offset, rest, unsigned(share ? w + extra : rest + extra)});
    int64_t windows = int64_t(plan.size());
    int64_t cost = 29 * (rows + last) + work + last * last + 10 * windows;
    if (cost < bestCost) {
      bestCost = cost;
      best = std::move(plan);
    }
  }
  return best;
}

OwningOpRef<ModuleOp> buildClientKernels(MLIRContext &ctx, const rt::Params &params, const TargetSpec &target,
                                         const std::vector<int> &decryptLevels) {
  params.validate();
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
  // Decryption's windows hold for a secret of weight up to h (N for a
  // ternary secret) rounded up to a power of two.
  unsigned logH = llvm::Log2_64_Ceil(uint64_t(params.maxSecretWeight()));
  (*module)->setAttr(fhe::FHEDialect::getClientSecretWeightAttrName(),
                     IntegerAttr::get(IntegerType::get(&ctx, 64), int64_t(1) << logH));
  (*module)->setAttr(ckks::CKKSDialect::getParamsAttrName(),
                     ckks::paramsAttrOf(&ctx, params, StringAttr::get(&ctx, "none"), StringAttr()));
  std::set<int> levels(decryptLevels.begin(), decryptLevels.end());
  levels.insert(params.logQ);
  for (int l : levels)
    if (l < 1 || l > params.logQ)
      throw ProgramError(ProgramError::Kind::Parameter, "a decrypt kernel's modulus 2^" + std::to_string(l) +
                                                            " is outside [2, 2^logQ]");
  ClientKernelBuilder kb(*module, params, logH, target.primeBits);
  kb.prepareSecret();
  kb.preparePublic();
  kb.keyB();
  kb.encrypt();
  for (int l : levels) {
    std::vector<DecryptWindow> plan = planDecryptWindows(unsigned(l), logH, target.primeBits);
    kb.decrypt(l, plan);
    // Where the full decryption takes three windows or more, a narrow one
    // first (KernelArithmetic::decrypt falls back to the full one).
    if (plan.size() >= 3) kb.narrowDecrypt(l, plan.front());
  }
  return module;
}

std::vector<int> resultLevels(ModuleOp module) {
  std::set<int> levels;
  for (auto f : module.getOps<func::FuncOp>())
    if (f.isPublic())
      for (Type t : f.getResultTypes())
        if (auto ct = dyn_cast<ckks::CiphertextType>(t)) levels.insert(int(ct.getLogq()));
  return {levels.begin(), levels.end()};
}

std::unique_ptr<rt::CompiledModule> compileClientKernels(const rt::Params &params, CompileOptions options,
                                                         const std::vector<int> &decryptLevels) {
  // The client runs on the CPU whatever the server's target.
  if (const TargetSpec *t = lookupTarget(options.target); !t || t->gpu) options.target = "auto";
  std::string error;
  if (failed(resolveOptions(options, error))) throw ProgramError(ProgramError::Kind::Parameter, error);
  DialectRegistry registry;
  registerDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  DiagnosticCollector diags(ctx);
  OwningOpRef<ModuleOp> module = buildClientKernels(ctx, params, options.spec(), decryptLevels);
  return compileAndLoad(*module, options, diags);
}

} // namespace fhec
