#include "fhec/runtime/Module.h"
#include "fhec/runtime/CudaDriver.h"
#include "fhec/runtime/CpuFeatures.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Profile.h"
#include "fhec/runtime/Tables.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <cerrno>
#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <set>
#include <sstream>
#include <unistd.h>

namespace fhec::rt {

// ---- CompiledModule ---------------------------------------------------------

namespace {
// Compiled modules resolve the runtime's hooks (fhec_rt_phase_begin/end) in
// the global symbol scope. A host that loaded this library RTLD_LOCAL (as
// Python loads extension modules and their libraries) promotes it first.
void exposeRuntimeSymbols() {
  static const bool done = [] {
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&fhec_rt_phase_begin), &info) && info.dli_fname)
      dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    return true;
  }();
  (void)done;
}
} // namespace

std::unique_ptr<CompiledModule> CompiledModule::loadBytes(const std::string &bytes) {
  // An anonymous in-memory file (no temporary file to leave behind, and no
  // noexec /tmp to trip over), loaded through its /proc/self/fd path.
  int fd = memfd_create("fhec-module", MFD_CLOEXEC);
  if (fd < 0) throw Error("cannot create an in-memory file for a compiled module: " + std::string(std::strerror(errno)));
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      std::string why = n < 0 ? std::strerror(errno) : "short write";
      ::close(fd);
      throw Error("cannot write a compiled module to memory: " + why);
    }
    done += size_t(n);
  }
  try {
    auto mod = load("/proc/self/fd/" + std::to_string(fd));
    ::close(fd);  // the loaded library stays mapped
    return mod;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

std::unique_ptr<CompiledModule> CompiledModule::load(const std::string &path) {
  exposeRuntimeSymbols();
  std::unique_ptr<CompiledModule> mod(new CompiledModule());
  mod->path_ = path;
  mod->handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!mod->handle_) throw Error("cannot load compiled module '" + path + "': " + dlerror());
  auto *version = static_cast<const int32_t *>(dlsym(mod->handle_, abi::kAbiVersionSymbol));
  auto *manifest = static_cast<const char *>(dlsym(mod->handle_, abi::kManifestSymbol));
  if (!version || !manifest) throw Error("'" + path + "' is not an fhec module (no ABI symbols)");
  if (*version != int32_t(abi::kAbiVersion))
    throw Error("'" + path + "' was compiled for ABI version " + std::to_string(*version) +
                ", this runtime implements version " + std::to_string(abi::kAbiVersion));
  mod->manifest_ = parseManifest(manifest);
  std::vector<std::string> missing = missingCpuFeatures(mod->manifest_.cpuFeatures);
  if (!missing.empty()) {
    std::string list;
    for (const auto &f : missing) list += (list.empty() ? "" : ", ") + f;
    throw Error("'" + path + "' was compiled for the " + mod->manifest_.target + " target and needs " + list +
                ", which this CPU lacks; compile it with --target=cpu (or --target=auto)");
  }
  if (mod->manifest_.kernels == KernelPlace::Cuda) {
    std::string why = cudaUnavailableReason();
    if (!why.empty())
      throw Error("'" + path + "' was compiled for the cuda target and needs an NVIDIA GPU, but there is none here (" +
                  why + "); compile with --target=cuda-emu to run the same kernels on the CPU");
  }
  for (const auto &f : mod->manifest_.functions) {
    mod->entry(f);  // all entries must resolve, and every constant to as many words as the manifest says
    for (const auto &a : f.args)
      if (a.kind == ManifestArg::Kind::Constant && !mod->constants_.count(a.symbol)) {
        void *sym = dlsym(mod->handle_, a.symbol.c_str());
        Dl_info info;
        void *extra = nullptr;  // the symbol's ELF entry
        if (!sym || !dladdr1(sym, &info, &extra, RTLD_DL_SYMENT) || !extra ||
            static_cast<const ElfW(Sym) *>(extra)->st_size != uint64_t(a.words) * sizeof(uint64_t))
          throw Error("module '" + path + "' lacks the constant '" + a.symbol + "' of " + std::to_string(a.words) +
                      " words that its manifest names");
        mod->constants_[a.symbol] = static_cast<const uint64_t *>(sym);
      }
  }
  return mod;
}

