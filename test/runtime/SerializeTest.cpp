#include "TestUtil.h"

#include "fhec/runtime/Error.h"
#include "fhec/runtime/Serialize.h"

#include <cstring>
#include <gtest/gtest.h>

using namespace fhec::rt;
using namespace fhec::rt::test;

namespace {
Params params() { return makeParams(6, 200, 30, 8); }

std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

// Recomputes the FNV-1a checksum after an edit of the payload.
void fixChecksum(std::string &bytes) {
  uint64_t size;
  std::memcpy(&size, bytes.data() + 12, 8);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) h = (h ^ uint8_t(bytes[20 + i])) * 1099511628211ull;
  std::memcpy(&bytes[20 + size], &h, 8);
}
} // namespace

TEST(Serialize, RoundTripsEveryObject) {
  SecureRandom rng;
  Params p = params();
  KeySet k = generateKeys(p, rng);
  Ciphertext c{randomPoly(6, 170, rng), randomPoly(6, 170, rng), 30, 16};
  EXPECT_EQ(deserializeParams(serialize(p)), p);
  EXPECT_EQ(deserializeCiphertext(serialize(p, c), p), c);
  EXPECT_EQ(deserializeSecretKey(serialize(p, k.sk), p).s, k.sk.s);
  PublicKey pk = deserializePublicKey(serialize(p, k.pk), p);
  EXPECT_EQ(pk.ax, k.pk.ax);
  EXPECT_EQ(pk.bx, k.pk.bx);
  EvalKey evk = deserializeEvalKey(serialize(p, k.evk), p);
  EXPECT_EQ(evk.ax, k.evk.ax);
  EXPECT_EQ(evk.bx, k.evk.bx);
  EXPECT_EQ(paramsOf(serialize(p, k.evk)), p);
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
  EXPECT_THROW(readFile(path + ".missing"), Error);
}
