// fhec._fhec: the pybind11 extension under the Python package. A thin layer
// over frontend/ProgramBuilder.h (tracing), frontend/Program.h (compiling,
// executing, the reference) and the runtime (parameters, keys, encryption,
// serialization). Heavy calls release the GIL. C++ errors become the classes
// of fhec.errors (ProgramError kinds, rt::Error as FhecError).
#include "python/src/Bindings.h"
#include "codegen/ClientKernels.h"
#include "frontend/Program.h"
#include "frontend/ProgramBuilder.h"
#include "target/Target.h"

#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Client.h"
#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Security.h"
#include "fhec/runtime/Serialize.h"

#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

using namespace fhec;
using namespace fhec::python;

namespace {

[[noreturn]] void raise(const char *cls, const char *what) {
  py::object type = py::module_::import("fhec.errors").attr(cls);
  PyErr_SetString(type.ptr(), what);
  throw py::error_already_set();
}

const char *className(ProgramError::Kind k) {
  switch (k) {
  case ProgramError::Kind::Compile: return "CompileError";
  case ProgramError::Kind::Depth: return "DepthError";
  case ProgramError::Kind::Security: return "SecurityError";
  case ProgramError::Kind::Parameter: return "ParameterError";
  }
  return "FhecError";
}


// The client kernels of (params, target), compiled once per process.
struct ClientKernels {
  std::unique_ptr<rt::CompiledModule> module;
  std::unique_ptr<rt::KernelArithmetic> arith;
};

std::shared_ptr<ClientKernels> clientKernels(const rt::Params &p, const std::string &target) {
  static std::mutex mu;
  static std::map<std::pair<std::string, std::string>, std::shared_ptr<ClientKernels>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto &k = cache[{p.str(), target}];
  if (!k) {
    auto made = std::make_shared<ClientKernels>();
    CompileOptions o;
    o.target = target;
    made->module = compileClientKernels(p, o);
    made->arith = std::make_unique<rt::KernelArithmetic>(*made->module, p);
    k = made;
  }
  return k;
}

rt::ClientArithmetic &arithOf(const std::shared_ptr<ClientKernels> &k) {
  return k ? static_cast<rt::ClientArithmetic &>(*k->arith) : rt::gmpArithmetic();
}

bool hasSecret(const rt::KeySet &k) { return !k.sk.s.empty(); }
bool hasPublic(const rt::KeySet &k) { return !k.pk.ax.words.empty(); }
bool hasEval(const rt::KeySet &k) { return !k.evk.ax.empty(); }

/// The ids (Galois elements, q0 bits) of a KeySet's rotation or encapsulation keys.
template <typename Map> std::vector<typename Map::key_type> idsOf(const Map &keys) {
  std::vector<typename Map::key_type> ids;
  for (const auto &entry : keys) ids.push_back(entry.first);
  return ids;
}

/// Adds keys[id], made by generate(rng) without the GIL, unless present;
/// Error naming `what` when there is no secret key to make it.
template <typename Map, typename Generate>
void addKey(const rt::KeySet &k, Map &keys, typename Map::key_type id, const std::string &what, Generate generate) {
  if (keys.count(id)) return;
  if (!hasSecret(k))
    throw rt::Error(what + " is missing, and these keys have no secret key to make it: the key owner makes it "
                           "(Context.keys_for) and sends it");
  rt::SecureRandom rng;
  typename Map::mapped_type key;
  {
    py::gil_scoped_release nogil;
    key = generate(rng);
  }
  keys[id] = std::move(key);
}

// The key set id all present parts share (they must agree).
rt::KeySetId keySetOf(const rt::KeySet &k) {
  if (hasSecret(k)) return k.sk.keySet;
  if (hasPublic(k)) return k.pk.keySet;
  if (hasEval(k)) return k.evk.keySet;
  for (const auto &[g, rk] : k.rotationKeys) return rk.keySet;
  for (const auto &[q0, ek] : k.encapsulationKeys) return ek.keySet;
  return {};
}


// The bytes of a contiguous buffer (bytes, bytearray, a NumPy array); valid
// while `info` (which holds the buffer) lives.
std::string_view viewOf(const py::buffer_info &info) {
  for (size_t i = info.ndim; i-- > 0;) {
    py::ssize_t want = i + 1 == size_t(info.ndim) ? info.itemsize : info.strides[i + 1] * info.shape[i + 1];
    if (info.strides[i] != want) throw py::value_error("serialized bytes must be a contiguous buffer");
  }
  return {static_cast<const char *>(info.ptr), size_t(info.size * info.itemsize)};
}


// Maps ProgramError to the fhec exception of its kind and rt::Error to FhecError.
void bindErrors(py::module_ &m) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ProgramError &e) {
      raise(className(e.kind()), e.what());
    } catch (const rt::Error &e) {
      raise("FhecError", e.what());
    }
  });
}