CompiledModule::~CompiledModule() {
  if (handle_) dlclose(handle_);
}

bool CompiledModule::setThreads(int threads) const {
  auto *set = reinterpret_cast<void (*)(int)>(dlsym(handle_, "omp_set_num_threads"));
  if (!set) return false;
  set(threads < 1 ? 1 : threads);
  return true;
}

CompiledModule::EntryFn CompiledModule::entry(const ManifestFunction &f) const {
  void *sym = dlsym(handle_, f.entry.c_str());
  if (!sym) throw Error("module '" + path_ + "' lacks entry point '" + f.entry + "'");
  return reinterpret_cast<EntryFn>(sym);
}

// ---- Executor ---------------------------------------------------------------

Executor::Executor(const CompiledModule &module, const Params &params) : module_(module), params_(params) {
  params.validate();
  const Manifest &m = module.manifest();
  if (m.logN != params.logN || m.logQ != params.logQ || m.logp != params.logp || m.dnum != params.dnum ||
      m.secret != params.secret || (m.secret == SecretKind::Sparse && m.h != params.h))
    throw Error("module was compiled for logN=" + std::to_string(m.logN) + " logQ=" + std::to_string(m.logQ) +
                " logp=" + std::to_string(m.logp) + (m.dnum != 1 ? " dnum=" + std::to_string(m.dnum) : "") +
                " with a " + describeSecret(m.secret, m.h) + " secret, but the keys use " + params.str());
  device_ = deviceFor(m.kernels);
  int64_t ws = 0;
  for (const auto &f : m.functions) ws = std::max(ws, f.workspaceBytes);
  workspaceBytes_ = size_t((ws + 7) / 8) * sizeof(uint64_t);
  workspace_ = allocate(size_t((ws + 7) / 8));
  // All tables and constants up front: a call then only computes (and bad
  // tables fail here). Longest bases first, so that a per-prime table of a
  // shorter basis is the first rows of one built already (TableCache.h).
  std::vector<const ManifestArg *> tables;
  for (const auto &f : m.functions)
    for (const auto &a : f.args) {
      if (a.kind == ManifestArg::Kind::Table) tables.push_back(&a);
      if (a.kind == ManifestArg::Kind::Constant) argument(a);
    }
  std::stable_sort(tables.begin(), tables.end(), [&](const ManifestArg *x, const ManifestArg *y) {
    return m.bases.at(x->basis).size() > m.bases.at(y->basis).size();
  });
  for (const ManifestArg *a : tables) argument(*a);
  prepareConstants();
}

void Executor::prepareConstants() {
  const Manifest &m = module_.manifest();
  const ManifestFunction *prep = m.find(abi::kConstantsPrepareFunc);
  if (!prep) return;
  call(*prep, [&](const ManifestArg &a) -> CallData {
    if (a.kind != ManifestArg::Kind::Rns || !a.output || !abi::isConstantRole(a.role))
      throw Error(std::string("unexpected argument '") + a.role + "' in '" + abi::kConstantsPrepareFunc +
                  "': it must only return RNS values of roles const<k>");
    Prepared &p = constants_[a.role];
    p.value = allocateRns(a);
    p.basis = a.basis;
    return {p.value.address(), 0, true};
  });
  lastCall_ = {};
  // The device copies of the constants only the preparation read.
  std::set<std::string> usedElsewhere;
  for (const auto &f : m.functions)
    for (const auto &a : f.args)
      if (&f != prep && a.kind == ManifestArg::Kind::Constant) usedElsewhere.insert(a.symbol);
  for (const ManifestArg &a : prep->args)
    if (a.kind == ManifestArg::Kind::Constant && !usedElsewhere.count(a.symbol)) deviceConstants_.erase(a.symbol);
}

