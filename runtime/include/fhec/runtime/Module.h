// Loading a compiled fhec module (a shared library) and calling its functions
// through the versioned C ABI of Abi.h: each function `f` is reached through
// `void __fhec_entry_f(void **args)`, one pointer per argument in the order the
// module's manifest lists (tables, inputs, outputs).
#pragma once
#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Buffer.h"
#include "fhec/runtime/Ciphertext.h"
#include "fhec/runtime/Device.h"
#include "fhec/runtime/DeviceCiphertext.h"
#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Manifest.h"
#include "fhec/runtime/Params.h"
#include "fhec/runtime/TableCache.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace fhec::rt {


class CompiledModule {
public:
  /// dlopens `path`, checks the ABI version, parses the manifest and checks
  /// that this CPU has the features the code needs (never runs code it
  /// cannot: a cpu-avx512 module is refused on a CPU without IFMA). Throws Error.
  static std::unique_ptr<CompiledModule> load(const std::string &path);
  /// The same for a module's bytes (a shared library shipped to another
  /// process or machine, e.g. a Ray worker), through an in-memory file
  /// (memfd). Throws Error.
  static std::unique_ptr<CompiledModule> loadBytes(const std::string &bytes);
  ~CompiledModule();
  const Manifest &manifest() const { return manifest_; }
  using EntryFn = void (*)(void **);
  EntryFn entry(const ManifestFunction &f) const;
  /// The words of a constant argument (an encoded plaintext) in the module's
  /// own memory, found when the module was loaded.
  const uint64_t *constant(const ManifestArg &a) const { return constants_.at(a.symbol); }
  /// Sets the number of threads the module's parallel loops use (OpenMP);
  /// returns false when the module has no threaded code.
  bool setThreads(int threads) const;

private:
  CompiledModule() = default;
  void *handle_ = nullptr;
  Manifest manifest_;
  std::map<std::string, const uint64_t *> constants_;  ///< by symbol
  std::string path_;
};

