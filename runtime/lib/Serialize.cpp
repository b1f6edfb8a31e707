#include "fhec/runtime/Serialize.h"
#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Error.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

// XXH3, header-only: the runtime links no xxhash library.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace fhec::rt {

uint64_t payloadChecksum(uint32_t version, std::string_view payload) {
  if (version == 2) {
    // FNV-1a's step, byte by byte (about 1 GB/s: version 3 replaced it), from
    // the offset version 2 files were written with (a digit short of FNV's).
    uint64_t h = 1469598103934665603ull;
    for (char c : payload) h = (h ^ uint8_t(c)) * 1099511628211ull;
    return h;
  }
  return XXH3_64bits(payload.data(), payload.size());
}


namespace {
const char kMagic[4] = {'F', 'H', 'E', 'C'};
constexpr uint32_t kLastKind = uint32_t(ObjectKind::EncapsulationKey);

const char *kindName(ObjectKind k) {
  switch (k) {
  case ObjectKind::Params: return "parameters";
  case ObjectKind::Ciphertext: return "ciphertext";
  case ObjectKind::SecretKey: return "secret key";
  case ObjectKind::PublicKey: return "public key";
  case ObjectKind::EvalKey: return "evaluation key";
  case ObjectKind::RotationKey: return "rotation key";
  case ObjectKind::EncapsulationKey: return "encapsulation key";
  }
  return "unknown object";
}

std::string withArticle(const std::string &noun) {
  return (std::string("aeiou").find(noun[0]) != std::string::npos ? "an " : "a ") + noun;
}

// Header: magic(4) version(4) kind(4) payload size(8); trailer: checksum(8).
constexpr size_t kHeader = 20, kTrailer = 8;

class Writer {
public:
  /// A secret writer wipes its buffer when done; reserve the payload's size
  /// up front so that no reallocation leaves an unwiped copy behind (and a
  /// large payload is not copied as it grows).
  explicit Writer(bool secret = false, size_t reserve = 0) : secret_(secret) {
    buf_.reserve(kHeader + reserve + kTrailer);
    buf_.resize(kHeader);
  }
  Writer(const Writer &) = delete;
  Writer &operator=(const Writer &) = delete;
  ~Writer() {
    if (secret_) secureWipe(buf_.data(), buf_.size());
  }
  template <typename T> void put(T v) { buf_.append(reinterpret_cast<const char *>(&v), sizeof(T)); }
  void putPoly(const BigPoly &p) {
    put<int32_t>(p.logq);
    buf_.append(reinterpret_cast<const char *>(p.words.data()), p.words.size() * sizeof(uint64_t));
  }
  static size_t polyBytes(const BigPoly &p) { return sizeof(int32_t) + p.words.size() * sizeof(uint64_t); }
  void putParams(const Params &p) {
    put<int32_t>(p.logN); put<int32_t>(p.logQ); put<int32_t>(p.logp); put<int32_t>(p.h); put<double>(p.sigma);
    put<int32_t>(p.dnum);
    put<int32_t>(int32_t(p.secret));
  }
  void putKeySet(const KeySetId &id) { put<uint64_t>(id.lo); put<uint64_t>(id.hi); }
  /// The file: the header written in front of the payload, the checksum
  /// after it (the buffer itself, handed over: the caller owns the bytes).
  std::string finish(ObjectKind kind) {
    uint32_t version = kSerialVersion, k = uint32_t(kind);
    uint64_t size = buf_.size() - kHeader;
    std::memcpy(&buf_[0], kMagic, 4);
    std::memcpy(&buf_[4], &version, 4);
    std::memcpy(&buf_[8], &k, 4);
    std::memcpy(&buf_[12], &size, 8);
    put<uint64_t>(payloadChecksum(kSerialVersion, std::string_view(buf_).substr(kHeader)));
    return std::move(buf_);
  }

private:
  bool secret_;
  std::string buf_;
};

// Size of the serialized Params.
constexpr size_t kParamsBytes = 6 * sizeof(int32_t) + sizeof(double);

class Reader {
public:
  Reader(std::string_view bytes, ObjectKind want) : kind_(want) {
    if (bytes.size() < kHeader || std::memcmp(bytes.data(), kMagic, 4) != 0)
      fail("not an fhec file (bad magic)");
    uint32_t version, kind;
    uint64_t size;
    std::memcpy(&version, bytes.data() + 4, 4);
    std::memcpy(&kind, bytes.data() + 8, 4);
    std::memcpy(&size, bytes.data() + 12, 8);
    if (version < 2 || version > kSerialVersion)
      fail("format version " + std::to_string(version) + " is not supported (expected 2 to " +
           std::to_string(kSerialVersion) + "; files of older versions carry no key-set id: make the keys and " +
           "ciphertexts again, e.g. with 'fhec run --save')");
    version_ = version;
    if (kind != uint32_t(want))
      fail(std::string("file holds ") + withArticle(kind >= 1 && kind <= kLastKind ? kindName(ObjectKind(kind)) : "unknown object") +
           ", not " + withArticle(kindName(want)));
    if (size > bytes.size() || bytes.size() < kHeader + size + kTrailer) fail("file is truncated");
    if (bytes.size() != kHeader + size + kTrailer) fail("file has trailing bytes");
    data_ = bytes.data() + kHeader;
    size_ = size;
    uint64_t sum;
    std::memcpy(&sum, data_ + size_, 8);
    if (sum != payloadChecksum(version, std::string_view(data_, size_))) fail("checksum mismatch (file is corrupted)");
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
    if (version_ >= 4) p.dnum = get<int32_t>();
    // Before version 5 every secret was HEAAN's HWT(h).
    p.secret = version_ >= 5 ? SecretKind(get<int32_t>()) : SecretKind::Sparse;
    try {
      p.validate();
    } catch (const Error &e) {
      fail(std::string("recorded ") + e.what());
    }
    return p;
  }
  KeySetId getKeySet() {
    KeySetId id;
    id.lo = get<uint64_t>();
    id.hi = get<uint64_t>();
    return id;
  }
  /// Keys always carry the id of their key set (ciphertexts may lack one).
  KeySetId getRequiredKeySet() {
    KeySetId id = getKeySet();
    if (!id.known()) fail("the key carries no key-set id");
    return id;
  }
  BigPoly getPoly(int logN, int maxLogq) {
    int logq = get<int32_t>();
    if (logq < 1 || logq > maxLogq) fail("polynomial modulus 2^" + std::to_string(logq) + " is out of range");
    // Size check before the allocation: a short file claiming a large ring
    // must not make the reader allocate what the file cannot fill.
    size_t bytes = (size_t(1) << logN) * size_t((logq + 63) / 64) * sizeof(uint64_t);
    if (pos_ + bytes > size_) fail("payload is truncated");
    BigPoly p(logN, logq);
    std::memcpy(p.words.data(), data_ + pos_, bytes);
    pos_ += bytes;
    if (!p.isReduced()) fail("polynomial coefficient is not reduced mod 2^" + std::to_string(logq));
    return p;
  }
  void end() {
    if (pos_ != size_) fail("payload has unexpected trailing data");
  }
  uint32_t version() const { return version_; }
  [[noreturn]] void fail(const std::string &why) const {
    throw Error(std::string("cannot read ") + kindName(kind_) + ": " + why);
  }

private:
  ObjectKind kind_;
  uint32_t version_ = 0;
  const char *data_ = nullptr;
  size_t size_ = 0, pos_ = 0;
};

/// The file's parameters, which must be those in use.
Params getExpectedParams(Reader &r, const Params &expected) {
  Params got = r.getParams();
  if (!(got == expected))
    r.fail("it was made for parameters " + got.str() + ", but " + expected.str() + " are in use");
  return got;
}
} // namespace