Executor::Prepared *Executor::prepared(const ManifestArg &a) {
  auto &values = abi::isConstantRole(a.role) ? constants_ : keys_;
  auto it = values.find(a.role);
  return it == values.end() || it->second.basis != a.basis ? nullptr : &it->second;
}

Executor::Resident Executor::allocate(size_t words) {
  Resident r;
  if (device_)
    r.device = DeviceBuffer(*device_, words * sizeof(uint64_t));
  else
    r.host = Buffer(words);
  return r;
}

Executor::Resident Executor::allocateRns(const ManifestArg &a) {
  // (m, N) prime-major rows of a.bits-bit residues, in whole 64-bit words.
  size_t residues = module_.manifest().bases.at(a.basis).size() * size_t(abi::rnsRowWords(params_.N()));
  return allocate((residues * size_t(a.bits) + 63) / 64);
}

const TableView &Executor::table(const ManifestArg &a) {
  auto key = std::make_tuple(int(a.table), a.basis, a.param);
  auto it = tables_.find(key);
  if (it != tables_.end()) return it->second;
  const Manifest &m = module_.manifest();
  return tables_.emplace(key, sharedTable(a.table, m.bases.at(a.basis), params_.logN, a.param, m.shoupBits))
      .first->second;
}

void *Executor::argument(const ManifestArg &a) {
  if (a.kind == ManifestArg::Kind::Workspace) return workspace_.address();
  if (a.kind == ManifestArg::Kind::Constant) {
    // The module's own words; a GPU's kernels read a copy on the device.
    const uint64_t *host = module_.constant(a);
    if (!device_) return const_cast<uint64_t *>(host);
    auto it = deviceConstants_.find(a.symbol);
    if (it == deviceConstants_.end()) {
      DeviceBuffer d(*device_, size_t(a.words) * sizeof(uint64_t));
      device_->copyToDevice(d.address(), host, d.bytes());
      it = deviceConstants_.emplace(a.symbol, std::move(d)).first;
    }
    return reinterpret_cast<void *>(it->second.address());
  }
  const TableView &host = table(a);
  if (!device_) return const_cast<uint64_t *>(host.data);
  // One device copy of each host table; a prefix view is its first rows.
  auto it = deviceTables_.find(host.owner.get());
  if (it == deviceTables_.end()) {
    const Buffer &whole = *host.owner;
    DeviceBuffer d(*device_, whole.size() * sizeof(uint64_t));
    device_->copyToDevice(d.address(), whole.data(), d.bytes());
    it = deviceTables_.emplace(&whole, std::move(d)).first;
  }
  return reinterpret_cast<void *>(it->second.address() + (host.data - host.owner->data()) * sizeof(uint64_t));
}

void Executor::prepareKey(const std::string &role, const BigPoly &key, const char *what) {
  if (key.logN != params_.logN || key.logq != params_.logKey())
    throw Error(std::string(what) + " does not match the module (expected logN " + std::to_string(params_.logN) +
                " and modulus 2^" + std::to_string(params_.logKey()) + ")");
  prepare(abi::kEvkPrepareFunc, role, key);
}

void Executor::prepare(const std::string &function, const std::string &role, const BigPoly &input, bool secret) {
  const Manifest &m = module_.manifest();
  const ManifestFunction *prep = m.find(function);
  if (!prep) throw Error("module has no function '" + function + "'");
  Resident out;
  int basis = -1;
  call(*prep, [&](const ManifestArg &a) -> CallData {
    if (a.kind == ManifestArg::Kind::Poly && !a.output) {
      if (a.logq != input.logq || input.logN != params_.logN)
        throw Error("'" + function + "' expects logN " + std::to_string(params_.logN) + " and modulus 2^" +
                    std::to_string(a.logq));
      return {const_cast<uint64_t *>(input.words.data()), input.words.size(), false};
    }
    if (a.kind == ManifestArg::Kind::Rns && a.output) {
      out = allocateRns(a);
      basis = a.basis;
      return {out.address(), 0, true};
    }
    throw Error("unexpected argument in '" + function + "': it must take one polynomial and return one RNS value");
  });
  drop(role);
  keys_[role] = {std::move(out), basis, secret};
}