// fhec.Params: CKKS parameters and their security estimate.
void bindParams(py::module_ &m) {
  py::class_<rt::Params>(m, "Params", "CKKS parameters: N = 2^logN, top modulus 2^logQ, scale 2^logp (bits)")
      .def(py::init([](int logN, int logQ, int logp, const std::string &secret, int h, double sigma, int dnum) {
             rt::Params p;
             p.logN = logN;
             p.logQ = logQ;
             p.logp = logp;
             if (!rt::parseSecretKind(secret, p.secret))
               throw rt::Error("secret = '" + secret + "' is not a secret distribution: expected 'ternary' or 'sparse'");
             p.h = h;
             p.sigma = sigma;
             p.dnum = dnum;
             p.validate();
             return p;
           }),
           py::arg("logN"), py::arg("logQ"), py::arg("logp"), py::arg("secret") = "ternary", py::arg("h") = 0,
           py::arg("sigma") = 3.2, py::arg("dnum") = 1)
      .def_readonly("logN", &rt::Params::logN)
      .def_readonly("logQ", &rt::Params::logQ)
      .def_readonly("logp", &rt::Params::logp)
      .def_readonly("h", &rt::Params::h)
      .def_property_readonly("secret", [](const rt::Params &p) { return std::string(rt::secretKindName(p.secret)); })
      .def_readonly("sigma", &rt::Params::sigma)
      .def_readonly("dnum", &rt::Params::dnum)
      .def_property_readonly("logP", &rt::Params::logP)
      .def("__eq__", [](const rt::Params &a, const rt::Params &b) { return a == b; })
      .def("__repr__", &rt::Params::str)
      .def("security_estimate",
           [](const rt::Params &p) {
             rt::SecurityEstimate e = rt::estimateSecurity(p.logN, p.logKey(), p.secret, p.h, p.sigma);
             return py::make_tuple(e.bits, e.str(), e.grants(128), e.grants(192), e.grants(256));
           },
           "(bits, text, grants 128, 192, 256): the estimate for keys mod P Q with this secret "
           "(fhec/runtime/Security.h, docs/security.md)");
}

// Ciphertexts and the client kernels.
void bindCiphertexts(py::module_ &m) {
  py::class_<rt::Ciphertext>(m, "Ciphertext", "A CKKS ciphertext (ax, bx) mod 2^logq")
      .def_property_readonly("logN", &rt::Ciphertext::logN)
      .def_property_readonly("logq", &rt::Ciphertext::logq)
      .def_readonly("logp", &rt::Ciphertext::logp)
      .def_readonly("slots", &rt::Ciphertext::slots)
      .def_property_readonly("key_set", [](const rt::Ciphertext &c) { return c.keySet.str(); })
      .def("__eq__", [](const rt::Ciphertext &a, const rt::Ciphertext &b) { return a == b; })
      .def("to_bytes", [](const rt::Ciphertext &c, const rt::Params &p) { return py::bytes(rt::serialize(p, c)); })
      .def(
          "wire", [](py::object self) { return wireOf(self.cast<const rt::Ciphertext &>(), self); },
          "(logq, logp, slots, key set lo, hi, ax words, bx words): fhec.ray's transport, NumPy views (no copy)")
      .def_static("from_wire", &fromWire, py::arg("wire"), py::arg("params"),
                  "The ciphertext of a wire tuple (a copy), checked like a file: FhecError if malformed")
      .def_static(
          "from_bytes", [](const py::buffer &b, const rt::Params &p) { return rt::deserializeCiphertext(viewOf(b.request()), p); },
          "Reads Ciphertext.to_bytes' output from any contiguous buffer (bytes, a NumPy uint8 array), without a copy");

  py::class_<ClientKernels, std::shared_ptr<ClientKernels>>(
      m, "ClientKernels", "The client kernels of one parameter set and CPU target (key generation, encryption, "
                          "decryption through NTT products), compiled once per process")
      .def_property_readonly("target", [](const ClientKernels &k) { return k.module->manifest().target; })
      .def("set_threads", [](const ClientKernels &k, int t) { k.module->setThreads(t); }, py::arg("threads"));
  m.def(
      "client_kernels",
      [](const rt::Params &p, const std::string &target) {
        py::gil_scoped_release nogil;
        return clientKernels(p, target);
      },
      py::arg("params"), py::arg("target") = "auto");
}

