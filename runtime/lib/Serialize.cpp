#include "fhec/runtime/Serialize.h"
#include "fhec/runtime/Error.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace fhec::rt {

namespace {
const char kMagic[4] = {'F', 'H', 'E', 'C'};

const char *kindName(ObjectKind k) {
  switch (k) {
  case ObjectKind::Params: return "parameters";
  case ObjectKind::Ciphertext: return "ciphertext";
  case ObjectKind::SecretKey: return "secret key";
  case ObjectKind::PublicKey: return "public key";
  case ObjectKind::EvalKey: return "evaluation key";
  }
  return "unknown object";
}

uint64_t fnv1a(const char *data, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ uint8_t(data[i])) * 1099511628211ull;
  return h;
}

class Writer {
public:
  template <typename T> void put(T v) { buf_.append(reinterpret_cast<const char *>(&v), sizeof(T)); }
  void putPoly(const BigPoly &p) {
    put<int32_t>(p.logq);
    buf_.append(reinterpret_cast<const char *>(p.words.data()), p.words.size() * sizeof(uint64_t));
  }
  void putParams(const Params &p) {
    put<int32_t>(p.logN); put<int32_t>(p.logQ); put<int32_t>(p.logp); put<int32_t>(p.h); put<double>(p.sigma);
  }
  std::string finish(ObjectKind kind) const {
    std::string out(kMagic, 4);
    auto app = [&](auto v) { out.append(reinterpret_cast<const char *>(&v), sizeof(v)); };
    app(kSerialVersion);
    app(uint32_t(kind));
    app(uint64_t(buf_.size()));
    out += buf_;
    app(fnv1a(buf_.data(), buf_.size()));
    return out;
  }

private:
  std::string buf_;
};

