// Per-phase timers (CRT, NTT, Hadamard, iNTT, iCRT, other): compiled modules
// call fhec_rt_phase_begin/end around every kernel; the runtime sums wall time.
#pragma once
#include "fhec/runtime/Abi.h"

#include <array>

extern "C" {
void fhec_rt_phase_begin(int32_t phase);
void fhec_rt_phase_end(int32_t phase);
}

namespace fhec::rt {

/// Accumulated seconds per phase since the last reset.
using PhaseTimes = std::array<double, size_t(abi::Phase::Count)>;
void resetPhaseTimes();
PhaseTimes phaseTimes();

} // namespace fhec::rt