void Executor::drop(const std::string &role) {
  auto it = keys_.find(role);
  if (it == keys_.end()) return;
  Resident &r = it->second.value;
  if (it->second.secret && r.host.data()) secureWipe(r.host.data(), r.host.size() * sizeof(uint64_t));
  keys_.erase(it);
}

void Executor::wipeWorkspace() {
  if (workspace_.host.data()) secureWipe(workspace_.host.data(), workspace_.host.size() * sizeof(uint64_t));
}

Executor::~Executor() {
  while (!keys_.empty()) drop(keys_.begin()->first);
}

// Each part of a key-switching key under its role (abi::keyPartRole): as
// many as the module's dnum.
void Executor::prepareKeyParts(const std::string &ax, const std::string &bx, const std::vector<BigPoly> &axParts,
                               const std::vector<BigPoly> &bxParts, const std::string &what) {
  const int dnum = module_.manifest().dnum;
  if (int(axParts.size()) != dnum || int(bxParts.size()) != dnum)
    throw Error("the " + what + " has " + std::to_string(axParts.size()) + " part(s), but the module switches keys in " +
                std::to_string(dnum) + " (dnum)");
  for (int j = 0; j < dnum; ++j) {
    prepareKey(abi::keyPartRole(ax, j), axParts[size_t(j)], what.c_str());
    prepareKey(abi::keyPartRole(bx, j), bxParts[size_t(j)], what.c_str());
  }
}

void Executor::setEvalKey(const EvalKey &evk) {
  // Keys of another key generation replace all keys set before.
  if (evk.keySet != keySet_)
    while (!keys_.empty()) drop(keys_.begin()->first);
  keySet_ = evk.keySet;
  if (!module_.manifest().find(abi::kEvkPrepareFunc)) return;  // no key switching in the module
  prepareKeyParts("evk.ax", "evk.bx", evk.ax, evk.bx, "evaluation key");
}

void Executor::setRotationKey(const RotationKey &rk) {
  if (keySet_.known() && !keys_.empty())
    checkSameKeySet(keySet_, "the keys set before", rk.keySet, "the rotation key");
  keySet_ = rk.keySet;
  if (!module_.manifest().find(abi::kEvkPrepareFunc)) return;
  std::string what = "rotation key of Galois element " + std::to_string(rk.galois);
  prepareKeyParts(abi::rotationKeyRole(rk.galois, false), abi::rotationKeyRole(rk.galois, true), rk.ax, rk.bx, what);
}

void Executor::setEncapsulationKey(const EncapsulationKey &ek) {
  if (keySet_.known() && !keys_.empty())
    checkSameKeySet(keySet_, "the keys set before", ek.keySet, "the encapsulation key");
  keySet_ = ek.keySet;
  const std::string prep = abi::encapsulationPrepareFunc(ek.logq0);
  if (!module_.manifest().find(prep)) return;  // no bootstrapping at this q0
  const int logKey = encapsulationKeyLogModulus(ek.logq0);
  const std::string what = "encapsulation key for q0 = 2^" + std::to_string(ek.logq0);
  if (ek.sparseAx.logN != params_.logN || ek.sparseAx.logq != logKey || ek.sparseBx.logq != logKey)
    throw Error("the " + what + " does not match the module (expected logN " + std::to_string(params_.logN) +
                " and modulus 2^" + std::to_string(logKey) + ")");
  prepare(prep, abi::encapsulationKeyRole(ek.logq0, false, false), ek.sparseAx);
  prepare(prep, abi::encapsulationKeyRole(ek.logq0, false, true), ek.sparseBx);
  prepareKeyParts(abi::encapsulationKeyRole(ek.logq0, true, false), abi::encapsulationKeyRole(ek.logq0, true, true),
                  ek.denseAx, ek.denseBx, what);
}

