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

// Writers write the current format version: an older file read back is
// compared by its header's other fields and its payload.
void roundTrip(const std::string &bytes, const std::string &again, const char *what) {
  if (bytes == again) return;
  uint32_t version;
  std::memcpy(&version, &bytes[4], 4);
  if (version != kSerialVersion && bytes.size() == again.size() && bytes.compare(0, 4, again, 0, 4) == 0 &&
      bytes.compare(8, bytes.size() - 16, again, 8, again.size() - 16) == 0)
    return;
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
      Params p = deserializeParams(bytes);
      roundTrip(bytes, serialize(p), "Params");
      break;
    }
    case 1: {
      Ciphertext c = deserializeCiphertext(bytes, expected);
      roundTrip(bytes, serialize(expected, c), "Ciphertext");
      break;
    }
    case 2: {
      SecretKey k = deserializeSecretKey(bytes, expected);
      roundTrip(bytes, serialize(expected, k), "SecretKey");
      break;
    }
    case 3: {
      PublicKey k = deserializePublicKey(bytes, expected);
      roundTrip(bytes, serialize(expected, k), "PublicKey");
      break;
    }
    case 4: {
      EvalKey k = deserializeEvalKey(bytes, expected);
      roundTrip(bytes, serialize(expected, k), "EvalKey");
      break;
    }
    case 5: {
      RotationKey k = deserializeRotationKey(bytes, expected);
      roundTrip(bytes, serialize(expected, k), "RotationKey");
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
