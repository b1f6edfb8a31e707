// fhec-bench-client: times the client side (key generation, one rotation key,
// encoding, encryption, decryption, decoding) through a compiled client
// module (`fhec --client`; fhec/runtime/Client.h) on each thread count, and
// the GMP reference on one thread, in one process. With the runtime alone
// (no LLVM), so that it also runs on the lent GPU machines' CPUs.
//
// Decryption is timed as decode takes it (rt::decryptMessage: the client
// kernels' narrow decryption where it holds, Client.h).
//
// --check: the kernels' keys, rotation key, ciphertext and decryption must
// equal the GMP reference's for the same randomness: the kernel run draws
// from the CSPRNG and records what it drew, the reference replays it.
//
// Key generation is timed on fresh keys each round; encryption and decryption
// with the keys of the last round, whose NTT forms the first encryption and
// decryption prepared (as a client's are after its first call); the kernel
// phases of both are reported too ("encrypt: iCRT", ...).
// Prints JSON on stdout (milliseconds, medians over --runs rounds);
// bench/peers/bench.py renders it beside the peers.
//
// Usage: fhec-bench-client CLIENT.so [--threads=1,2] [--runs=7] [--gmp-runs=1] [--check]
#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Client.h"
#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Module.h"
#include "fhec/runtime/Profile.h"
#include "fhec/runtime/Random.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace fhec;

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The CSPRNG, with every word it hands out kept for a replay.
class RecordingRandom : public rt::SecureRandom {
public:
  std::vector<uint64_t> drawn;

protected:
  void generate(uint64_t *words, size_t count) override {
    SecureRandom::generate(words, count);
    drawn.insert(drawn.end(), words, words + count);
  }
};

// Hands out a recorded stream again, in the same calls.
class ReplayRandom : public rt::SecureRandom {
public:
  explicit ReplayRandom(const std::vector<uint64_t> &w) : words_(w) {}

protected:
  void generate(uint64_t *words, size_t count) override {
    if (pos_ + count > words_.size()) throw rt::Error("replay: the reference drew more randomness than recorded");
    std::memcpy(words, words_.data() + pos_, count * sizeof(uint64_t));
    pos_ += count;
  }

private:
  const std::vector<uint64_t> &words_;
  size_t pos_ = 0;
};