// One serialized part of a key set (KeySet.to_bytes).
py::bytes keySetPart(const rt::KeySet &k, const std::string &what, uint64_t g) {
  if (what == "params") return rt::serialize(k.params);
  if (what == "sk") {
    if (!hasSecret(k)) throw rt::Error("these keys have no secret key");
    return rt::serialize(k.params, k.sk);
  }
  if (what == "pk") {
    if (!hasPublic(k)) throw rt::Error("these keys have no public key");
    return rt::serialize(k.params, k.pk);
  }
  if (what == "evk") {
    if (!hasEval(k)) throw rt::Error("these keys have no evaluation key");
    return rt::serialize(k.params, k.evk);
  }
  if (what == "rk") {
    auto it = k.rotationKeys.find(g);
    if (it == k.rotationKeys.end()) throw rt::Error("no rotation key of Galois element " + std::to_string(g));
    return rt::serialize(k.params, it->second);
  }
  if (what == "ek") {
    auto it = k.encapsulationKeys.find(int(g));
    if (it == k.encapsulationKeys.end())
      throw rt::Error("no encapsulation key for q0 = 2^" + std::to_string(g));
    return rt::serialize(k.params, it->second);
  }
  throw rt::Error("unknown key part '" + what + "'");
}

// Keys from serialized parts, all checked to be of one key set (KeySet.from_parts).
rt::KeySet keySetFromParts(const py::bytes &params, std::optional<py::bytes> sk, std::optional<py::bytes> pk,
                           std::optional<py::bytes> evk, const std::vector<py::bytes> &rks,
                           const std::vector<std::string> &names, const std::vector<py::bytes> &eks) {
  rt::KeySet k;
  k.params = rt::deserializeParams(std::string(params));
  // Every part must belong to the key set of the first one read.
  rt::KeySetId id;
  std::string owner;
  auto same = [&](const rt::KeySetId &got, const std::string &what) {
    if (!id.known()) {
      id = got;
      owner = what;
      return;
    }
    rt::checkSameKeySet(id, owner, got, what);
  };
  size_t n = 0;
  auto name = [&](const char *fallback) { return n < names.size() && !names[n].empty() ? names[n] : fallback; };
  if (sk) {
    std::string b(*sk);
    k.sk = rt::deserializeSecretKey(b, k.params);
    rt::secureWipe(b.data(), b.size());
    same(k.sk.keySet, name("the secret key"));
  }
  ++n;
  if (pk) {
    k.pk = rt::deserializePublicKey(std::string(*pk), k.params);
    same(k.pk.keySet, name("the public key"));
  }
  ++n;
  if (evk) {
    k.evk = rt::deserializeEvalKey(std::string(*evk), k.params);
    same(k.evk.keySet, name("the evaluation key"));
  }
  ++n;
  for (const auto &b : rks) {
    rt::RotationKey rk = rt::deserializeRotationKey(std::string(b), k.params);
    same(rk.keySet, name("a rotation key"));
    ++n;
    k.rotationKeys[rk.galois] = std::move(rk);
  }
  for (const auto &b : eks) {
    rt::EncapsulationKey ek = rt::deserializeEncapsulationKey(std::string(b), k.params);
    same(ek.keySet, name("an encapsulation key"));
    ++n;
    k.encapsulationKeys[ek.logq0] = std::move(ek);
  }
  return k;
}

