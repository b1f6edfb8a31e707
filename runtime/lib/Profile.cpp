#include "fhec/runtime/Profile.h"

#include <chrono>
#include <utility>

namespace {
using Clock = std::chrono::steady_clock;
fhec::rt::PhaseTimes gTimes{};
Clock::time_point gStart[size_t(fhec::abi::Phase::Count)];

// Per thread: the hooks run on the thread that called the module's entry.
thread_local fhec::rt::PhaseRecorder *gRecorder = nullptr;

bool valid(int32_t phase) { return phase >= 0 && phase < int32_t(fhec::abi::Phase::Count); }
} // namespace

extern "C" void fhec_rt_phase_begin(int32_t phase) {
  if (!valid(phase)) return;
  if (gRecorder)
    gRecorder->begin(fhec::abi::Phase(phase));
  else
    gStart[phase] = Clock::now();
}

extern "C" void fhec_rt_phase_end(int32_t phase) {
  if (!valid(phase)) return;
  if (gRecorder)
    gRecorder->end(fhec::abi::Phase(phase));
  else
    gTimes[phase] += std::chrono::duration<double>(Clock::now() - gStart[phase]).count();
}

namespace fhec::rt {
void resetPhaseTimes() { gTimes = {}; }
PhaseTimes phaseTimes() { return gTimes; }
void addPhaseSeconds(abi::Phase phase, double seconds) {
  if (valid(int32_t(phase))) gTimes[size_t(phase)] += seconds;
}
PhaseRecorder *setPhaseRecorder(PhaseRecorder *recorder) { return std::exchange(gRecorder, recorder); }
} // namespace fhec::rt