void Executor::setKeysFor(const ManifestFunction &f, const KeySet &keys) {
  if (keys.evk.ax.empty()) {
    if (module_.manifest().find(abi::kEvkPrepareFunc))
      throw Error("the program multiplies or rotates, and the keys lack the evaluation key it needs (a "
                  "public-only context encrypts; a server gets the evaluation key from the key owner)");
  } else {
    setEvalKey(keys.evk);
  }
  for (uint64_t g : f.galoisElements()) {
    auto it = keys.rotationKeys.find(g);
    if (it == keys.rotationKeys.end())
      throw Error("the keys lack the rotation key of Galois element " + std::to_string(g) + " that the program needs");
    setRotationKey(it->second);
  }
  for (int logq0 : f.encapsulationModuli()) {
    auto it = keys.encapsulationKeys.find(logq0);
    if (it == keys.encapsulationKeys.end())
      throw Error("the keys lack the encapsulation key for q0 = 2^" + std::to_string(logq0) +
                  " that the program's bootstrapping needs");
    setEncapsulationKey(it->second);
  }
}

std::vector<Ciphertext> Executor::run(const std::string &name, const std::vector<Ciphertext> &inputs,
                                      const std::vector<std::vector<Complex>> &plaintexts) {
  std::vector<Ciphertext> outputs;
  run(name, inputs, outputs, plaintexts);
  return outputs;
}

void Executor::run(const std::string &name, const std::vector<Ciphertext> &inputs,
                   std::vector<Ciphertext> &outputs, const std::vector<std::vector<Complex>> &plaintexts) {
  if (&inputs == &outputs) throw Error("'" + name + "': the outputs must not be the inputs");
  std::vector<CiphertextView> views;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Ciphertext &c = inputs[i];
    if (c.bx.logq != c.ax.logq || c.bx.logN != c.ax.logN)
      throw Error("'" + name + "' input " + std::to_string(i) + ": its ax and bx have different shapes");
    views.emplace_back(c);
  }
  run(name, views, outputs, plaintexts);
}

const ManifestFunction &Executor::function(const std::string &name) const {
  const ManifestFunction *f = module_.manifest().find(name);
  if (!f) throw Error("module has no function '" + name + "'");
  return *f;
}

void Executor::requireDevice(const std::string &function) const {
  if (!device_)
    throw Error("'" + function + "' runs on the host (a " + module_.manifest().target +
                " module): pass ciphertexts in host memory, not on a device");
}

KeySetId Executor::checkInputs(const std::string &function, const std::vector<CiphertextView> &inputs,
                               const std::vector<std::vector<Complex>> &plaintexts) const {
  const ManifestFunction &f = this->function(function);
  const std::string &name = f.name;
  if (inputs.size() != f.inputs.size())
    throw Error("'" + name + "' takes " + std::to_string(f.inputs.size()) + " ciphertexts, got " +
                std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto &want = f.inputs[i];
    const auto &c = inputs[i];
    if (c.logN != params_.logN || c.logq != want.logq || c.logp != want.logp || c.slots != want.slots)
      throw Error("'" + name + "' input " + std::to_string(i) + ": expected logN=" + std::to_string(params_.logN) +
                  " logq=" + std::to_string(want.logq) + " logp=" + std::to_string(want.logp) +
                  " slots=" + std::to_string(want.slots) + ", got logN=" + std::to_string(c.logN) +
                  " logq=" + std::to_string(c.logq) + " logp=" + std::to_string(c.logp) +
                  " slots=" + std::to_string(c.slots));
  }
  if (plaintexts.size() != f.plaintexts.size())
    throw Error("'" + name + "' takes " + std::to_string(f.plaintexts.size()) + " plaintext argument(s), got " +
                std::to_string(plaintexts.size()));
  for (size_t i = 0; i < plaintexts.size(); ++i)
    if (plaintexts[i].size() > size_t(f.plaintexts[i]))
      throw Error("'" + name + "' plaintext argument " + std::to_string(i) + ": " +
                  std::to_string(plaintexts[i].size()) + " values do not fit " + std::to_string(f.plaintexts[i]) +
                  " slots");
  // Every known key-set id among the inputs and the keys must agree.
  KeySetId keySet = keySet_;
  std::string keySetOwner = "the evaluation and rotation keys";
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].keySet.known()) continue;
    if (keySet.known())
      checkSameKeySet(keySet, keySetOwner, inputs[i].keySet, "'" + name + "' input " + std::to_string(i));
    else
      keySet = inputs[i].keySet, keySetOwner = "'" + name + "' input " + std::to_string(i);
  }
  return keySet;
}