std::string serialize(const Params &p) {
  Writer w;
  w.putParams(p);
  return w.finish(ObjectKind::Params);
}

std::string serialize(const Params &p, const Ciphertext &c) {
  Writer w(false, kParamsBytes + 16 + 8 + Writer::polyBytes(c.ax) + Writer::polyBytes(c.bx));
  w.putParams(p);
  w.putKeySet(c.keySet);
  w.put<int32_t>(c.logp);
  w.put<int32_t>(c.slots);
  w.putPoly(c.ax);
  w.putPoly(c.bx);
  return w.finish(ObjectKind::Ciphertext);
}

std::string serialize(const Params &p, const SecretKey &k) {
  Writer w(/*secret=*/true, kParamsBytes + 16 + k.s.size());
  w.putParams(p);
  w.putKeySet(k.keySet);
  for (int8_t s : k.s) w.put<int8_t>(s);
  return w.finish(ObjectKind::SecretKey);
}

static std::string serializePair(const Params &p, const KeySetId &id, const BigPoly &a, const BigPoly &b,
                                 ObjectKind kind) {
  Writer w(false, kParamsBytes + 16 + Writer::polyBytes(a) + Writer::polyBytes(b));
  w.putParams(p);
  w.putKeySet(id);
  w.putPoly(a);
  w.putPoly(b);
  return w.finish(kind);
}
std::string serialize(const Params &p, const PublicKey &k) {
  return serializePair(p, k.keySet, k.ax, k.bx, ObjectKind::PublicKey);
}
// A key-switching key's parts: their count, then (ax, bx) of each.
static size_t partsBytes(const std::vector<BigPoly> &ax, const std::vector<BigPoly> &bx) {
  size_t n = sizeof(int32_t);
  for (size_t j = 0; j < ax.size(); ++j) n += Writer::polyBytes(ax[j]) + Writer::polyBytes(bx[j]);
  return n;
}
static void putParts(Writer &w, const Params &p, const std::vector<BigPoly> &ax, const std::vector<BigPoly> &bx,
                     const char *what) {
  if (int(ax.size()) != p.dnum || bx.size() != ax.size())
    throw Error(std::string("cannot serialize the ") + what + ": it has " + std::to_string(ax.size()) + " and " +
                std::to_string(bx.size()) + " parts, but " + p.str() + " need " + std::to_string(p.dnum));
  w.put<int32_t>(int32_t(ax.size()));
  for (size_t j = 0; j < ax.size(); ++j) {
    w.putPoly(ax[j]);
    w.putPoly(bx[j]);
  }
}
std::string serialize(const Params &p, const EvalKey &k) {
  Writer w(false, kParamsBytes + 16 + partsBytes(k.ax, k.bx));
  w.putParams(p);
  w.putKeySet(k.keySet);
  putParts(w, p, k.ax, k.bx, "evaluation key");
  return w.finish(ObjectKind::EvalKey);
}
std::string serialize(const Params &p, const RotationKey &k) {
  Writer w(false, kParamsBytes + 16 + 8 + partsBytes(k.ax, k.bx));
  w.putParams(p);
  w.putKeySet(k.keySet);
  w.put<uint64_t>(k.galois);
  putParts(w, p, k.ax, k.bx, "rotation key");
  return w.finish(ObjectKind::RotationKey);
}
std::string serialize(const Params &p, const EncapsulationKey &k) {
  Writer w(false, kParamsBytes + 16 + 4 + Writer::polyBytes(k.sparseAx) + Writer::polyBytes(k.sparseBx) +
                      partsBytes(k.denseAx, k.denseBx));
  w.putParams(p);
  w.putKeySet(k.keySet);
  w.put<int32_t>(int32_t(k.logq0));
  w.putPoly(k.sparseAx);
  w.putPoly(k.sparseBx);
  putParts(w, p, k.denseAx, k.denseBx, "encapsulation key");
  return w.finish(ObjectKind::EncapsulationKey);
}

