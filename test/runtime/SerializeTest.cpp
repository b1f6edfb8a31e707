#include "TestUtil.h"

#include "fhec/runtime/Error.h"
#include "fhec/runtime/Serialize.h"

#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace fhec::rt;
using namespace fhec::rt::test;

namespace {
Params params() { return makeParams(6, 200, 30, 8); }

// Recomputes the checksum (of the header's format version) after an edit of the payload.
void fixChecksum(std::string &bytes) {
  uint64_t size;
  uint32_t version;
  std::memcpy(&size, bytes.data() + 12, 8);
  std::memcpy(&version, bytes.data() + 4, 4);
  uint64_t h = payloadChecksum(version, std::string_view(bytes).substr(20, size));
  std::memcpy(&bytes[20 + size], &h, 8);
}

// Payload offsets: Params (32 bytes), then the key-set id (16 bytes).
constexpr size_t kParamsBytes = 32, kKeySetAt = 20 + kParamsBytes, kAfterKeySet = kKeySetAt + 16;

// The same object in the layout of format version 2, 3 or 4: the parameters
// without the secret's kind (the payload's bytes 28..32), before version 4
// also without dnum (bytes 24..28) and a key without its part count (at
// payload offset `partsAt` of the current layout, 0 for none), with that
// version's checksum.
std::string inOldVersion(const std::string &bytes, uint32_t version, size_t partsAt = 0) {
  uint64_t size;
  std::memcpy(&size, bytes.data() + 12, 8);
  std::string payload = bytes.substr(20, size);
  if (partsAt && version < 4) payload.erase(partsAt, 4);
  payload.erase(28, 4);
  if (version < 4) payload.erase(24, 4);
  std::string out = bytes.substr(0, 20) + payload + std::string(8, '\0');
  uint64_t newSize = payload.size();
  std::memcpy(&out[4], &version, 4);
  std::memcpy(&out[12], &newSize, 8);
  fixChecksum(out);
  return out;
}

mode_t modeOf(const std::string &path) {
  struct stat st;
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}
} // namespace

TEST(Serialize, RoundTripsEveryObject) {
  SecureRandom rng;
  Params p = params();
  KeySet k = generateKeys(p, rng);
  Ciphertext c{randomPoly(6, 170, rng), randomPoly(6, 170, rng), 30, 16};
  EXPECT_EQ(deserializeParams(serialize(p)), p);
  EXPECT_EQ(deserializeCiphertext(serialize(p, c), p), c);
  EXPECT_FALSE(deserializeCiphertext(serialize(p, c), p).keySet.known());
  c.keySet = k.sk.keySet;
  EXPECT_EQ(deserializeCiphertext(serialize(p, c), p).keySet, k.sk.keySet);
  SecretKey sk = deserializeSecretKey(serialize(p, k.sk), p);
  EXPECT_EQ(sk.s, k.sk.s);
  EXPECT_EQ(sk.logN, p.logN);
  EXPECT_EQ(sk.keySet, k.sk.keySet);
  PublicKey pk = deserializePublicKey(serialize(p, k.pk), p);
  EXPECT_EQ(pk.ax, k.pk.ax);
  EXPECT_EQ(pk.bx, k.pk.bx);
  EXPECT_EQ(pk.keySet, k.sk.keySet);
  EvalKey evk = deserializeEvalKey(serialize(p, k.evk), p);
  EXPECT_EQ(evk.ax, k.evk.ax);
  EXPECT_EQ(evk.bx, k.evk.bx);
  EXPECT_EQ(evk.keySet, k.sk.keySet);
  EXPECT_EQ(paramsOf(serialize(p, k.evk)), p);
  EXPECT_EQ(paramsOf(serialize(p, k.sk)), p);
  RotationKey rk = generateRotationKey(p, k.sk, 5, rng);
  RotationKey rk2 = deserializeRotationKey(serialize(p, rk), p);
  EXPECT_EQ(rk2.galois, 5u);
  EXPECT_EQ(rk2.ax, rk.ax);
  EXPECT_EQ(rk2.bx, rk.bx);
  EXPECT_EQ(rk2.keySet, k.sk.keySet);
  EXPECT_EQ(paramsOf(serialize(p, rk)), p);
}