KeySetId Executor::check(const ManifestFunction &f, const std::vector<CiphertextArg> &inputs,
                         const std::vector<std::vector<Complex>> &plaintexts, std::map<std::string, BigPoly> &encoded) {
  const std::string &name = f.name;
  std::vector<CiphertextView> types;
  for (const CiphertextArg &c : inputs) {
    CiphertextView t;
    t.logN = c.logN, t.logq = c.logq, t.logp = c.logp, t.slots = c.slots, t.keySet = c.keySet;
    types.push_back(t);
  }
  KeySetId keySet = checkInputs(name, types, plaintexts);
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!inputs[i].ax.data || !inputs[i].bx.data)
      throw Error("'" + name + "' input " + std::to_string(i) + " has no words");
  // Each plaintext use encoded at its scale and modulus (padded with zeros).
  for (const ManifestArg &a : f.args)
    if (auto use = abi::parsePlaintextRole(a.role); use && !a.output) {
      if (size_t(use->index) >= plaintexts.size() || use->logq != a.logq)
        throw Error("bad manifest role '" + a.role + "'");
      std::vector<Complex> z(size_t(f.plaintexts[use->index]), Complex(0));
      std::copy(plaintexts[use->index].begin(), plaintexts[use->index].end(), z.begin());
      if (use->negate)
        for (auto &x : z) x = -x;
      encoded[a.role] = encode(z, params_.logN, use->logScale, use->logq);
    }
  return keySet;
}

void Executor::run(const std::string &name, const std::vector<CiphertextView> &inputs,
                   std::vector<Ciphertext> &outputs, const std::vector<std::vector<Complex>> &plaintexts) {
  const ManifestFunction &f = function(name);
  std::vector<CiphertextArg> in;
  for (const CiphertextView &c : inputs) {
    size_t words = polyWords(c.logN, c.logq);
    // The kernel only reads its inputs; CallData's pointer is not const for its outputs' sake.
    in.push_back({c.logN, c.logq, c.logp, c.slots, c.keySet, {const_cast<uint64_t *>(c.ax), words, false},
                  {const_cast<uint64_t *>(c.bx), words, false}});
  }
  std::map<std::string, BigPoly> encoded;
  KeySetId keySet = check(f, in, plaintexts, encoded);
  outputs.resize(f.outputs.size());
  std::vector<CiphertextArg> out;
  for (size_t i = 0; i < outputs.size(); ++i) {
    Ciphertext &c = outputs[i];
    for (BigPoly *p : {&c.ax, &c.bx})
      if (p->logN != params_.logN || p->logq != f.outputs[i].logq || p->words.size() != p->N() * size_t(p->limbs()))
        *p = BigPoly::uninitialized(params_.logN, f.outputs[i].logq);
    c.logp = f.outputs[i].logp;
    c.slots = f.outputs[i].slots;
    c.keySet = keySet;
    out.push_back({c.logN(), c.logq(), c.logp, c.slots, keySet, {c.ax.words.data(), c.ax.words.size(), false},
                   {c.bx.words.data(), c.bx.words.size(), false}});
  }
  callCiphertexts(f, in, out, encoded);
}