Params deserializeParams(std::string_view bytes) {
  Reader r(bytes, ObjectKind::Params);
  Params p = r.getParams();
  r.end();
  return p;
}

Params paramsOf(std::string_view bytes) {
  if (bytes.size() < 12) throw Error("cannot read fhec file: file is truncated");
  uint32_t kind;
  std::memcpy(&kind, bytes.data() + 8, 4);
  if (kind < 1 || kind > kLastKind) throw Error("cannot read fhec file: unknown object kind " + std::to_string(kind));
  Reader r(bytes, ObjectKind(kind));
  return r.getParams();
}

Ciphertext deserializeCiphertext(std::string_view bytes, const Params &expected) {
  Reader r(bytes, ObjectKind::Ciphertext);
  Params p = getExpectedParams(r, expected);
  Ciphertext c;
  c.keySet = r.getKeySet();
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

SecretKey deserializeSecretKey(std::string_view bytes, const Params &expected) {
  Reader r(bytes, ObjectKind::SecretKey);
  Params p = getExpectedParams(r, expected);
  SecretKey k;
  k.logN = p.logN;
  k.keySet = r.getRequiredKeySet();
  k.s.resize(p.N());
  // Validity is accumulated without a branch per coefficient and checked once.
  uint32_t notTernary = 0;
  int64_t weight = 0;
  for (auto &s : k.s) {
    s = r.get<int8_t>();
    notTernary |= uint32_t(uint8_t(s + 1) > 2);
    weight += s != 0;
  }
  r.end();
  if (notTernary) r.fail("a coefficient is not in {-1, 0, 1} (the file is not a secret key fhec made)");
  if (p.secret == SecretKind::Sparse && weight != p.h)
    r.fail("its Hamming weight is " + std::to_string(weight) + ", but the parameters require h = " +
           std::to_string(p.h) + " (the file is corrupted or was not made by fhec's key generation)");
  return k;
}

namespace {
// An (ax, bx) pair of a key mod PQ.
void readKeyPolys(Reader &r, const Params &p, const char *what, BigPoly &ax, BigPoly &bx) {
  ax = r.getPoly(p.logN, p.logKey());
  bx = r.getPoly(p.logN, p.logKey());
  if (ax.logq != p.logKey() || bx.logq != p.logKey())
    r.fail(std::string(what) + " is not mod P Q = 2^" + std::to_string(p.logKey()));
}

// A key-switching key's parts, the last thing in its file: one pair before
// version 4, then their count (dnum) and the pairs.
void readKeyParts(Reader &r, const Params &p, const char *what, std::vector<BigPoly> &ax, std::vector<BigPoly> &bx) {
  int32_t parts = r.version() >= 4 ? r.get<int32_t>() : 1;
  if (parts != p.dnum)
    r.fail(std::string(what) + " has " + std::to_string(parts) + " part(s), but its parameters have dnum = " +
           std::to_string(p.dnum));
  ax.resize(size_t(parts));
  bx.resize(size_t(parts));
  for (int32_t j = 0; j < parts; ++j) readKeyPolys(r, p, what, ax[size_t(j)], bx[size_t(j)]);
  r.end();
}
} // namespace

PublicKey deserializePublicKey(std::string_view bytes, const Params &expected) {
  Reader r(bytes, ObjectKind::PublicKey);
  Params p = getExpectedParams(r, expected);
  PublicKey k;
  k.keySet = r.getRequiredKeySet();
  readKeyPolys(r, p, "public key", k.ax, k.bx);
  r.end();
  return k;
}

EvalKey deserializeEvalKey(std::string_view bytes, const Params &expected) {
  Reader r(bytes, ObjectKind::EvalKey);
  Params p = getExpectedParams(r, expected);
  EvalKey k;
  k.keySet = r.getRequiredKeySet();
  readKeyParts(r, p, "evaluation key", k.ax, k.bx);
  return k;
}

RotationKey deserializeRotationKey(std::string_view bytes, const Params &expected) {
  Reader r(bytes, ObjectKind::RotationKey);
  Params p = getExpectedParams(r, expected);
  RotationKey k;
  k.keySet = r.getRequiredKeySet();
  k.galois = r.get<uint64_t>();
  try {
    checkGalois(p.logN, k.galois);
  } catch (const Error &e) {
    r.fail(e.what());
  }
  readKeyParts(r, p, "rotation key", k.ax, k.bx);
  return k;
}

EncapsulationKey deserializeEncapsulationKey(std::string_view bytes, const Params &expected) {
  Reader r(bytes, ObjectKind::EncapsulationKey);
  Params p = getExpectedParams(r, expected);
  EncapsulationKey k;
  k.keySet = r.getRequiredKeySet();
  k.logq0 = r.get<int32_t>();
  if (k.logq0 <= 0 || k.logq0 >= p.logQ)
    r.fail("q0 = 2^" + std::to_string(k.logq0) + " does not lie below Q = 2^" + std::to_string(p.logQ));
  const int logKey = encapsulationKeyLogModulus(k.logq0);
  k.sparseAx = r.getPoly(p.logN, logKey);
  k.sparseBx = r.getPoly(p.logN, logKey);
  if (k.sparseAx.logq != logKey || k.sparseBx.logq != logKey)
    r.fail("the key to the ephemeral secret is not mod q0 P' = 2^" + std::to_string(logKey));
  readKeyParts(r, p, "encapsulation key", k.denseAx, k.denseBx);
  return k;
}

namespace {
[[noreturn]] void fileError(const std::string &what, const std::string &path, int err) {
  throw Error("cannot " + what + " '" + path + "': " + std::strerror(err));
}

// write(2) until done; false (errno set) on failure.
bool writeAll(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t got = ::write(fd, p, n);
    if (got < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += got;
    n -= size_t(got);
  }
  return true;
}
} // namespace

void writeFile(const std::string &path, const std::string &bytes, bool secret) {
  if (!secret) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) fileError("open", path, errno);
    if (!writeAll(fd, bytes.data(), bytes.size())) {
      int err = errno;
      ::close(fd);
      fileError("write", path, err);
    }
    if (::close(fd) != 0) fileError("write", path, errno);
    return;
  }
  // A fresh file of mode 0600 (fchmod too, in case the umask took bits off
  // mkstemp's 0600), then rename(2) over path: an existing file of another
  // mode is replaced, never reused, and a crash leaves the old file or the
  // whole new one.
  std::string tmp = path + ".tmp-XXXXXX";
  int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) fileError("create a temporary file for", path, errno);
  auto abandon = [&](const char *what, int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    fileError(what, path, err);
  };
  if (::fchmod(fd, S_IRUSR | S_IWUSR) != 0) abandon("set mode 0600 on", errno);
  if (!writeAll(fd, bytes.data(), bytes.size())) abandon("write", errno);
  if (::fsync(fd) != 0) abandon("write", errno);
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    fileError("write", path, err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    fileError("replace", path, err);
  }
}