// A rotation key's Galois element must be odd in [3, 2N); the file kind is checked.
TEST(Serialize, RotationKeysAreValidated) {
  SecureRandom rng;
  Params p = params();
  KeySet k = generateKeys(p, rng);
  std::string good = serialize(p, generateRotationKey(p, k.sk, 127, rng));  // 2N - 1: conjugation
  EXPECT_EQ(deserializeRotationKey(good, p).galois, 127u);
  for (uint64_t g : {uint64_t(0), uint64_t(1), uint64_t(6), uint64_t(128), uint64_t(1) << 40}) {
    std::string bad = good;
    std::memcpy(&bad[kAfterKeySet], &g, 8);
    fixChecksum(bad);
    std::string why = errorOf([&] { deserializeRotationKey(bad, p); });
    EXPECT_NE(why.find("cannot read rotation key: Galois element " + std::to_string(g) + " is not an odd number"),
              std::string::npos) << why;
  }
  std::string why = errorOf([&] { deserializeEvalKey(good, p); });
  EXPECT_NE(why.find("file holds a rotation key, not an evaluation key"), std::string::npos) << why;
  why = errorOf([&] { deserializeRotationKey(serialize(p, k.evk), p); });
  EXPECT_NE(why.find("file holds an evaluation key, not a rotation key"), std::string::npos) << why;
}

// Version 1 files (no key-set id) are refused with a message saying what to do.
TEST(Serialize, OldVersionsAreRefused) {
  SecureRandom rng;
  Params p = params();
  KeySet k = generateKeys(p, rng);
  for (std::string bytes : {serialize(p, k.pk), serialize(p, k.sk), serialize(p)}) {
    uint32_t v1 = 1;
    std::memcpy(&bytes[4], &v1, 4);
    std::string why = errorOf([&] { paramsOf(bytes); });
    EXPECT_NE(why.find("format version 1 is not supported (expected 2 to 5"), std::string::npos) << why;
    EXPECT_NE(why.find("fhec run --save"), std::string::npos) << why;
  }
}

// Version 2 files (an FNV-1a checksum) and version 3 files (no dnum, keys of
// one part) are still read, as dnum = 1; a version-2 header with a newer
// checksum is corruption.
TEST(Serialize, Versions2And3AreRead) {
  SecureRandom rng;
  Params p = params();
  KeySet k = generateKeys(p, rng);
  Ciphertext c{randomPoly(6, 170, rng), randomPoly(6, 170, rng), 30, 16};
  std::string bytes = inOldVersion(serialize(p, c), 3);
  uint32_t v2 = 2;
  std::memcpy(&bytes[4], &v2, 4);
  EXPECT_NE(errorOf([&] { deserializeCiphertext(bytes, p); }).find("checksum mismatch"), std::string::npos);
  fixChecksum(bytes);
  EXPECT_TRUE(deserializeCiphertext(bytes, p) == c);
  EXPECT_EQ(deserializeParams(inOldVersion(serialize(p), 3)), p);
  EvalKey evk = deserializeEvalKey(inOldVersion(serialize(p, k.evk), 3, kParamsBytes + 16), p);
  EXPECT_EQ(evk.ax, k.evk.ax);
  EXPECT_EQ(evk.bx, k.evk.bx);
  RotationKey rk = generateRotationKey(p, k.sk, 5, rng);
  RotationKey rk2 = deserializeRotationKey(inOldVersion(serialize(p, rk), 2, kParamsBytes + 16 + 8), p);
  EXPECT_EQ(rk2.ax, rk.ax);
  EXPECT_EQ(rk2.bx, rk.bx);
}