void Executor::run(const std::string &name, const std::vector<const DeviceCiphertext *> &inputs,
                   std::vector<DeviceCiphertext> &outputs, const std::vector<std::vector<Complex>> &plaintexts) {
  const ManifestFunction &f = function(name);
  requireDevice(name);
  std::vector<CiphertextArg> in;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const DeviceCiphertext *c = inputs[i];
    if (!c || c->empty()) throw Error("'" + name + "' input " + std::to_string(i) + " has no words");
    if (c->place() != place())
      throw Error("'" + name + "' input " + std::to_string(i) + " is on another kind of device than the module's (" +
                  module_.manifest().target + ")");
    in.push_back({c->logN(), c->logq(), c->logp(), c->slots(), c->keySet,
                  {reinterpret_cast<void *>(c->ax()), 0, true}, {reinterpret_cast<void *>(c->bx()), 0, true}});
    for (const DeviceCiphertext &o : outputs)
      if (&o == c) throw Error("'" + name + "': the outputs must not be the inputs");
  }
  std::map<std::string, BigPoly> encoded;
  KeySetId keySet = check(f, in, plaintexts, encoded);
  outputs.resize(f.outputs.size());
  std::vector<CiphertextArg> out;
  for (size_t i = 0; i < outputs.size(); ++i) {
    DeviceCiphertext &c = outputs[i];
    const auto &t = f.outputs[i];
    if (c.empty() || c.place() != place() || c.logN() != params_.logN || c.logq() != t.logq || c.logp() != t.logp ||
        c.slots() != t.slots)
      c = DeviceCiphertext::allocate(place(), params_.logN, t.logq, t.logp, t.slots, keySet);
    c.keySet = keySet;
    out.push_back({c.logN(), c.logq(), c.logp(), c.slots(), keySet, {reinterpret_cast<void *>(c.ax()), 0, true},
                   {reinterpret_cast<void *>(c.bx()), 0, true}});
  }
  callCiphertexts(f, in, out, encoded);
}

void Executor::callCiphertexts(const ManifestFunction &f, const std::vector<CiphertextArg> &inputs,
                               const std::vector<CiphertextArg> &outputs, std::map<std::string, BigPoly> &encoded) {
  const std::string &name = f.name;
  // role "ct<i>.ax" -> the polynomial's words
  auto ctPart = [&](const ManifestArg &a) -> CallData {
    const std::string &role = a.role;
    auto dot = role.find('.');
    if (role.rfind("ct", 0) != 0 || dot == std::string::npos) throw Error("bad manifest role '" + role + "'");
    size_t idx = std::stoul(role.substr(2, dot - 2));
    std::string part = role.substr(dot + 1);
    const std::vector<CiphertextArg> &side = a.output ? outputs : inputs;
    if (idx >= side.size() || (part != "ax" && part != "bx")) throw Error("bad manifest role '" + role + "'");
    if (side[idx].logq != a.logq) throw Error("'" + name + "': argument " + role + " has the wrong modulus");
    return part == "ax" ? side[idx].ax : side[idx].bx;
  };
  call(f, [&](const ManifestArg &a) -> CallData {
    if (a.kind == ManifestArg::Kind::Rns) {
      Prepared *p = prepared(a);
      if (!p) {
        if (abi::isConstantRole(a.role))
          throw Error("'" + name + "' reads the prepared constant '" + a.role + "', which the module's " +
                      abi::kConstantsPrepareFunc + " does not compute");
        if (auto g = abi::rotationKeyGalois(a.role))
          throw Error("'" + name + "' needs the rotation key of Galois element " + std::to_string(*g) +
                      ": call setRotationKey first");
        if (auto q = abi::encapsulationKeyLogq(a.role))
          throw Error("'" + name + "' needs the encapsulation key for q0 = 2^" + std::to_string(*q) +
                      ": call setEncapsulationKey first");
        throw Error("'" + name + "' needs the evaluation key: call setEvalKey first");
      }
      return {p->value.address(), 0, true};
    }
    if (auto it = encoded.find(a.role); it != encoded.end() && !a.output)
      return {it->second.words.data(), it->second.words.size(), false};
    return ctPart(a);
  });
}

