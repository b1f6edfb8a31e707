// fhec-fuzz-manifest: fhec::rt::parseManifest, the reader of the manifest a
// compiled module embeds (passes/Manifest.cpp writes it), on arbitrary text.
// Every rejection must be fhec::rt::Error; any other exception, a crash, a
// sanitizer report, a hang or a huge allocation is a finding.
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Module.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  try {
    fhec::rt::Manifest m = fhec::rt::parseManifest(std::string(reinterpret_cast<const char *>(data), size));
    for (const fhec::rt::ManifestFunction &f : m.functions) (void)m.find(f.name);
  } catch (const fhec::rt::Error &) {
    // The documented way to refuse a manifest.
  }
  return 0;
}