// Version 5 records the secret's distribution: a ternary secret's keys
// round-trip with any weight, a key set of another secret is refused with
// both named, and a version-4 file (no kind) is read as the sparse secret of
// its recorded h, the only kind it could have.
TEST(Serialize, TheSecretsDistributionIsRecorded) {
  SecureRandom rng;
  Params t = makeParams(6, 200, 30), sp = params();
  ASSERT_EQ(t.secret, SecretKind::Ternary);
  EXPECT_EQ(deserializeParams(serialize(t)), t);
  EXPECT_EQ(deserializeParams(serialize(sp)), sp);
  KeySet k = generateKeys(t, rng);
  EXPECT_EQ(deserializeSecretKey(serialize(t, k.sk), t).s, k.sk.s);
  EXPECT_EQ(deserializeEvalKey(serialize(t, k.evk), t).bx, k.evk.bx);
  std::string why = errorOf([&] { deserializeEvalKey(serialize(t, k.evk), sp); });
  EXPECT_NE(why.find("secret=ternary"), std::string::npos) << why;
  EXPECT_NE(why.find("secret=sparse h=8"), std::string::npos) << why;
  why = errorOf([&] { deserializeSecretKey(serialize(sp, generateKeys(sp, rng).sk), t); });
  EXPECT_NE(why.find("made for parameters logN=6 logQ=200 logp=30 secret=sparse h=8"), std::string::npos) << why;
  EXPECT_EQ(deserializeParams(inOldVersion(serialize(sp), 4)), sp);
  EXPECT_NE(errorOf([&] { deserializeParams(inOldVersion(serialize(t), 4)); }).find("h = 0 must be in [1"),
            std::string::npos);
  // An unknown kind is corruption.
  std::string bad = serialize(t);
  int32_t seven = 7;
  std::memcpy(&bad[20 + 28], &seven, 4);
  fixChecksum(bad);
  why = errorOf([&] { deserializeParams(bad); });
  EXPECT_NE(why.find("unknown secret distribution 7"), std::string::npos) << why;
}

// Hybrid key switching's keys (dnum parts) round-trip with their
// parameters; a part count that disagrees with dnum is refused, and so are
// keys of another dnum.
TEST(Serialize, HybridKeysRoundTrip) {
  SecureRandom rng;
  Params p = params();
  p.dnum = 3;
  KeySet k = generateKeys(p, rng);
  EXPECT_EQ(deserializeParams(serialize(p)), p);
  EXPECT_EQ(deserializePublicKey(serialize(p, k.pk), p).ax, k.pk.ax);
  EvalKey evk = deserializeEvalKey(serialize(p, k.evk), p);
  ASSERT_EQ(evk.ax.size(), 3u);
  EXPECT_EQ(evk.ax, k.evk.ax);
  EXPECT_EQ(evk.bx, k.evk.bx);
  RotationKey rk = generateRotationKey(p, k.sk, 5, rng);
  RotationKey rk2 = deserializeRotationKey(serialize(p, rk), p);
  EXPECT_EQ(rk2.ax, rk.ax);
  EXPECT_EQ(rk2.bx, rk.bx);
  std::string bytes = serialize(p, k.evk);
  int32_t two = 2;
  std::memcpy(&bytes[kAfterKeySet], &two, 4);
  fixChecksum(bytes);
  std::string why = errorOf([&] { deserializeEvalKey(bytes, p); });
  EXPECT_NE(why.find("evaluation key has 2 part(s), but its parameters have dnum = 3"), std::string::npos) << why;
  Params one = params();
  why = errorOf([&] { deserializeEvalKey(serialize(p, k.evk), one); });
  EXPECT_NE(why.find("dnum=3"), std::string::npos) << why;
  EvalKey short1 = k.evk;
  short1.ax.pop_back();
  why = errorOf([&] { serialize(p, short1); });
  EXPECT_NE(why.find("need 3"), std::string::npos) << why;
}

