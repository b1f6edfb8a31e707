// fhec-fuzz-deserialize: the runtime's readers of serialized objects
// (runtime/include/fhec/runtime/Serialize.h) on arbitrary bytes.
//
// Input: one control byte, then the file's bytes. Control bits 0-2 pick the
// reader: 0 deserializeParams, 1 deserializeCiphertext, 2 deserializeSecretKey,
// 3 deserializePublicKey, 4 deserializeEvalKey, 5 deserializeRotationKey,
// 6-7 paramsOf. Bit 3 set: the
// header's payload size and the trailing checksum (of the header's format
// version) are fixed up first,
// so that mutations reach the payload's readers instead of failing the
// checksum. The `expected` parameters are the ones the file records
// (paramsOf), or a small fixed set when it has none or bit 4 is set.
//
// Every rejection must be fhec::rt::Error; any other exception, a crash, a
// sanitizer report, a hang or a huge allocation is a finding. Oracle: an
// object read successfully serializes back to exactly the bytes read.
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Serialize.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace fhec::rt;

namespace {

// Header: magic(4) version(4) kind(4) payload size(8); trailer: checksum(8).
constexpr size_t kHeader = 20, kTrailer = 8;

void fixUp(std::string &bytes) {
  if (bytes.size() < kHeader + kTrailer) return;
  uint64_t size = bytes.size() - kHeader - kTrailer;
  std::memcpy(&bytes[12], &size, 8);
  uint32_t version;
  std::memcpy(&version, &bytes[4], 4);
  uint64_t sum = payloadChecksum(version, std::string_view(bytes).substr(kHeader, size));
  std::memcpy(&bytes[kHeader + size], &sum, 8);
}

// Oracle: the object read writes back to the bytes read. Writers write the
// current format version, so an older file's object must instead write the
// same bytes again once read back from its current-version form.
template <typename Read, typename Write>
void roundTrip(const std::string &bytes, Read read, Write write, const char *what) {
  std::string again = write(read(bytes));
  if (bytes == again) return;
  uint32_t version;
  std::memcpy(&version, &bytes[4], 4);
  std::string third = version != kSerialVersion ? write(read(again)) : std::string();
  if (version != kSerialVersion && third == again) return;
  std::fprintf(stderr, "fhec-fuzz-deserialize: a %s read successfully serializes to other bytes (%zu read, %zu written)\n",
               what, bytes.size(), again.size());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return -1;
  uint8_t control = data[0];
  std::string bytes(reinterpret_cast<const char *>(data + 1), size - 1);
  if (control & 8) fixUp(bytes);
  Params expected;
  expected.logN = 4;
  expected.logQ = 60;
  expected.logp = 20;
  expected.secret = SecretKind::Sparse;
  expected.h = 8;
  if (!(control & 16)) {
    try {
      expected = paramsOf(bytes);
    } catch (const Error &) {
    }
  }
  try {
    switch (control & 7) {
    case 0: {
      roundTrip(bytes, [](const std::string &b) { return deserializeParams(b); },
                [](const Params &p) { return serialize(p); }, "Params");
      break;
    }
    case 1: {
      roundTrip(bytes, [&](const std::string &b) { return deserializeCiphertext(b, expected); },
                [&](const Ciphertext &x) { return serialize(expected, x); }, "Ciphertext");
      break;
    }
    case 2: {
      roundTrip(bytes, [&](const std::string &b) { return deserializeSecretKey(b, expected); },
                [&](const SecretKey &x) { return serialize(expected, x); }, "SecretKey");
      break;
    }
    case 3: {
      roundTrip(bytes, [&](const std::string &b) { return deserializePublicKey(b, expected); },
                [&](const PublicKey &x) { return serialize(expected, x); }, "PublicKey");
      break;
    }
    case 4: {
      roundTrip(bytes, [&](const std::string &b) { return deserializeEvalKey(b, expected); },
                [&](const EvalKey &x) { return serialize(expected, x); }, "EvalKey");
      break;
    }
    case 5: {
      roundTrip(bytes, [&](const std::string &b) { return deserializeRotationKey(b, expected); },
                [&](const RotationKey &x) { return serialize(expected, x); }, "RotationKey");
      break;
    }
    default:
      (void)paramsOf(bytes);
      break;
    }
  } catch (const Error &) {
    // The documented way to refuse a file.
  }
  return 0;
}
