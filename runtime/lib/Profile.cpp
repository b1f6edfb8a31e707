#include "fhec/runtime/Profile.h"

#include <chrono>

namespace {
using Clock = std::chrono::steady_clock;
fhec::rt::PhaseTimes gTimes{};
Clock::time_point gStart[size_t(fhec::abi::Phase::Count)];

bool valid(int32_t phase) { return phase >= 0 && phase < int32_t(fhec::abi::Phase::Count); }
} // namespace

extern "C" void fhec_rt_phase_begin(int32_t phase) {
  if (valid(phase)) gStart[phase] = Clock::now();
}

extern "C" void fhec_rt_phase_end(int32_t phase) {
  if (valid(phase)) gTimes[phase] += std::chrono::duration<double>(Clock::now() - gStart[phase]).count();
}

namespace fhec::rt {
void resetPhaseTimes() { gTimes = {}; }
PhaseTimes phaseTimes() { return gTimes; }
} // namespace fhec::rt