// Keys always carry their key set; a secret key must be ternary of weight h.
TEST(Serialize, KeysAreValidated) {
  SecureRandom rng;
  Params p = params();
  KeySet k = generateKeys(p, rng);
  auto withoutId = [](std::string bytes) {
    std::memset(&bytes[kKeySetAt], 0, 16);
    fixChecksum(bytes);
    return bytes;
  };
  EXPECT_NE(errorOf([&] { deserializeSecretKey(withoutId(serialize(p, k.sk)), p); }).find("no key-set id"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { deserializePublicKey(withoutId(serialize(p, k.pk)), p); }).find("no key-set id"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { deserializeEvalKey(withoutId(serialize(p, k.evk)), p); }).find("no key-set id"),
            std::string::npos);

  const std::string good = serialize(p, k.sk);
  size_t nonzero = 0, zero = 0;
  while (k.sk.s[nonzero] == 0) ++nonzero;
  while (k.sk.s[zero] != 0) ++zero;
  // A coefficient outside {-1, 0, 1}.
  std::string two = good;
  two[kAfterKeySet + zero] = 2;
  fixChecksum(two);
  std::string why = errorOf([&] { deserializeSecretKey(two, p); });
  EXPECT_NE(why.find("cannot read secret key: a coefficient is not in {-1, 0, 1}"), std::string::npos) << why;
  // Hamming weight h - 1 and h + 1.
  std::string lighter = good, heavier = good;
  lighter[kAfterKeySet + nonzero] = 0;
  heavier[kAfterKeySet + zero] = -1;
  fixChecksum(lighter);
  fixChecksum(heavier);
  why = errorOf([&] { deserializeSecretKey(lighter, p); });
  EXPECT_NE(why.find("Hamming weight is 7, but the parameters require h = 8"), std::string::npos) << why;
  why = errorOf([&] { deserializeSecretKey(heavier, p); });
  EXPECT_NE(why.find("Hamming weight is 9, but the parameters require h = 8"), std::string::npos) << why;
  EXPECT_EQ(deserializeSecretKey(good, p).s, k.sk.s);
}

TEST(Serialize, ReportsTruncationCorruptionAndMismatches) {
  SecureRandom rng;
  Params p = params();
  Ciphertext c{randomPoly(6, 170, rng), randomPoly(6, 170, rng), 30, 16};
  std::string bytes = serialize(p, c);

  EXPECT_NE(errorOf([&] { deserializeCiphertext(bytes.substr(0, bytes.size() / 2), p); }).find("truncated"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { deserializeCiphertext(bytes.substr(0, 10), p); }).find("fhec"), std::string::npos);
  std::string flipped = bytes;
  flipped[100] ^= 1;
  EXPECT_NE(errorOf([&] { deserializeCiphertext(flipped, p); }).find("checksum"), std::string::npos);
  std::string magic = bytes;
  magic[0] = 'X';
  EXPECT_NE(errorOf([&] { deserializeCiphertext(magic, p); }).find("magic"), std::string::npos);
  std::string version = bytes;
  version[4] = 9;
  EXPECT_NE(errorOf([&] { deserializeCiphertext(version, p); }).find("version"), std::string::npos);
  EXPECT_NE(errorOf([&] { deserializeSecretKey(bytes, p); }).find("holds a ciphertext"), std::string::npos);
  Params other = p;
  other.logQ = 250;
  EXPECT_NE(errorOf([&] { deserializeCiphertext(bytes, other); }).find("made for parameters"), std::string::npos);
  EXPECT_NE(errorOf([&] { deserializeCiphertext(bytes + "x", p); }).find("trailing"), std::string::npos);

  // A coefficient at or above q, with a valid checksum.
  Ciphertext wide = c;
  wide.ax.coeff(0)[2] |= uint64_t(1) << 63;  // bit 191 >= logq = 170
  std::string unreduced = serialize(p, wide);
  EXPECT_NE(errorOf([&] { deserializeCiphertext(unreduced, p); }).find("not reduced"), std::string::npos);

  // Inconsistent recorded parameters, with a valid checksum.
  std::string badParams = serialize(p, c);
  int32_t logN = 40;
  std::memcpy(&badParams[20], &logN, 4);
  fixChecksum(badParams);
  EXPECT_NE(errorOf([&] { deserializeCiphertext(badParams, p); }).find("logN"), std::string::npos);
}

