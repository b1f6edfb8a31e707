// The phase timers: a kernel's wall time goes to its phase, or, for a kernel
// of several phases (fhe.fused rows), is split in proportion to the laps its
// threads report.
#include "fhec/runtime/Profile.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace rt = fhec::rt;

namespace {

constexpr size_t kNtt = size_t(fhec::abi::Phase::Ntt), kHadamard = size_t(fhec::abi::Phase::Hadamard),
                 kIntt = size_t(fhec::abi::Phase::Intt);

void busy(double ms) {
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(ms);
  while (std::chrono::steady_clock::now() < end) {
  }
}

void sleep(double ms) { std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms)); }

double sum(const rt::PhaseTimes &t) {
  double s = 0;
  for (double x : t) s += x;
  return s;
}

TEST(PhaseTimers, WholeKernelWithoutLaps) {
  rt::resetPhaseTimes();
  fhec_rt_phase_begin(int32_t(kNtt));
  busy(4);
  fhec_rt_phase_end(int32_t(kNtt));
  rt::PhaseTimes t = rt::phaseTimes();
  EXPECT_GE(t[kNtt], 0.004);
  EXPECT_EQ(t[kNtt], sum(t));
}

TEST(PhaseTimers, LapsSplitTheWallTime) {
  rt::resetPhaseTimes();
  auto start = std::chrono::steady_clock::now();
  fhec_rt_phase_begin(int32_t(kHadamard));
  // Two threads, each a row of three stages of 20, 2 and 80 ms (sleeps: a
  // loaded machine stretches them, but not by 30 ms).
  auto row = [] {
    fhec_rt_phase_lap(-1);
    sleep(20);
    fhec_rt_phase_lap(int32_t(kNtt));
    sleep(2);
    fhec_rt_phase_lap(int32_t(kHadamard));
    sleep(80);
    fhec_rt_phase_lap(int32_t(kIntt));
  };
  std::thread a(row), b(row);
  a.join();
  b.join();
  fhec_rt_phase_end(int32_t(kHadamard));
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rt::PhaseTimes t = rt::phaseTimes();
  // The kernel's wall time, all of it, in the laps' phases and no other.
  double wall = sum(t);
  EXPECT_GE(wall, 0.102);
  EXPECT_LE(wall, elapsed);
  EXPECT_DOUBLE_EQ(wall, t[kNtt] + t[kHadamard] + t[kIntt]);
  // In proportion: 20 : 2 : 80.
  EXPECT_GT(t[kIntt], 2.5 * t[kNtt]);
  EXPECT_GT(t[kNtt], 2.5 * t[kHadamard]);
  EXPECT_GT(t[kHadamard], 0);
  // The laps are consumed: the next kernel counts whole again.
  rt::resetPhaseTimes();
  fhec_rt_phase_begin(int32_t(kNtt));
  busy(1);
  fhec_rt_phase_end(int32_t(kNtt));
  EXPECT_EQ(rt::phaseTimes()[kNtt], sum(rt::phaseTimes()));
}

TEST(PhaseTimers, OutOfRangePhasesAreIgnored) {
  rt::resetPhaseTimes();
  fhec_rt_phase_begin(int32_t(kNtt));
  fhec_rt_phase_lap(-1);
  fhec_rt_phase_lap(int32_t(fhec::abi::Phase::Count));
  fhec_rt_phase_lap(1 << 20);
  fhec_rt_phase_end(int32_t(kNtt));
  rt::PhaseTimes t = rt::phaseTimes();
  EXPECT_EQ(t[kNtt], sum(t));
}

} // namespace