void Executor::call(const ManifestFunction &f, const std::function<CallData(const ManifestArg &)> &data) {
  const Transfers before = transfers();
  std::vector<void *> ptrs;
  std::vector<std::pair<DeviceBuffer *, void *>> copyBack;  // staged output -> its host words
  for (size_t i = 0; i < f.args.size(); ++i) {
    const ManifestArg &a = f.args[i];
    if (a.kind == ManifestArg::Kind::Table || a.kind == ManifestArg::Kind::Workspace ||
        a.kind == ManifestArg::Kind::Constant) {
      ptrs.push_back(argument(a));
      continue;
    }
    CallData d = data(a);
    if (!device_ || d.resident) {
      ptrs.push_back(d.data);
      continue;
    }
    // The argument's buffer on the device, allocated by the function's first call.
    DeviceBuffer &staged = staging_[{f.name, i}];
    if (staged.bytes() != d.words * sizeof(uint64_t)) staged = DeviceBuffer(*device_, d.words * sizeof(uint64_t));
    if (a.output)
      copyBack.push_back({&staged, d.data});
    else
      device_->copyToDevice(staged.address(), d.data, staged.bytes());
    ptrs.push_back(reinterpret_cast<void *>(staged.address()));
  }
  if (!device_) {
    module_.entry(f)(ptrs.data());
    lastCall_ = {};
    return;
  }
  // The device times the phases of its kernels while they are launched.
  struct RecorderScope {
    PhaseRecorder *previous;
    ~RecorderScope() { setPhaseRecorder(previous); }
  } scope{setPhaseRecorder(device_->phaseRecorder())};
  device_->beginCall(&f);
  module_.entry(f)(ptrs.data());
  for (auto [staged, host] : copyBack) device_->copyToHost(host, staged->address(), staged->bytes());
  device_->synchronize();
  lastCall_ = transfers() - before;
}

std::vector<BigPoly> Executor::runPolys(const std::string &name, const std::vector<BigPoly> &inputs) {
  std::vector<const BigPoly *> in;
  for (const BigPoly &p : inputs) in.push_back(&p);
  std::vector<BigPoly> outputs;
  runPolys(name, in, outputs);
  return outputs;
}

void Executor::runPolys(const std::string &name, const std::vector<const BigPoly *> &inputs,
                        std::vector<BigPoly> &outputs) {
  const ManifestFunction *f = module_.manifest().find(name);
  if (!f) throw Error("module has no function '" + name + "'");
  size_t ins = 0, outs = 0;
  for (const auto &a : f->args)
    if (a.kind == ManifestArg::Kind::Poly) {
      if (!a.output) {
        ++ins;
        continue;
      }
      if (outputs.size() <= outs) outputs.emplace_back();
      BigPoly &p = outputs[outs++];
      if (p.logN != params_.logN || p.logq != a.logq || p.words.size() != p.N() * size_t(p.limbs()))
        p = BigPoly::uninitialized(params_.logN, a.logq);
    }
  outputs.resize(outs);
  if (ins != inputs.size())
    throw Error("'" + name + "' takes " + std::to_string(ins) + " inputs, got " + std::to_string(inputs.size()));
  size_t in = 0, out = 0;
  call(*f, [&](const ManifestArg &a) -> CallData {
    if (a.kind == ManifestArg::Kind::Rns) {
      Prepared *p = prepared(a);
      if (!p) throw Error("'" + name + "' reads the prepared value '" + a.role + "', which was not prepared");
      return {p->value.address(), 0, true};
    }
    if (a.output) {
      BigPoly &p = outputs[out++];
      return {p.words.data(), p.words.size(), false};
    }
    const BigPoly &p = *inputs[in++];
    if (p.logq != a.logq || p.logN != params_.logN)
      throw Error("'" + name + "' input " + std::to_string(in - 1) + " has the wrong ring or modulus");
    return {const_cast<uint64_t *>(p.words.data()), p.words.size(), false};
  });
}

} // namespace fhec::rt