// fhec.KeySet: key generation, the keys a party holds, their serialization.
void bindKeySet(py::module_ &m) {
  py::class_<rt::KeySet>(m, "KeySet", "The keys of one key generation that a party holds (any of secret, public, "
                                      "evaluation and rotation keys)")
      .def(py::init([](const rt::Params &p, const std::shared_ptr<ClientKernels> &k) {
             rt::SecureRandom rng;
             py::gil_scoped_release nogil;
             return rt::generateKeys(p, rng, arithOf(k));
           }),
           py::arg("params"), py::arg("kernels") = nullptr,
           "Generates sk (HWT(h)), pk and evk from the CSPRNG, the products through `kernels` (None: GMP)")
      .def_property_readonly("params", [](const rt::KeySet &k) { return k.params; })
      .def_property_readonly("key_set", [](const rt::KeySet &k) { return keySetOf(k).str(); })
      .def_property_readonly("has_secret_key", &hasSecret)
      .def_property_readonly("has_public_key", &hasPublic)
      .def_property_readonly("has_evaluation_key", &hasEval)
      .def_property_readonly("galois_elements", [](const rt::KeySet &k) { return idsOf(k.rotationKeys); })
      .def(
          "add_rotation_key",
          [](rt::KeySet &k, uint64_t g, const std::shared_ptr<ClientKernels> &kernels) {
            addKey(k, k.rotationKeys, g, "the rotation key of Galois element " + std::to_string(g),
                   [&](rt::SecureRandom &rng) {
                     return rt::generateRotationKey(k.params, k.sk, g, rng, arithOf(kernels));
                   });
          },
          py::arg("galois"), py::arg("kernels") = nullptr, "Generates the rotation key of Galois element g unless present")
      .def_property_readonly("encapsulation_moduli", [](const rt::KeySet &k) { return idsOf(k.encapsulationKeys); })
      .def(
          "add_encapsulation_key",
          [](rt::KeySet &k, int q0, const std::shared_ptr<ClientKernels> &kernels) {
            addKey(k, k.encapsulationKeys, q0, "the encapsulation key for q0 = 2^" + std::to_string(q0),
                   [&](rt::SecureRandom &rng) {
                     return rt::generateEncapsulationKey(k.params, k.sk, q0, rng, arithOf(kernels));
                   });
          },
          py::arg("q0"), py::arg("kernels") = nullptr,
          "Generates the sparse-secret encapsulation keys of bootstrapping at q0 = 2^q0 unless present")
      .def(
          "without",
          [](const rt::KeySet &k, bool secret, bool eval) {
            rt::KeySet out;
            out.params = k.params;
            if (!secret) out.sk = k.sk;
            out.pk = k.pk;
            if (!eval) {
              out.evk = k.evk;
              out.rotationKeys = k.rotationKeys;
              out.encapsulationKeys = k.encapsulationKeys;
            }
            return out;
          },
          py::arg("secret"), py::arg("evaluation"), "A copy without the secret key and/or the evaluation keys")
      .def("to_bytes", &keySetPart, py::arg("what"), py::arg("galois") = 0,
           "fhec's versioned serialization of one part: params, sk, pk, evk, rk (of Galois element `galois`) or ek "
           "(of q0 = 2^`galois`)")
      .def_static("from_parts", &keySetFromParts, py::arg("params"), py::arg("sk"), py::arg("pk"), py::arg("evk"),
                  py::arg("rotation_keys"), py::arg("names") = std::vector<std::string>{},
                  py::arg("encapsulation_keys") = std::vector<py::bytes>{},
                  "Keys from serialized parts (None where absent), all checked to be of one key set; `names` (sk, "
                  "pk, evk, then each rotation key, then each encapsulation key) name them in errors");
}

// Module-level functions: compilation helpers, targets, Galois elements.
void bindFunctions(py::module_ &m) {
  m.def(
      "write_file",
      [](const std::string &path, const py::bytes &data, bool secret) {
        std::string b(data);
        rt::writeFile(path, b, secret);
        if (secret) rt::secureWipe(b.data(), b.size());
      },
      py::arg("path"), py::arg("data"), py::arg("secret") = false,
      "Writes bytes to path (replacing it); secret: mode 0600 whatever the umask (Serialize.h)");
  m.def(
      "encrypt",
      [](const rt::KeySet &k, const py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast> &values,
         int logp, int logq, const std::shared_ptr<ClientKernels> &kernels) {
        if (!hasPublic(k)) throw rt::Error("these keys have no public key: encryption needs one");
        std::vector<rt::Complex> z = toComplex(values);
        rt::SecureRandom rng;
        py::gil_scoped_release nogil;
        rt::BigPoly m = rt::encode(z, k.params.logN, logp, logq);
        return rt::encrypt(k.params, k.pk, m, logp, int(z.size()), rng, arithOf(kernels));
      },
      py::arg("keys"), py::arg("values"), py::arg("logp"), py::arg("logq"), py::arg("kernels") = nullptr,
      "Encodes (canonical embedding, scale 2^logp) and encrypts len(values) slots mod 2^logq");
  m.def(
      "decrypt",
      [](const rt::KeySet &k, const rt::Ciphertext &c, const std::shared_ptr<ClientKernels> &kernels) {
        if (!hasSecret(k)) throw rt::Error("these keys have no secret key: decryption needs it");
        std::vector<rt::Complex> z;
        {
          py::gil_scoped_release nogil;
          z = rt::decode(rt::decryptMessage(k.sk, c, arithOf(kernels)), c.slots, c.logp);
        }
        return toArray(z);
      },
      py::arg("keys"), py::arg("ciphertext"), py::arg("kernels") = nullptr,
      "Decrypts and decodes: a complex128 array of the slots");
  m.def("targets_json", &targetsJson,
        "Every target as JSON (target/Target.h): name, cpu_features, gpu, emulated, word_bits, missing_here");
  m.def("galois_for_rotation", &rt::galoisForRotation, py::arg("logN"), py::arg("r"));
  m.def("galois_for_conjugation", &rt::galoisForConjugation, py::arg("logN"));
}

} // namespace

PYBIND11_MODULE(_fhec, m) {
  m.doc() = "fhec's C++ core: tracing, compiling and running CKKS programs (see the fhec package)";
  bindErrors(m);
  bindParams(m);
  bindCiphertexts(m);
  bindKeySet(m);
  bindFunctions(m);
  bindProgram(m);
  bindExecutors(m);
  bindProgramBuilder(m);
}
