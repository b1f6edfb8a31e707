#include "fhec/runtime/Client.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Modular.h"

#include <algorithm>
#include <cstring>

// Secret hygiene: the secret key's NTT form is a secret prepared value of the
// executor (wiped when replaced or released); the small polynomials built
// here from secrets (s, v, the errors, E = e + Q t) are wiped after the call.
// The workspace keeps the last call's intermediates until the next call
// overwrites them, and is wiped when the arithmetic is released.

namespace fhec::rt {

namespace {
// Small signed values as a polynomial mod 2^bits (one limb, bits <= 64),
// which the kernels read centered.
template <typename T> BigPoly smallPoly(const std::vector<T> &x, int logN, int bits) {
  BigPoly p(logN, bits);
  const uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  for (size_t i = 0; i < p.N(); ++i) p.words[i] = uint64_t(int64_t(x[i])) & mask;
  return p;
}

// a itself if a.logq = logq, else its coefficients (read as integers in
// [0, 2^a.logq)) mod 2^logq in `storage` (logq >= a.logq).
const BigPoly *widen(const BigPoly &a, int logq, BigPoly &storage) {
  if (a.logq == logq) return &a;
  storage = BigPoly(a.logN, logq);
  const int la = a.limbs(), lw = storage.limbs();
  for (size_t i = 0; i < a.N(); ++i) std::memcpy(storage.coeff(i), a.coeff(i), sizeof(uint64_t) * std::min(la, lw));
  return &storage;
}
} // namespace

KernelArithmetic::KernelArithmetic(const CompiledModule &module, const Params &params)
    : module_(module), params_(params), exec_(module, params) {
  const Manifest &m = module.manifest();
  for (const char *f : {abi::kClientPrepareSecret, abi::kClientPreparePublic, abi::kClientKeyB, abi::kClientEncrypt})
    if (!m.find(f))
      throw Error(std::string("the module holds no client kernels (no '") + f +
                  "'): compile them with `fhec --emit=client` or codegen's compileClientKernels");
  const std::string prefix = abi::kClientDecryptPrefix;
  for (const auto &f : m.functions)
    if (f.name.rfind(prefix, 0) == 0) decryptLevels_.push_back(std::stoi(f.name.substr(prefix.size())));
  std::sort(decryptLevels_.begin(), decryptLevels_.end());
  if (decryptLevels_.empty() || decryptLevels_.back() < params.logQ)
    throw Error("the client module has no decrypt kernel for logq = " + std::to_string(params.logQ));
  // Narrow decryption: its width is its result m's, its check's prime the
  // one-prime basis its tables are for (every basis is a prefix of one
  // prime sequence), b its result "check"'s width.
  const std::string narrow = abi::kClientNarrowDecryptPrefix;
  for (const auto &f : m.functions) {
    if (f.name.rfind(narrow, 0) != 0) continue;
    Narrow n;
    for (const ManifestArg &a : f.args) {
      if (a.output && a.role == "m") n.width = a.logq;
      if (a.output && a.role == "check") n.checkBits = a.logq;
      if (a.kind == ManifestArg::Kind::Table && a.basis >= 0 && size_t(a.basis) < m.bases.size() &&
          m.bases[size_t(a.basis)].size() == 1)
        n.prime = m.bases[size_t(a.basis)][0];
    }
    const std::string level = f.name.substr(narrow.size());
    if (level.empty() || level.size() > 6 || level.find_first_not_of("0123456789") != std::string::npos ||
        n.width < 1 || n.checkBits < 1 || n.checkBits > 62 || n.prime >> n.checkBits != 1)
      throw Error("the client module's " + f.name +
                  " lacks a level, its result m, its check or a check prime in (2^b, 2^(b+1))");
    narrow_[std::stoi(level)] = n;
  }
  if (m.clientSecretWeight && params.maxSecretWeight() > size_t(m.clientSecretWeight))
    throw Error("the client kernels decrypt with secrets of Hamming weight up to " +
                std::to_string(m.clientSecretWeight) + ", but the parameters' " +
                describeSecret(params.secret, params.h) + " secret may have " +
                std::to_string(params.maxSecretWeight()) + ": compile them for these parameters");
}

KernelArithmetic::~KernelArithmetic() { exec_.wipeWorkspace(); }

void KernelArithmetic::checkParams(const Params &params) const {
  if (!(params == params_))
    throw Error("the client kernels were compiled for " + params_.str() + ", not " + params.str());
}

void KernelArithmetic::useSecret(const SecretKey &sk) {
  if (sk.s.size() != params_.N()) throw Error("the secret key does not match " + params_.str());
  // The decrypt kernels' bases hold for |s|_1 up to the parameters' largest
  // weight (h, or N for a ternary secret).
  int64_t weight = 0;
  for (int8_t c : sk.s) weight += c < 0 ? -int64_t(c) : int64_t(c);
  if (uint64_t(weight) > params_.maxSecretWeight())
    throw Error("the secret key has Hamming weight " + std::to_string(weight) + ", above the " +
                std::to_string(params_.maxSecretWeight()) + " of the parameters' " +
                describeSecret(params_.secret, params_.h) + " secret");
  if (secretReady_ && sk.keySet.known() && sk.keySet == secretKeySet_) return;
  secretWeight_ = uint64_t(weight);
  BigPoly s = smallPoly(sk.s, params_.logN, 2);
  exec_.prepare(abi::kClientPrepareSecret, "sk", s, /*secret=*/true);
  secureWipe(s.words);
  secretKeySet_ = sk.keySet;
  secretReady_ = true;
}

void KernelArithmetic::usePublic(const PublicKey &pk) {
  if (publicReady_ && pk.keySet.known() && pk.keySet == publicKeySet_) return;
  if (pk.ax.logN != params_.logN || pk.ax.logq != params_.logKey() || pk.bx.logq != params_.logKey())
    throw Error("the public key does not match " + params_.str());
  // The encryption kernel takes each polynomial as halves pk = hi P + lo
  // (hi below Q, lo below P <= Q, widened to the kernel's Q).
  for (auto [poly, name] : {std::pair{&pk.ax, "pk.ax"}, std::pair{&pk.bx, "pk.bx"}}) {
    exec_.prepare(abi::kClientPreparePublic, std::string(name) + ".hi", shiftRight(*poly, params_.logP()));
    BigPoly lo = reduce(*poly, params_.logP()), wide;
    exec_.prepare(abi::kClientPreparePublic, std::string(name) + ".lo", *widen(lo, params_.logQ, wide));
  }
  publicKeySet_ = pk.keySet;
  publicReady_ = true;
}

BigPoly KernelArithmetic::keyB(const Params &params, const SecretKey &sk, const BigPoly &a,
                               const std::vector<int64_t> &e, const std::vector<int64_t> &t, int tShift) {
  checkParams(params);
  std::lock_guard<std::mutex> lock(mu_);
  useSecret(sk);
  BigPoly E(params.logN, params.logKey());
  addSmallShifted(E, e, 0);
  if (!t.empty()) addSmallShifted(E, t, tShift);
  std::vector<BigPoly> out;
  exec_.runPolys(abi::kClientKeyB, {&a, &E}, out);
  secureWipe(E.words);
  return std::move(out.at(0));
}

std::pair<BigPoly, BigPoly> KernelArithmetic::encrypt(const Params &params, const PublicKey &pk,
                                                      const std::vector<int8_t> &v, const std::vector<int64_t> &e0,
                                                      const std::vector<int64_t> &e1, const BigPoly &m) {
  checkParams(params);
  std::lock_guard<std::mutex> lock(mu_);
  usePublic(pk);
  BigPoly vp = smallPoly(v, params.logN, 2), e0p = smallPoly(e0, params.logN, abi::kClientErrorBits),
          e1p = smallPoly(e1, params.logN, abi::kClientErrorBits);
  // The kernel works mod Q; results mod q are those reduced (q | Q).
  BigPoly wide;
  const BigPoly *mQ = widen(m, params.logQ, wide);
  std::vector<BigPoly> out;
  exec_.runPolys(abi::kClientEncrypt, {&vp, &e0p, &e1p, mQ}, out);
  for (BigPoly *p : {&vp, &e0p, &e1p, &wide}) secureWipe(p->words);
  if (m.logq == params.logQ) return {std::move(out.at(0)), std::move(out.at(1))};
  return {reduce(out.at(0), m.logq), reduce(out.at(1), m.logq)};
}

BigPoly KernelArithmetic::decrypt(const SecretKey &sk, const Ciphertext &ct) {
  BigPoly m = decryptMessage(sk, ct);
  return m.logq < ct.logq() ? signExtend(m, ct.logq()) : m;
}

BigPoly KernelArithmetic::decryptMessage(const SecretKey &sk, const Ciphertext &ct) {
  auto level = std::lower_bound(decryptLevels_.begin(), decryptLevels_.end(), ct.logq());
  if (level == decryptLevels_.end())
    throw Error("decrypt: the ciphertext's modulus 2^" + std::to_string(ct.logq()) + " is above the parameters' Q");
  std::lock_guard<std::mutex> lock(mu_);
  useSecret(sk);
  BigPoly wa, wb;
  const BigPoly *ax = widen(ct.ax, *level, wa), *bx = widen(ct.bx, *level, wb);
  std::vector<BigPoly> out;
  if (auto n = narrow_.find(*level); n != narrow_.end() && n->second.width < ct.logq()) {
    exec_.runPolys(abi::clientNarrowDecryptFunc(*level), {ax, bx}, out);
    if (narrowHolds(n->second, out.at(1), ct.logq())) return std::move(out.at(0));
  }
  exec_.runPolys(abi::clientDecryptFunc(*level), {ax, bx}, out);
  if (*level == ct.logq()) return std::move(out.at(0));
  return reduce(out.at(0), ct.logq());
}

bool KernelArithmetic::narrowHolds(const Narrow &n, const BigPoly &check, int logq) const {
  // t = r 2^-logq mod p (Shoup's product with a constant), accepted for
  // t in [0, w + 1] or [p - w, p), w the weight of the secret in use, for
  // either reading of r mod 2^b.
  const uint64_t p = n.prime, above = secretWeight_ + 1, below = secretWeight_;
  const uint64_t inv = powMod((p + 1) / 2, uint64_t(logq), p);  // (2^-1)^logq
  const uint64_t invShoup = shoupPrecompute(inv, p);
  auto allowed = [&](uint64_t u) {  // u in [0, p)
    uint64_t t = mulModShoup(u, inv, invShoup, p);
    return t <= above || p - t <= below;
  };
  // r in (-p/2, p/2) comes as u = r mod 2^b: r is u or u - 2^b (p > 2^b > u).
  const uint64_t wrap = p - (uint64_t(1) << n.checkBits);
  for (uint64_t u : check.words)
    if (!allowed(u) && !allowed(u + wrap)) return false;
  return true;
}

} // namespace fhec::rt
