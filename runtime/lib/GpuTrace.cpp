// The recorder of the GPU cost model: the fhec_rt_gpu_trace_* hooks of
// instrumented cuda-emu kernels (conversion/GPUToRuntime/GPUEmuTrace.cpp)
// buffer each emulated thread's accesses; at the end of a launch the sampled
// blocks are reduced per warp to sectors, wavefronts and issue slots
// (fhec/runtime/GpuTrace.h, docs/gpu-model.md).
#include "fhec/runtime/GpuTrace.h"

#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Profile.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstdio>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>
#include <unordered_map>
#include <unordered_set>

namespace fhec::rt {
namespace {

constexpr int64_t kWarpThreads = 32, kSectorBytes = 32, kSharedBanks = 32, kBankBytes = 4;

struct Access {
  int32_t site, occurrence, bytes, kind;
  int64_t address;
};

/// Calls f(u) for each unit u (address / unitBytes) that bytes [address, address + bytes) touch.
template <typename F> void forEachUnit(int64_t address, int64_t bytes, int64_t unitBytes, F f) {
  for (int64_t u = address / unitBytes; u <= (address + bytes - 1) / unitBytes; ++u) f(u);
}

/// A set of 32-byte sectors: bitmaps of 4096 sectors (128 KiB) per page.
class SectorSet {
public:
  void insert(int64_t sector) {
    int64_t page = sector >> 12;
    if (page != lastPage_ || !last_) {
      last_ = &pages_[page];
      lastPage_ = page;
    }
    (*last_)[size_t(sector >> 6) & 63] |= uint64_t(1) << (sector & 63);
  }
  void merge(const SectorSet &other) {
    for (const auto &[page, bits] : other.pages_) {
      auto &mine = pages_[page];
      for (size_t i = 0; i < bits.size(); ++i) mine[i] |= bits[i];
    }
    last_ = nullptr;
  }
  template <typename F> void forEach(F f) const {
    for (const auto &[page, bits] : pages_)
      for (size_t i = 0; i < bits.size(); ++i)
        for (uint64_t w = bits[i]; w; w &= w - 1) f((page << 12) | int64_t(i << 6) | __builtin_ctzll(w));
  }
  int64_t count() const {
    int64_t n = 0;
    for (const auto &[page, bits] : pages_)
      for (uint64_t w : bits) n += __builtin_popcountll(w);
    return n;
  }
  void clear() {
    pages_.clear();
    last_ = nullptr;
  }

private:
  std::unordered_map<int64_t, std::array<uint64_t, 64>> pages_;
  int64_t lastPage_ = 0;
  std::array<uint64_t, 64> *last_ = nullptr;
};

/// The global sectors every thread of a traced launch reads and writes, per
/// host thread (the footprint is their union). Under a sampledOnly trace, per
/// block instead (the footprint is estimated from them): tReadInto and
/// tWrittenInto point into tBlockSets while a thread of `block` runs.
thread_local bool tFootprintOn = false, tPerBlock = false;
thread_local SectorSet tRead, tWritten;
using ReadWritten = std::pair<SectorSet, SectorSet>;
thread_local std::map<int64_t, ReadWritten> tBlockSets;
thread_local SectorSet *tReadInto = nullptr, *tWrittenInto = nullptr;

/// The blocks a sampledOnly trace runs: a product of a_d evenly spaced
/// coordinates in each grid dimension d, with a_d >= 2 wherever the grid has
/// two or more, and about `wanted` blocks in all (the longest dimensions get
/// the rest), so that the sample shows which data blocks share along each
/// dimension (estimateSectors).
std::vector<int64_t> productSample(const int64_t grid[3], int64_t wanted, int64_t perDim[3]) {
  int64_t total = 1;
  for (int d = 0; d < 3; ++d) total *= perDim[d] = std::min<int64_t>(grid[d], 2);
  while (total < wanted) {
    int best = -1;
    for (int d = 0; d < 3; ++d)
      if (perDim[d] < grid[d] && (best < 0 || grid[d] / perDim[d] > grid[best] / perDim[best])) best = d;
    if (best < 0 || total / perDim[best] * (perDim[best] + 1) > wanted) break;
    total = total / perDim[best] * (perDim[best] + 1);
    ++perDim[best];
  }
  std::vector<int64_t> blocks;
  for (int64_t z = 0; z < perDim[2]; ++z)
    for (int64_t y = 0; y < perDim[1]; ++y)
      for (int64_t x = 0; x < perDim[0]; ++x)
        blocks.push_back((z * grid[2] / perDim[2] * grid[1] + y * grid[1] / perDim[1]) * grid[0] +
                         x * grid[0] / perDim[0]);
  std::sort(blocks.begin(), blocks.end());
  return blocks;
}

/// A grid's distinct sectors estimated from the sets of the blocks of a
/// product sample (productSample; keyed by linear block index): a sector
/// that sampled blocks with two or more coordinates in dimension d touch is
/// shared along d (a table of its prime, read by every coefficient's block),
/// one that a single coordinate's blocks touch stands for grid[d] / perDim[d]
/// sectors, one per coordinate.
int64_t estimateSectors(const std::vector<std::pair<int64_t, const SectorSet *>> &blocks, const int64_t grid[3],
                        const int64_t perDim[3]) {
  struct Seen {
    int64_t first[3] = {-1, -1, -1};
    bool several[3] = {false, false, false};
  };
  std::unordered_map<int64_t, Seen> seen;
  for (const auto &[block, set] : blocks) {
    const int64_t coord[3] = {block % grid[0], block / grid[0] % grid[1], block / (grid[0] * grid[1])};
    set->forEach([&](int64_t sector) {
      Seen &s = seen[sector];
      for (int d = 0; d < 3; ++d) {
        if (s.first[d] < 0) s.first[d] = coord[d];
        else if (s.first[d] != coord[d]) s.several[d] = true;
      }
    });
  }
  double total = 0;
  for (const auto &[sector, s] : seen) {
    double weight = 1;
    for (int d = 0; d < 3; ++d)
      if (!s.several[d]) weight *= double(grid[d]) / double(perDim[d]);
    total += weight;
  }
  return int64_t(total + 0.5);
}

/// cuda-emu's device allocations ([address, end)), and the launch's copy of
/// them that its host threads check accesses against.
std::mutex gMemoryMutex;
std::map<uint64_t, uint64_t> gDeviceMemory;
using MemoryRanges = std::vector<std::pair<uint64_t, uint64_t>>;
thread_local const MemoryRanges *tDeviceMemory = nullptr;
thread_local int64_t tOutside = 0;
thread_local std::string tFirstOutside;

/// The allocation starting at or below `address`, or null.
const std::pair<uint64_t, uint64_t> *allocationBelow(const MemoryRanges &ranges, uint64_t address) {
  auto it = std::upper_bound(ranges.begin(), ranges.end(), std::make_pair(address, UINT64_MAX));
  return it == ranges.begin() ? nullptr : &*std::prev(it);
}

std::string describeOutside(const MemoryRanges &ranges, uint64_t address) {
  const auto *a = allocationBelow(ranges, address);
  if (!a) return "below every device allocation";
  // (An access that straddles the end starts 0 words past it.)
  return std::to_string((int64_t(address) - int64_t(a->second)) / 8) +
         " words past the end of a device allocation of " + std::to_string((a->second - a->first) / 8) +
         " words (" + std::to_string((address - a->first) / 8) + " words from its start)";
}

/// The calling emulated thread's records (only while it runs a traced block).
struct ThreadRecord {
  bool on = false;
  const char *kernel = nullptr;
  std::vector<Access> accesses;
  std::vector<int32_t> occurrences;  // per site
  int64_t issueSlots = 0;
};
thread_local ThreadRecord tRecord;

std::atomic<bool> gActive{false};
std::mutex gMutex;  // guards the three below
int64_t gBlocksPerLaunch = 8;
bool gSampledOnly = false;
std::vector<GpuLaunchTrace> gLaunches;

struct Warp {
  std::vector<Access> accesses;
  int64_t maxIssueSlots = 0;
};

} // namespace

namespace gputrace {

class LaunchRecorder {
public:
  GpuLaunchTrace trace;
  std::vector<int64_t> sampled;  // sorted block indices
  int64_t perDim[3] = {1, 1, 1};  // under sampledOnly: the product sample's coordinates per dimension
  std::mutex mutex;
  std::map<std::pair<int64_t, int64_t>, Warp> warps;  // (block, warp)
  const char *kernel = nullptr;
  SectorSet read, written;
  bool sampledOnly = false;
  std::map<int64_t, ReadWritten> blockSets;  // under sampledOnly: each traced block's
  MemoryRanges deviceMemory;  // sorted
};

static void destroy(LaunchRecorder *r) { delete r; }

std::unique_ptr<LaunchRecorder, void (*)(LaunchRecorder *)> beginLaunch(const int64_t grid[3],
                                                                        const int64_t block[3]) {
  std::unique_ptr<LaunchRecorder, void (*)(LaunchRecorder *)> r(nullptr, destroy);
  if (!gActive.load(std::memory_order_acquire)) return r;
  r.reset(new LaunchRecorder);
  GpuLaunchTrace &t = r->trace;
  std::copy(grid, grid + 3, t.grid);
  std::copy(block, block + 3, t.block);
  t.blocks = grid[0] * grid[1] * grid[2];
  abi::Phase phase = currentPhase();
  if (phase != abi::Phase::Count) t.phase = abi::phaseName(phase);
  int64_t samples;
  {
    std::lock_guard<std::mutex> lock(gMutex);
    samples = std::min(t.blocks, gBlocksPerLaunch);
    r->sampledOnly = gSampledOnly;
  }
  if (r->sampledOnly) {
    r->sampled = productSample(grid, samples, r->perDim);
  } else {
    // Evenly spaced over the grid, the first block included.
    for (int64_t i = 0; i < samples; ++i) r->sampled.push_back(i * t.blocks / samples);
    r->sampled.erase(std::unique(r->sampled.begin(), r->sampled.end()), r->sampled.end());
  }
  std::lock_guard<std::mutex> lock(gMemoryMutex);
  r->deviceMemory.assign(gDeviceMemory.begin(), gDeviceMemory.end());
  return r;
}

bool traced(const LaunchRecorder &launch, int64_t block) {
  return std::binary_search(launch.sampled.begin(), launch.sampled.end(), block);
}

bool sampledOnly(const LaunchRecorder &launch) { return launch.sampledOnly; }

void beginHostThread(const LaunchRecorder &launch) {
  tFootprintOn = true;
  tPerBlock = launch.sampledOnly;
  tBlockSets.clear();
  tRead.clear();
  tWritten.clear();
  tDeviceMemory = &launch.deviceMemory;
  tOutside = 0;
  tFirstOutside.clear();
}

void endHostThread(LaunchRecorder &launch) {
  tFootprintOn = false;
  tDeviceMemory = nullptr;
  std::lock_guard<std::mutex> lock(launch.mutex);
  launch.read.merge(tRead);
  launch.written.merge(tWritten);
  tRead.clear();
  tWritten.clear();
  for (auto &[block, sets] : tBlockSets) {
    ReadWritten &mine = launch.blockSets[block];
    mine.first.merge(sets.first);
    mine.second.merge(sets.second);
  }
  tBlockSets.clear();
  tPerBlock = false;
  launch.trace.outsideDeviceMemory += tOutside;
  if (launch.trace.firstOutside.empty()) launch.trace.firstOutside = tFirstOutside;
}

void beginThread(int64_t block) {
  if (tPerBlock) {
    ReadWritten &sets = tBlockSets[block];
    tReadInto = &sets.first;
    tWrittenInto = &sets.second;
  }
  tRecord.on = true;
  tRecord.kernel = nullptr;
  tRecord.accesses.clear();
  tRecord.occurrences.clear();
  tRecord.issueSlots = 0;
}

void endThread(LaunchRecorder &launch, int64_t block, int64_t thread) {
  ThreadRecord &r = tRecord;
  r.on = false;
  tReadInto = tWrittenInto = nullptr;
  std::lock_guard<std::mutex> lock(launch.mutex);
  if (r.kernel) launch.kernel = r.kernel;
  Warp &w = launch.warps[{block, thread / kWarpThreads}];
  w.accesses.insert(w.accesses.end(), r.accesses.begin(), r.accesses.end());
  w.maxIssueSlots = std::max(w.maxIssueSlots, r.issueSlots);
  r.accesses.clear();
}

// One warp request: the accesses of one site's k-th execution by the warp's threads.
static void reduceRequest(GpuLaunchTrace &t, const Access *begin, const Access *end,
                          std::unordered_set<int64_t> &blockSectors) {
  const auto space = abi::GpuTraceSpace(begin->kind / 2);
  int64_t bytes = 0;
  for (const Access *a = begin; a != end; ++a) bytes += a->bytes;
  if (space == abi::GpuTraceSpace::Local) {
    t.localRequests += 1;
    t.localBytes += bytes;
    t.localSectors += (bytes + kSectorBytes - 1) / kSectorBytes;
    return;
  }
  if (space == abi::GpuTraceSpace::Global) {
    std::vector<int64_t> sectors;
    std::vector<std::pair<int64_t, int64_t>> ranges;  // [first, last) byte
    for (const Access *a = begin; a != end; ++a) {
      forEachUnit(a->address, a->bytes, kSectorBytes, [&](int64_t s) { sectors.push_back(s); });
      ranges.push_back({a->address, a->address + a->bytes});
    }
    std::sort(sectors.begin(), sectors.end());
    sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
    // Distinct bytes: threads reading the same word (a broadcast) use it once.
    std::sort(ranges.begin(), ranges.end());
    int64_t distinct = 0, covered = INT64_MIN;
    for (auto [first, last] : ranges) {
      first = std::max(first, covered);
      if (last > first) distinct += last - first;
      covered = std::max(covered, last);
    }
    t.globalRequests += 1;
    t.globalBytes += distinct;
    t.globalSectors += int64_t(sectors.size());
    blockSectors.insert(sectors.begin(), sectors.end());
    return;
  }
  // Shared: each bank serves one distinct 4-byte word per wavefront.
  std::vector<int64_t> words;
  for (const Access *a = begin; a != end; ++a)
    forEachUnit(a->address, a->bytes, kBankBytes, [&](int64_t w) { words.push_back(w); });
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  int64_t perBank[kSharedBanks] = {};
  for (int64_t w : words) ++perBank[w % kSharedBanks];
  t.sharedRequests += 1;
  t.sharedWavefronts += std::max<int64_t>(1, *std::max_element(perBank, perBank + kSharedBanks));
  t.sharedIdealWavefronts += std::max<int64_t>(1, (int64_t(words.size()) + kSharedBanks - 1) / kSharedBanks);
}

void endLaunch(LaunchRecorder &launch) {
  if (!launch.kernel) return;  // a module compiled without --gpu-trace
  GpuLaunchTrace &t = launch.trace;
  t.kernel = launch.kernel;
  t.tracedBlocks = int64_t(launch.sampled.size());
  // Warps in block order: the distinct sectors of each block (what its SM's
  // L1 asks of the L2), summed.
  std::unordered_set<int64_t> blockSectors;
  int64_t block = -1;
  for (auto &[key, warp] : launch.warps) {
    if (key.first != block) {
      t.globalBlockSectors += int64_t(blockSectors.size());
      blockSectors.clear();
      block = key.first;
    }
    t.tracedWarps += 1;
    t.issueSlots += warp.maxIssueSlots;
    t.maxWarpIssueSlots = std::max(t.maxWarpIssueSlots, warp.maxIssueSlots);
    std::vector<Access> &a = warp.accesses;
    std::stable_sort(a.begin(), a.end(), [](const Access &x, const Access &y) {
      return std::tie(x.site, x.occurrence) < std::tie(y.site, y.occurrence);
    });
    for (size_t i = 0; i < a.size();) {
      size_t j = i + 1;
      while (j < a.size() && a[j].site == a[i].site && a[j].occurrence == a[i].occurrence) ++j;
      reduceRequest(t, a.data() + i, a.data() + j, blockSectors);
      i = j;
    }
  }
  t.globalBlockSectors += int64_t(blockSectors.size());
  if (launch.sampledOnly) {
    std::vector<SectorSet> both(launch.blockSets.size());
    std::vector<std::pair<int64_t, const SectorSet *>> read, written, footprint;
    size_t i = 0;
    for (const auto &[block, sets] : launch.blockSets) {
      both[i].merge(sets.first);
      both[i].merge(sets.second);
      read.push_back({block, &sets.first});
      written.push_back({block, &sets.second});
      footprint.push_back({block, &both[i++]});
    }
    t.globalFootprintSectors = estimateSectors(footprint, t.grid, launch.perDim);
    t.globalReadSectors = estimateSectors(read, t.grid, launch.perDim);
    t.globalWrittenSectors = estimateSectors(written, t.grid, launch.perDim);
    t.footprintEstimated = t.tracedBlocks < t.blocks;
  } else {
    SectorSet footprint;
    footprint.merge(launch.read);
    footprint.merge(launch.written);
    t.globalFootprintSectors = footprint.count();
    t.globalReadSectors = launch.read.count();
    t.globalWrittenSectors = launch.written.count();
  }
  std::lock_guard<std::mutex> lock(gMutex);
  gLaunches.push_back(std::move(t));
}

} // namespace gputrace

void noteDeviceMemory(uint64_t address, size_t bytes) {
  std::lock_guard<std::mutex> lock(gMemoryMutex);
  gDeviceMemory[address] = address + bytes;
}

void forgetDeviceMemory(uint64_t address) {
  std::lock_guard<std::mutex> lock(gMemoryMutex);
  gDeviceMemory.erase(address);
}

void startGpuTrace(int64_t blocksPerLaunch, bool sampledOnly) {
  if (blocksPerLaunch < 1) throw Error("startGpuTrace: blocksPerLaunch must be at least 1");
  std::lock_guard<std::mutex> lock(gMutex);
  gBlocksPerLaunch = blocksPerLaunch;
  gSampledOnly = sampledOnly;
  gLaunches.clear();
  gActive.store(true, std::memory_order_release);
}

std::vector<GpuLaunchTrace> stopGpuTrace() {
  gActive.store(false, std::memory_order_release);
  std::lock_guard<std::mutex> lock(gMutex);
  return std::exchange(gLaunches, {});
}

// A JSON string literal of `s` (kernel names are identifiers, but escape anyway).
static std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string gpuTraceJson(const std::vector<GpuLaunchTrace> &launches) {
  std::string out = "[";
  for (size_t i = 0; i < launches.size(); ++i) {
    const GpuLaunchTrace &t = launches[i];
    auto triple = [](const int64_t (&v)[3]) {
      return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + "]";
    };
    const std::pair<const char *, int64_t> counts[] = {
        {"blocks", t.blocks},
        {"traced_blocks", t.tracedBlocks},
        {"traced_warps", t.tracedWarps},
        {"issue_slots", t.issueSlots},
        {"max_warp_issue_slots", t.maxWarpIssueSlots},
        {"global_requests", t.globalRequests},
        {"global_sectors", t.globalSectors},
        {"global_bytes", t.globalBytes},
        {"global_block_sectors", t.globalBlockSectors},
        {"global_footprint_sectors", t.globalFootprintSectors},
        {"global_read_sectors", t.globalReadSectors},
        {"global_written_sectors", t.globalWrittenSectors},
        {"local_requests", t.localRequests},
        {"local_sectors", t.localSectors},
        {"local_bytes", t.localBytes},
        {"shared_requests", t.sharedRequests},
        {"shared_wavefronts", t.sharedWavefronts},
        {"shared_ideal_wavefronts", t.sharedIdealWavefronts},
        {"outside_device_memory", t.outsideDeviceMemory},
    };
    out += std::string(i ? "," : "") + "\n  {\"kernel\": " + jsonString(t.kernel) + ", \"phase\": " +
           jsonString(t.phase) + ", \"grid\": " + triple(t.grid) + ", \"block\": " + triple(t.block);
    for (const auto &[name, value] : counts) out += std::string(", \"") + name + "\": " + std::to_string(value);
    out += std::string(", \"footprint_estimated\": ") + (t.footprintEstimated ? "true" : "false");
    out += "}";
  }
  return out + "\n]\n";
}

} // namespace fhec::rt