class Reader {
public:
  Reader(const std::string &bytes, ObjectKind want) : kind_(want) {
    if (bytes.size() < 20 || std::memcmp(bytes.data(), kMagic, 4) != 0)
      fail("not an fhec file (bad magic)");
    uint32_t version, kind;
    uint64_t size;
    std::memcpy(&version, bytes.data() + 4, 4);
    std::memcpy(&kind, bytes.data() + 8, 4);
    std::memcpy(&size, bytes.data() + 12, 8);
    if (version != kSerialVersion)
      fail("format version " + std::to_string(version) + " is not supported (expected " +
           std::to_string(kSerialVersion) + ")");
    if (kind != uint32_t(want))
      fail(std::string("file holds a ") + (kind >= 1 && kind <= 5 ? kindName(ObjectKind(kind)) : "unknown object"));
    if (size > bytes.size() || bytes.size() < 20 + size + 8) fail("file is truncated");
    if (bytes.size() != 20 + size + 8) fail("file has trailing bytes");
    data_ = bytes.data() + 20;
    size_ = size;
    uint64_t sum;
    std::memcpy(&sum, data_ + size_, 8);
    if (sum != fnv1a(data_, size_)) fail("checksum mismatch (file is corrupted)");
  }
  template <typename T> T get() {
    if (pos_ + sizeof(T) > size_) fail("payload is truncated");
    T v;
    std::memcpy(&v, data_ + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  Params getParams() {
    Params p;
    p.logN = get<int32_t>(); p.logQ = get<int32_t>(); p.logp = get<int32_t>(); p.h = get<int32_t>();
    p.sigma = get<double>();
    try {
      p.validate();
    } catch (const Error &e) {
      fail(std::string("recorded ") + e.what());
    }
    return p;
  }
  BigPoly getPoly(int logN, int maxLogq) {
    int logq = get<int32_t>();
    if (logq < 1 || logq > maxLogq) fail("polynomial modulus 2^" + std::to_string(logq) + " is out of range");
    BigPoly p(logN, logq);
    size_t bytes = p.words.size() * sizeof(uint64_t);
    if (pos_ + bytes > size_) fail("payload is truncated");
    std::memcpy(p.words.data(), data_ + pos_, bytes);
    pos_ += bytes;
    if (!p.isReduced()) fail("polynomial coefficient is not reduced mod 2^" + std::to_string(logq));
    return p;
  }
  void end() {
    if (pos_ != size_) fail("payload has unexpected trailing data");
  }
  [[noreturn]] void fail(const std::string &why) const {
    throw Error(std::string("cannot read ") + kindName(kind_) + ": " + why);
  }

private:
  ObjectKind kind_;
  const char *data_ = nullptr;
  size_t size_ = 0, pos_ = 0;
};

void checkParams(Reader &r, const Params &got, const Params &expected) {
  if (!(got == expected))
    r.fail("it was made for parameters " + got.str() + ", but " + expected.str() + " are in use");
}
} // namespace

std::string serialize(const Params &p) {
  Writer w;
  w.putParams(p);
  return w.finish(ObjectKind::Params);
}

std::string serialize(const Params &p, const Ciphertext &c) {
  Writer w;
  w.putParams(p);
  w.put<int32_t>(c.logp);
  w.put<int32_t>(c.slots);
  w.putPoly(c.ax);
  w.putPoly(c.bx);
  return w.finish(ObjectKind::Ciphertext);
}

std::string serialize(const Params &p, const SecretKey &k) {
  Writer w;
  w.putParams(p);
  for (int8_t s : k.s) w.put<int8_t>(s);
  return w.finish(ObjectKind::SecretKey);
}

static std::string serializePair(const Params &p, const BigPoly &a, const BigPoly &b, ObjectKind kind) {
  Writer w;
  w.putParams(p);
  w.putPoly(a);
  w.putPoly(b);
  return w.finish(kind);
}
std::string serialize(const Params &p, const PublicKey &k) { return serializePair(p, k.ax, k.bx, ObjectKind::PublicKey); }
std::string serialize(const Params &p, const EvalKey &k) { return serializePair(p, k.ax, k.bx, ObjectKind::EvalKey); }

Params deserializeParams(const std::string &bytes) {
  Reader r(bytes, ObjectKind::Params);
  Params p = r.getParams();
  r.end();
  return p;
}

Params paramsOf(const std::string &bytes) {
  if (bytes.size() < 12) throw Error("cannot read fhec file: file is truncated");
  uint32_t kind;
  std::memcpy(&kind, bytes.data() + 8, 4);
  if (kind < 1 || kind > 5) throw Error("cannot read fhec file: unknown object kind " + std::to_string(kind));
  Reader r(bytes, ObjectKind(kind));
  return r.getParams();
}

Ciphertext deserializeCiphertext(const std::string &bytes, const Params &expected) {
  Reader r(bytes, ObjectKind::Ciphertext);
  Params p = r.getParams();
  checkParams(r, p, expected);
  Ciphertext c;
  c.logp = r.get<int32_t>();
  c.slots = r.get<int32_t>();
  c.ax = r.getPoly(p.logN, p.logQ);
  c.bx = r.getPoly(p.logN, p.logQ);
  r.end();
  if (c.ax.logq != c.bx.logq) r.fail("ax and bx have different moduli");
  try {
    p.validateCiphertext(c.logq(), c.logp, c.slots);
  } catch (const Error &e) {
    r.fail(e.what());
  }
  return c;
}

SecretKey deserializeSecretKey(const std::string &bytes, const Params &expected) {
  Reader r(bytes, ObjectKind::SecretKey);
  Params p = r.getParams();
  checkParams(r, p, expected);
  SecretKey k;
  k.logN = p.logN;
  k.s.resize(p.N());
  for (auto &s : k.s) {
    s = r.get<int8_t>();
    if (s < -1 || s > 1) r.fail("secret key coefficient is not ternary");
  }
  r.end();
  return k;
}

PublicKey deserializePublicKey(const std::string &bytes, const Params &expected) {
  Reader r(bytes, ObjectKind::PublicKey);
  Params p = r.getParams();
  checkParams(r, p, expected);
  PublicKey k;
  k.ax = r.getPoly(p.logN, 2 * p.logQ);
  k.bx = r.getPoly(p.logN, 2 * p.logQ);
  r.end();
  if (k.ax.logq != 2 * p.logQ || k.bx.logq != 2 * p.logQ) r.fail("public key is not mod Q^2");
  return k;
}

EvalKey deserializeEvalKey(const std::string &bytes, const Params &expected) {
  Reader r(bytes, ObjectKind::EvalKey);
  Params p = r.getParams();
  checkParams(r, p, expected);
  EvalKey k;
  k.ax = r.getPoly(p.logN, 2 * p.logQ);
  k.bx = r.getPoly(p.logN, 2 * p.logQ);
  r.end();
  if (k.ax.logq != 2 * p.logQ || k.bx.logq != 2 * p.logQ) r.fail("evaluation key is not mod Q^2");
  return k;
}

void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw Error("cannot open '" + path + "' for writing");
  f.write(bytes.data(), std::streamsize(bytes.size()));
  if (!f) throw Error("cannot write '" + path + "'");
}

std::string readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot open '" + path + "'");
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

} // namespace fhec::rt