std::string readFile(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fileError("open", path, errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    fileError("read", path, err);
  }
  // A regular file is read into a buffer of its size (then one more byte to
  // see the end); other files grow the buffer as they go.
  std::string out(S_ISREG(st.st_mode) ? size_t(st.st_size) + 1 : 4096, '\0');
  size_t have = 0;
  for (;;) {
    if (have == out.size()) out.resize(out.size() * 2);
    ssize_t got = ::read(fd, &out[have], out.size() - have);
    if (got < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      secureWipe(out.data(), have);
      fileError("read", path, err);
    }
    if (got == 0) break;
    have += size_t(got);
  }
  ::close(fd);
  out.resize(have);
  return out;
}

void writeSecretKeyFile(const std::string &path, const Params &p, const SecretKey &sk) {
  std::string bytes = serialize(p, sk);
  try {
    writeFile(path, bytes, /*secret=*/true);
  } catch (...) {
    secureWipe(bytes.data(), bytes.size());
    throw;
  }
  secureWipe(bytes.data(), bytes.size());
}

SecretKey readSecretKeyFile(const std::string &path, const Params &expected) {
  std::string bytes = readFile(path);
  try {
    SecretKey k = deserializeSecretKey(bytes, expected);
    secureWipe(bytes.data(), bytes.size());
    return k;
  } catch (const Error &e) {
    secureWipe(bytes.data(), bytes.size());
    throw Error(std::string(e.what()) + " ('" + path + "')");
  } catch (...) {
    secureWipe(bytes.data(), bytes.size());
    throw;
  }
}

} // namespace fhec::rt
