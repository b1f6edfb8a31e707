#include "fhec/runtime/CpuFeatures.h"

#include <cstdlib>
#include <sstream>

namespace fhec::rt {

namespace {
bool masked(const std::string &feature) {
  const char *mask = std::getenv("FHEC_MASK_CPU_FEATURES");
  if (!mask) return false;
  std::istringstream is(mask);
  std::string f;
  while (std::getline(is, f, ','))
    if (f == feature) return true;
  return false;
}

bool detect(const std::string &f) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (f == "avx512f") return __builtin_cpu_supports("avx512f");
  if (f == "avx512dq") return __builtin_cpu_supports("avx512dq");
  if (f == "avx512vl") return __builtin_cpu_supports("avx512vl");
  if (f == "avx512ifma") return __builtin_cpu_supports("avx512ifma");
  if (f == "bmi2") return __builtin_cpu_supports("bmi2");
  if (f == "adx") return __builtin_cpu_supports("adx");
#endif
  (void)f;
  return false;
}
} // namespace

bool cpuHas(const std::string &feature) { return !masked(feature) && detect(feature); }

std::vector<std::string> missingCpuFeatures(const std::vector<std::string> &required) {
  std::vector<std::string> missing;
  for (const auto &f : required)
    if (!cpuHas(f)) missing.push_back(f);
  return missing;
}

} // namespace fhec::rt
