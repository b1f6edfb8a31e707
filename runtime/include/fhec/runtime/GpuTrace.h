// The recorder of the GPU cost model (docs/gpu-model.md): cuda-emu modules
// compiled with --gpu-trace report every memory access and basic block of
// their kernels; while a trace runs, each launch records a few sampled blocks
// and reduces them per warp (32 consecutive threads of a block, as on the GPU)
// to the counts below. bench/gpu/model.py turns them into time estimates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fhec::rt {

/// One launch's counts, summed over its traced blocks. A warp's request is
/// one memory instruction as the warp issues it: the k-th execution of an
/// access site by each of its threads (SIMT without divergence).
struct GpuLaunchTrace {
  std::string kernel;
  std::string phase;  ///< the profiler's phase around the launch (CRT, NTT, ...), or ""
  int64_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
  int64_t blocks = 0;        ///< blocks of the grid
  int64_t tracedBlocks = 0;  ///< blocks recorded (evenly spaced over the grid)
  int64_t tracedWarps = 0;
  /// Issue slots (32-bit instruction slots of sm_90) of the traced warps: per
  /// warp, the most any of its threads issued; and the longest warp's.
  int64_t issueSlots = 0, maxWarpIssueSlots = 0;
  /// Global memory: warp requests, 32-byte sectors they touch, distinct bytes
  /// the threads asked for (a word several threads read counts once), and the
  /// distinct sectors of each traced block, summed (what an SM's L1 passes on).
  int64_t globalRequests = 0, globalSectors = 0, globalBytes = 0, globalBlockSectors = 0;
  /// Distinct global sectors of the whole grid, every block (the launch's
  /// footprint), and of them the ones it reads and the ones it writes: a
  /// sector read and written (an in-place NTT level) crosses DRAM twice.
  int64_t globalFootprintSectors = 0, globalReadSectors = 0, globalWrittenSectors = 0;
  /// Whether those three are estimated from the traced blocks alone (a trace
  /// that runs only its sampled blocks): the sectors that two or more traced
  /// blocks touch (tables every block reads) count once, the others scale by
  /// blocks / tracedBlocks.
  bool footprintEstimated = false;
  /// Local memory (per-thread arrays), laid out interleaved by the GPU: a
  /// request of b bytes per thread touches ceil(threads * b / 32) sectors.
  int64_t localRequests = 0, localSectors = 0, localBytes = 0;
  /// Shared memory: warp requests, wavefronts with bank conflicts (the most
  /// distinct 4-byte words any one of the 32 banks serves) and without.
  int64_t sharedRequests = 0, sharedWavefronts = 0, sharedIdealWavefronts = 0;
  /// Global accesses of any block that fall outside the device's allocations
  /// (a GPU faults on them, or reads another buffer), and the first one's
  /// address and nearest allocation, in words.
  int64_t outsideDeviceMemory = 0;
  std::string firstOutside;
};

/// Starts recording the launches of traced modules, `blocksPerLaunch` blocks
/// each (all of a smaller grid). With `sampledOnly`, the emulator runs only
/// those blocks, the rest not at all: the launches' results are then not the
/// program's, and their footprints are estimated (footprintEstimated); what
/// a cost model needs of a program too long to emulate whole (a bootstrap at
/// N = 2^16). Throws rt::Error when blocksPerLaunch < 1.
void startGpuTrace(int64_t blocksPerLaunch = 8, bool sampledOnly = false);
/// Stops recording and returns the launches since startGpuTrace, in launch order.
std::vector<GpuLaunchTrace> stopGpuTrace();
/// The launches as a JSON array of objects with the fields above.
std::string gpuTraceJson(const std::vector<GpuLaunchTrace> &launches);

/// cuda-emu's device memory (runtime/lib/Device.cpp): each allocation is
/// noted, so that a trace checks every global access against them.
void noteDeviceMemory(uint64_t address, size_t bytes);
void forgetDeviceMemory(uint64_t address);

namespace gputrace {
/// The emulator's side (runtime/lib/GpuEmu.cpp): one launch in progress.
class LaunchRecorder;
/// A recorder for a launch of this grid and block, or null when no trace runs.
std::unique_ptr<LaunchRecorder, void (*)(LaunchRecorder *)> beginLaunch(const int64_t grid[3],
                                                                        const int64_t block[3]);
/// Whether the launch records `block` (a linear block index).
bool traced(const LaunchRecorder &launch, int64_t block);
/// Whether the launch runs only its recorded blocks (startGpuTrace's sampledOnly).
bool sampledOnly(const LaunchRecorder &launch);
/// Around the work of one host thread of a traced launch: every emulated
/// thread it runs adds the global sectors it touches to the footprint, and
/// its accesses outside the device's memory to the launch's count.
void beginHostThread(const LaunchRecorder &launch);
void endHostThread(LaunchRecorder &launch);
/// Around one emulated thread of a traced block (thread: the linear index in its block).
void beginThread(int64_t block);
void endThread(LaunchRecorder &launch, int64_t block, int64_t thread);
/// Reduces the launch's records and adds them to the trace.
void endLaunch(LaunchRecorder &launch);
} // namespace gputrace

} // namespace fhec::rt