// The operations timed, in the order of a client's life.
struct Results {
  std::map<std::string, std::vector<double>> ms;
  void add(const std::string &op, Clock::time_point t0) {
    ms[op].push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  // The kernel phases of the call just made, as "<op>: <phase>".
  void addPhases(const std::string &op) {
    rt::PhaseTimes t = rt::phaseTimes();
    for (int p = 0; p < int(abi::Phase::Count); ++p)
      if (t[p] > 0) ms[op + ": " + abi::phaseName(abi::Phase(p))].push_back(t[p] * 1e3);
  }
};

struct Outcome {
  rt::KeySet keys;
  rt::RotationKey rk;
  rt::Ciphertext ct;
  rt::BigPoly plain;
};

// Key generation: a new secret, public, relinearization and rotation key.
void keys(const rt::Params &p, rt::SecureRandom &rng, rt::ClientArithmetic &arith, Results &r, Outcome &o) {
  auto t0 = Clock::now();
  o.keys.params = p;
  o.keys.sk = rt::generateSecretKey(p, rng);
  r.add("secret key", t0);
  t0 = Clock::now();
  o.keys.pk = rt::generatePublicKey(p, o.keys.sk, rng, arith);
  r.add("public key", t0);
  t0 = Clock::now();
  o.keys.evk = rt::generateEvalKey(p, o.keys.sk, rng, arith);
  r.add("relinearization key", t0);
  t0 = Clock::now();
  o.rk = rt::generateRotationKey(p, o.keys.sk, rt::galoisForRotation(p.logN, 1), rng, arith);
  r.add("rotation key", t0);
}

// With o's keys (their NTT forms prepared by an earlier call, as a client's
// are after its first encryption): encode and encrypt a full-slot vector at
// logQ, decrypt and decode it.
void messages(const rt::Params &p, rt::SecureRandom &rng, rt::ClientArithmetic &arith, Results &r, Outcome &o,
              const std::vector<rt::Complex> &z) {
  auto t0 = Clock::now();
  rt::BigPoly m = rt::encode(z, p.logN, p.logp, p.logQ);
  r.add("encode", t0);
  rt::resetPhaseTimes();
  t0 = Clock::now();
  o.ct = rt::encrypt(p, o.keys.pk, m, p.logp, int(z.size()), rng, arith);
  r.add("encrypt", t0);
  r.addPhases("encrypt");
  rt::resetPhaseTimes();
  t0 = Clock::now();
  o.plain = rt::decryptMessage(o.keys.sk, o.ct, arith);
  r.add("decrypt", t0);
  r.addPhases("decrypt");
  t0 = Clock::now();
  std::vector<rt::Complex> back = rt::decode(o.plain, int(z.size()), p.logp);
  r.add("decode", t0);
  double err = 0;
  for (size_t i = 0; i < z.size(); ++i) err = std::max(err, std::abs(back[i] - z[i]));
  if (!(err < 1e-3)) throw rt::Error("decrypted slots differ from the encrypted ones by " + std::to_string(err));
}

Outcome round(const rt::Params &p, rt::SecureRandom &rng, rt::ClientArithmetic &arith, Results &r,
              const std::vector<rt::Complex> &z) {
  Outcome o;
  keys(p, rng, arith, r, o);
  messages(p, rng, arith, r, o, z);
  return o;
}

std::string json(const Results &r) {
  std::ostringstream os;
  os << "{";
  bool first = true;
  for (const auto &[op, v] : r.ms) {
    os << (first ? "" : ", ") << "\"" << op << "\": " << median(v);
    first = false;
  }
  os << "}";
  return os.str();
}

int usage() {
  std::fprintf(stderr, "usage: fhec-bench-client CLIENT.so [--threads=1,2] [--runs=7] [--gmp-runs=1] [--check]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) return usage();
  std::vector<int> threads{1, 2};
  int runs = 7, gmpRuns = 1;
  bool check = false;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--threads=", 0) == 0) {
      threads.clear();
      std::stringstream ss(a.substr(10));
      for (std::string t; std::getline(ss, t, ',');) threads.push_back(std::max(1, std::atoi(t.c_str())));
    } else if (a.rfind("--runs=", 0) == 0) {
      runs = std::max(1, std::atoi(a.c_str() + 7));
    } else if (a.rfind("--gmp-runs=", 0) == 0) {
      gmpRuns = std::max(0, std::atoi(a.c_str() + 11));
    } else if (a == "--check") {
      check = true;
    } else {
      return usage();
    }
  }
  try {
    auto module = rt::CompiledModule::load(argv[1]);
    const rt::Manifest &man = module->manifest();
    rt::Params p = man.params();
    rt::KernelArithmetic kernels(*module, p);
    rt::SecureRandom rng;
    std::vector<rt::Complex> z(p.N() / 2);
    for (auto &x : z) x = rt::Complex(2 * rng.uniformReal() - 1, 2 * rng.uniformReal() - 1);

    std::ostringstream os;
    os << "{\"target\": \"" << man.target << "\", \"logN\": " << p.logN << ", \"logQ\": " << p.logQ
       << ", \"logp\": " << p.logp << ", \"secret\": \"" << rt::secretKindName(p.secret) << "\", \"h\": " << p.h << ", \"runs\": " << runs << ", \"kernels\": {";
    std::string verdict = "not checked";
    for (size_t t = 0; t < threads.size(); ++t) {
      module->setThreads(threads[t]);
      Results r;
      Results untimed;
      if (check && t == 0) {
        RecordingRandom rec;
        Outcome got = round(p, rec, kernels, untimed, z);
        ReplayRandom replay(rec.drawn);
        Outcome ref = round(p, replay, rt::gmpArithmetic(), untimed, z);
        bool same = got.keys.sk.s == ref.keys.sk.s && got.keys.pk.bx == ref.keys.pk.bx &&
                    got.keys.evk.bx == ref.keys.evk.bx && got.rk.bx == ref.rk.bx && got.ct == ref.ct &&
                    rt::signExtend(got.plain, ref.plain.logq) == ref.plain;
        verdict = same ? "bit-identical" : "MISMATCH";
      }
      Outcome o = round(p, rng, kernels, untimed, z);  // warm-up: pages, the keys' NTT forms
      for (int k = 0; k < runs; ++k) keys(p, rng, kernels, r, o);
      messages(p, rng, kernels, untimed, o, z);  // the last keys' NTT forms
      for (int k = 0; k < runs; ++k) messages(p, rng, kernels, r, o, z);
      os << (t ? ", " : "") << "\"" << threads[t] << "\": " << json(r);
    }
    os << "}";
    if (gmpRuns > 0) {
      module->setThreads(1);
      Results r;
      for (int k = 0; k < gmpRuns; ++k) round(p, rng, rt::gmpArithmetic(), r, z);
      for (auto it = r.ms.begin(); it != r.ms.end();)  // (no kernels, no phases)
        it = it->first.find(':') == std::string::npos ? std::next(it) : r.ms.erase(it);
      os << ", \"gmp_1_thread\": " << json(r);
    }
    os << ", \"check\": \"" << verdict << "\"}";
    std::printf("%s\n", os.str().c_str());
    return verdict == "MISMATCH" ? 1 : 0;
  } catch (const rt::Error &e) {
    std::fprintf(stderr, "fhec-bench-client: error: %s\n", e.what());
    return 2;
  }
}
