// fhec-fuzz-manifest: fhec::rt::parseManifest, the reader of the manifest a
// compiled module embeds (written by writeManifest, Manifest.h), on arbitrary
// text. Every rejection must be fhec::rt::Error; any other exception, a
// crash, a sanitizer report, a hang or a huge allocation is a finding. What
// it accepts, the writer must write out as text the parser reads back to the
// same manifest (the two halves of one codec agree).
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Manifest.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  try {
    fhec::rt::Manifest m = fhec::rt::parseManifest(std::string(reinterpret_cast<const char *>(data), size));
    for (const fhec::rt::ManifestFunction &f : m.functions) (void)m.find(f.name);
    const std::string text = fhec::rt::writeManifest(m);
    if (fhec::rt::writeManifest(fhec::rt::parseManifest(text)) != text) __builtin_trap();
  } catch (const fhec::rt::Error &) {
    // The documented way to refuse a manifest.
  }
  return 0;
}
