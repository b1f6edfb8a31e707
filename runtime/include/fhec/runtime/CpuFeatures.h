// The x86 features a compiled module may require (AVX-512 IFMA for
// cpu-avx512), read with cpuid. FHEC_MASK_CPU_FEATURES (a comma-separated
// list, e.g. "avx512ifma") hides features, so that tests can check how fhec
// behaves on a CPU without them.
#pragma once
#include <string>
#include <vector>

namespace fhec::rt {

/// True if this CPU has `feature` (avx512f, avx512dq, avx512vl, avx512ifma,
/// bmi2, adx) and FHEC_MASK_CPU_FEATURES does not hide it. Unknown names: false.
bool cpuHas(const std::string &feature);

/// The features of `required` this CPU lacks (empty: it can run the module).
std::vector<std::string> missingCpuFeatures(const std::vector<std::string> &required);

} // namespace fhec::rt
