// Per-phase timers (CRT, NTT, Hadamard, iNTT, iCRT, other): compiled modules
// call fhec_rt_phase_begin/end around every kernel; the runtime sums wall time
// (GPU targets: the kernels' time from events, see PhaseRecorder). A kernel
// that spans several phases also calls fhec_rt_phase_lap from its threads
// after each stage; its wall time is then split in proportion to the laps.
#pragma once
#include "fhec/runtime/Abi.h"

#include <array>

extern "C" {
void fhec_rt_phase_begin(int32_t phase);
void fhec_rt_phase_end(int32_t phase);
void fhec_rt_phase_lap(int32_t phase);
}

namespace fhec::rt {

/// Accumulated seconds per phase since the last reset.
using PhaseTimes = std::array<double, size_t(abi::Phase::Count)>;
void resetPhaseTimes();
PhaseTimes phaseTimes();
/// Adds to a phase's time (recorders that learn it later, e.g. from GPU events).
void addPhaseSeconds(abi::Phase phase, double seconds);

/// Takes the phase markers instead of the host clock while installed: a GPU's
/// kernels run after their launches return, so the CUDA device records events
/// in the launch stream and adds their times once the kernels are done.
class PhaseRecorder {
public:
  virtual ~PhaseRecorder() = default;
  virtual void begin(abi::Phase phase) = 0;
  virtual void end(abi::Phase phase) = 0;
};
/// The phase between the calling thread's latest fhec_rt_phase_begin and its
/// end, or Phase::Count outside any (the GPU trace labels launches with it).
abi::Phase currentPhase();

/// Installs `recorder` for the calling thread (null: the host clock again);
/// returns the previous one.
PhaseRecorder *setPhaseRecorder(PhaseRecorder *recorder);

} // namespace fhec::rt