TEST(Serialize, FilesAreReadBack) {
  Params p = params();
  std::string path = ::testing::TempDir() + "/fhec-params.bin";
  writeFile(path, serialize(p));
  EXPECT_EQ(deserializeParams(readFile(path)), p);
  std::string why = errorOf([&] { readFile(path + ".missing"); });
  EXPECT_NE(why.find("cannot open '" + path + ".missing': No such file or directory"), std::string::npos) << why;
  why = errorOf([&] { writeFile(path + ".missing/x", "x"); });
  EXPECT_NE(why.find("cannot open '" + path + ".missing/x': No such file or directory"), std::string::npos) << why;
  why = errorOf([&] { writeFile(path + ".missing/x", "x", /*secret=*/true); });
  EXPECT_NE(why.find("'" + path + ".missing/x': No such file or directory"), std::string::npos) << why;
  std::string big(3 << 20, 'z');
  writeFile(path, big);
  EXPECT_EQ(readFile(path), big);
  ::unlink(path.c_str());
}

// Secret files are created with mode 0600, whatever the umask, also over an
// existing file of another mode; other files follow the umask.
TEST(Serialize, SecretFilesHaveMode0600) {
  SecureRandom rng;
  Params p = params();
  KeySet k = generateKeys(p, rng);
  const std::string dir = ::testing::TempDir();
  const std::string fresh = dir + "/fhec-sk-fresh.bin", existing = dir + "/fhec-sk-existing.bin";
  ::unlink(fresh.c_str());
  mode_t old = ::umask(0);  // the most permissive umask: 0600 must not come from it
  writeSecretKeyFile(fresh, p, k.sk);
  EXPECT_EQ(modeOf(fresh), mode_t(0600));
  writeFile(existing, "public", /*secret=*/false);
  ::chmod(existing.c_str(), 0644);
  EXPECT_EQ(modeOf(existing), mode_t(0644));
  writeFile(existing, serialize(p, k.sk), /*secret=*/true);
  EXPECT_EQ(modeOf(existing), mode_t(0600));
  writeFile(existing, serialize(p, k.sk), /*secret=*/true);  // again, over a 0600 file
  EXPECT_EQ(modeOf(existing), mode_t(0600));
  std::string pub = dir + "/fhec-pk.bin";
  ::unlink(pub.c_str());
  writeFile(pub, serialize(p, k.pk));
  EXPECT_EQ(modeOf(pub), mode_t(0666));
  ::umask(0022);
  ::unlink(pub.c_str());
  writeFile(pub, serialize(p, k.pk));
  EXPECT_EQ(modeOf(pub), mode_t(0644));
  ::umask(old);

  SecretKey back = readSecretKeyFile(existing, p);
  EXPECT_EQ(back.s, k.sk.s);
  EXPECT_EQ(back.keySet, k.sk.keySet);
  // No temporary file is left next to the key.
  if (DIR *d = ::opendir(dir.c_str())) {
    while (dirent *e = ::readdir(d)) EXPECT_NE(std::string(e->d_name).rfind("fhec-sk-existing.bin.tmp-", 0), 0u);
    ::closedir(d);
  }
  // A refused key names its file.
  Params other = p;
  other.h = 9;
  std::string why = errorOf([&] { readSecretKeyFile(existing, other); });
  EXPECT_NE(why.find("made for parameters"), std::string::npos) << why;
  EXPECT_NE(why.find("'" + existing + "'"), std::string::npos) << why;
  for (const std::string &f : {fresh, existing, pub}) ::unlink(f.c_str());
}