/// Runs the functions of one module on ciphertexts: builds the tables the
/// manifest asks for and allocates the workspace (once), holds the evaluation
/// key in the module's RNS/NTT form, checks every input against the
/// function's signature. A call allocates nothing but its outputs. For the
/// GPU targets tables, keys and workspace live in the device's memory (copied
/// there once); a call on host ciphertexts copies its inputs in and its
/// outputs back, through device buffers allocated by each function's first
/// call, and a call on DeviceCiphertexts copies nothing.
class Executor {
public:
  /// Throws Error if the module was compiled for other parameters, or for a
  /// GPU that is not there.
  Executor(const CompiledModule &module, const Params &params);
  /// Bytes of the workspace shared by the module's functions.
  size_t workspaceBytes() const { return workspaceBytes_; }
  /// Derives the evaluation key's RNS/NTT form with the module's own kernels.
  /// A key of another key set than the keys set before replaces them all.
  void setEvalKey(const EvalKey &evk);
  /// Likewise for the rotation key of one Galois element (several may be set).
  /// Throws Error if it belongs to another key set than the evaluation key.
  void setRotationKey(const RotationKey &rk);
  /// Prepares both encapsulation keys for q0 = 2^ek.logq0 (their roles
  /// abi::encapsulationKeyRole); nothing if the module never bootstraps at that
  /// q0. Throws Error on keys of another key set or for other parameters.
  void setEncapsulationKey(const EncapsulationKey &ek);
  /// Sets the keys `f` reads from `keys`: the evaluation key if it
  /// multiplies, and the rotation key of each Galois element it rotates by.
  /// Throws Error naming the first key `keys` lacks.
  void setKeysFor(const ManifestFunction &f, const KeySet &keys);
  /// Calls `function`; throws Error on unknown names, mismatched inputs, or
  /// inputs from another key set than each other or the evaluation key. The
  /// outputs carry the inputs' key set.
  /// `plaintexts`: the values of its plaintext arguments (one vector of at
  /// most `slots` numbers each, padded with zeros), encoded here at each
  /// use's scale and modulus.
  std::vector<Ciphertext> run(const std::string &function, const std::vector<Ciphertext> &inputs,
                              const std::vector<std::vector<Complex>> &plaintexts = {});
  /// The same, writing the results into `outputs` (not `inputs`), whose
  /// polynomials keep their storage where their shapes match: repeated calls
  /// then allocate nothing (fresh output buffers cost page faults and
  /// zeroing, ~6 ms for HE Mul's 20 MiB at logN = 16).
  void run(const std::string &function, const std::vector<Ciphertext> &inputs, std::vector<Ciphertext> &outputs,
           const std::vector<std::vector<Complex>> &plaintexts = {});
  /// The same on inputs read in place (each view's words must stay valid
  /// during the call and must not lie in `outputs`).
  void run(const std::string &function, const std::vector<CiphertextView> &inputs, std::vector<Ciphertext> &outputs,
           const std::vector<std::vector<Complex>> &plaintexts = {});
  /// The same on ciphertexts on the device (GPU targets): the outputs stay
  /// there, in `outputs`' buffers where their shapes match. Nothing is copied
  /// between the host and the device but the plaintext arguments' encodings.
  /// Throws Error as above, for a module of a CPU target, and for inputs on
  /// another kind of device.
  void run(const std::string &function, const std::vector<const DeviceCiphertext *> &inputs,
           std::vector<DeviceCiphertext> &outputs, const std::vector<std::vector<Complex>> &plaintexts = {});
  /// Where the module's kernels run (Host for the CPU targets).
  KernelPlace place() const { return module_.manifest().kernels; }
  /// Throws Error unless the module's kernels run on a device (GPU targets):
  /// the one check before a call of `function` on ciphertexts on the device,
  /// and before anything is copied there for it.
  void requireDevice(const std::string &function) const;
  /// Throws Error as a call of `function` would for these inputs and
  /// plaintexts: their counts, each input's logN, logq, logp and slots, the
  /// plaintexts' sizes, and the key sets of the inputs and keys (the words
  /// are not read). Returns the key set of the call's outputs. A call checks
  /// this first, and runOnDevice before it copies anything to the device.
  KeySetId checkInputs(const std::string &function, const std::vector<CiphertextView> &inputs,
                       const std::vector<std::vector<Complex>> &plaintexts) const;
  /// Calls a kernel-level function whose inputs and outputs are BigInt
  /// polynomials (in manifest order), e.g. an fhe-dialect test program; its
  /// RNS arguments are values prepare() made, found by role. Throws Error on
  /// mismatched inputs or an RNS argument nothing was prepared for.
  std::vector<BigPoly> runPolys(const std::string &function, const std::vector<BigPoly> &inputs);
  /// The same with the inputs by address, writing the results into
  /// `outputs`, whose polynomials keep their storage where their shapes match.
  void runPolys(const std::string &function, const std::vector<const BigPoly *> &inputs,
                std::vector<BigPoly> &outputs);
  /// Runs `function`, one polynomial in and one RNS value out (a key's CRT
  /// and NTT), and keeps the result under `role` for the RNS arguments of
  /// later calls (replacing what `role` held). `secret`: the value is wiped
  /// when it is replaced or the executor goes (a secret key's NTT form).
  void prepare(const std::string &function, const std::string &role, const BigPoly &input, bool secret = false);
  /// Overwrites the shared workspace with zeros (after a call on secret data).
  void wipeWorkspace();
  /// Bytes the last call (run, runPolys) copied between the host and the
  /// device: its inputs in, its outputs back (none on the CPU targets, whose
  /// code reads host memory).
  Transfers lastCallTransfers() const { return lastCall_; }
  /// Every byte copied to and from the device since the executor was made:
  /// the calls', and its tables, constants and keys (copied once).
  Transfers transfers() const { return device_ ? device_->transferred() : Transfers{}; }
  Executor(Executor &&) = default;
  /// Wipes the secret prepared values.
  ~Executor();

private:
  const TableView &table(const ManifestArg &a);
  const CompiledModule &module_;
  Params params_;
  /// The address the module's code gets for a table, constant or workspace argument.
  void *argument(const ManifestArg &a);
  /// What a call passes for an argument other than tables and the workspace:
  /// host words (copied to and from the device for GPU targets), or a buffer
  /// where the module's code reads it (`resident`: the executor's, or a
  /// DeviceCiphertext's).
  struct CallData {
    void *data = nullptr;
    size_t words = 0;
    bool resident = false;
  };
  /// A ciphertext argument of a call: its type and its polynomials' words.
  struct CiphertextArg {
    int logN = 0, logq = 0, logp = 0, slots = 0;
    KeySetId keySet;
    CallData ax, bx;
  };
  const ManifestFunction &function(const std::string &name) const;
  /// Checks the inputs and plaintexts of a call of f (types, key sets),
  /// encodes each plaintext use (by role); returns the outputs' key set.
  KeySetId check(const ManifestFunction &f, const std::vector<CiphertextArg> &inputs,
                 const std::vector<std::vector<Complex>> &plaintexts, std::map<std::string, BigPoly> &encoded);
  /// Calls f on checked inputs, writing `outputs` (of f's output types).
  void callCiphertexts(const ManifestFunction &f, const std::vector<CiphertextArg> &inputs,
                       const std::vector<CiphertextArg> &outputs, std::map<std::string, BigPoly> &encoded);
  /// Calls f's entry with the executor's buffers and `data(a)` for the other
  /// arguments; GPU targets: waits for its kernels, copies the outputs back.
  void call(const ManifestFunction &f, const std::function<CallData(const ManifestArg &)> &data);
  /// A buffer the module's code reads in host memory, or in the device's.
  struct Resident {
    Buffer host;
    DeviceBuffer device;
    void *address() { return device.address() ? reinterpret_cast<void *>(device.address()) : host.data(); }
  };
  Resident allocate(size_t words);
  /// Room for an RNS argument's value (a prepared key or constant).
  Resident allocateRns(const ManifestArg &a);
  std::unique_ptr<Device> device_;  ///< null: the module's code reads host memory
  /// Tables by (kind, basis, param), shared with the process's other
  /// executors (TableCache.h); a GPU's copies by the host table they copy.
  std::map<std::tuple<int, int, int64_t>, TableView> tables_;
  std::map<const Buffer *, DeviceBuffer> deviceTables_;
  /// GPU targets: the module's constants on the device, by symbol.
  std::map<std::string, DeviceBuffer> deviceConstants_;
  /// GPU targets: each (function, argument)'s inputs and outputs on the device.
  std::map<std::pair<std::string, size_t>, DeviceBuffer> staging_;
  Resident workspace_;
  /// Runs the module's key preparation (CRT + NTT) on one key polynomial mod
  /// PQ into keys_[role].
  void prepareKey(const std::string &role, const BigPoly &key, const char *what);
  /// prepareKey on each part of a key-switching key (one per digit, dnum).
  void prepareKeyParts(const std::string &ax, const std::string &bx, const std::vector<BigPoly> &axParts,
                       const std::vector<BigPoly> &bxParts, const std::string &what);
  /// Prepared values (key-switching keys in RNS/NTT form: "evk.ax",
  /// "rk5.bx", ...; a client module's "sk", "pk.ax.lo", ...) by role: (m, N)
  /// prime-major words in the basis `basis` (an index of the manifest's).
  struct Prepared {
    Resident value;
    int basis = -1;
    bool secret = false;  ///< wiped when dropped
  };
  std::map<std::string, Prepared> keys_;
  /// What abi::kConstantsPrepareFunc computed when the executor was made (the
  /// functions' arguments of role "const<k>"), kept across key sets.
  std::map<std::string, Prepared> constants_;
  void prepareConstants();
  /// The prepared value an RNS argument of a call reads, or null.
  Prepared *prepared(const ManifestArg &a);
  void drop(const std::string &role);
  size_t workspaceBytes_ = 0;
  Transfers lastCall_;
  KeySetId keySet_;  // the key set of the keys set so far (inputs must share it)
};

} // namespace fhec::rt
