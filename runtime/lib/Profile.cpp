#include "fhec/runtime/Profile.h"

#include <atomic>
#include <chrono>
#include <utility>

namespace {
using Clock = std::chrono::steady_clock;
fhec::rt::PhaseTimes gTimes{};
Clock::time_point gStart[size_t(fhec::abi::Phase::Count)];

// Per thread: the hooks run on the thread that called the module's entry.
thread_local fhec::rt::PhaseRecorder *gRecorder = nullptr;
thread_local int32_t tPhase = int32_t(fhec::abi::Phase::Count);

// Laps of the running multi-phase kernel (nanoseconds per phase, summed over
// its threads) and each thread's clock.
std::atomic<int64_t> gLaps[size_t(fhec::abi::Phase::Count)];
thread_local Clock::time_point tLap;

bool valid(int32_t phase) { return phase >= 0 && phase < int32_t(fhec::abi::Phase::Count); }
} // namespace

extern "C" void fhec_rt_phase_begin(int32_t phase) {
  if (!valid(phase)) return;
  tPhase = phase;
  if (gRecorder)
    gRecorder->begin(fhec::abi::Phase(phase));
  else
    gStart[phase] = Clock::now();
}

extern "C" void fhec_rt_phase_end(int32_t phase) {
  if (!valid(phase)) return;
  tPhase = int32_t(fhec::abi::Phase::Count);
  int64_t laps[size_t(fhec::abi::Phase::Count)], total = 0;
  for (size_t p = 0; p < size_t(fhec::abi::Phase::Count); ++p) total += laps[p] = gLaps[p].exchange(0);
  if (gRecorder) {
    gRecorder->end(fhec::abi::Phase(phase));
    return;
  }
  double wall = std::chrono::duration<double>(Clock::now() - gStart[phase]).count();
  if (total <= 0) {
    gTimes[phase] += wall;
    return;
  }
  // A kernel of several phases: its wall time in proportion to its laps.
  for (size_t p = 0; p < size_t(fhec::abi::Phase::Count); ++p) gTimes[p] += wall * double(laps[p]) / double(total);
}

extern "C" void fhec_rt_phase_lap(int32_t phase) {
  Clock::time_point now = Clock::now();
  if (valid(phase)) gLaps[phase] += std::chrono::duration_cast<std::chrono::nanoseconds>(now - tLap).count();
  tLap = now;
}

namespace fhec::rt {
abi::Phase currentPhase() { return abi::Phase(tPhase); }
void resetPhaseTimes() { gTimes = {}; }
PhaseTimes phaseTimes() { return gTimes; }
void addPhaseSeconds(abi::Phase phase, double seconds) {
  if (valid(int32_t(phase))) gTimes[size_t(phase)] += seconds;
}
PhaseRecorder *setPhaseRecorder(PhaseRecorder *recorder) { return std::exchange(gRecorder, recorder); }
} // namespace fhec::rt