extern "C" {

void fhec_rt_gpu_trace_kernel(const char *kernel) {
  if (fhec::rt::tRecord.on) fhec::rt::tRecord.kernel = kernel;
}

void fhec_rt_gpu_trace_access(int32_t site, int64_t address, int32_t bytes, int32_t kind) {
  if (bytes <= 0) return;
  if (fhec::rt::tFootprintOn && kind / 2 == int32_t(fhec::abi::GpuTraceSpace::Global)) {
    fhec::rt::SectorSet *into = kind % 2 ? fhec::rt::tWrittenInto : fhec::rt::tReadInto;
    fhec::rt::SectorSet &rw = into ? *into : kind % 2 ? fhec::rt::tWritten : fhec::rt::tRead;
    fhec::rt::forEachUnit(address, bytes, fhec::rt::kSectorBytes, [&](int64_t s) { rw.insert(s); });
    if (const auto *memory = fhec::rt::tDeviceMemory) {
      const auto *a = fhec::rt::allocationBelow(*memory, uint64_t(address));
      if ((!a || uint64_t(address) + uint64_t(bytes) > a->second) && fhec::rt::tOutside++ == 0)
        fhec::rt::tFirstOutside = fhec::rt::describeOutside(*memory, uint64_t(address));
    }
  }
  fhec::rt::ThreadRecord &r = fhec::rt::tRecord;
  if (!r.on || site < 0) return;
  if (size_t(site) >= r.occurrences.size()) r.occurrences.resize(size_t(site) + 1, 0);
  r.accesses.push_back({site, r.occurrences[size_t(site)]++, bytes, kind, address});
}

void fhec_rt_gpu_trace_ops(int32_t weight) {
  if (fhec::rt::tRecord.on) fhec::rt::tRecord.issueSlots += weight;
}

} // extern "C"
