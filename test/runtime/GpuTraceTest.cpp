// The GPU cost model's recorder on synthetic kernels with known answers: the
// kernels below call the trace hooks as an instrumented cuda-emu kernel does
// (with made-up addresses: nothing is dereferenced) and run through the
// emulator's launch.
#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/GpuTrace.h"

#include <gtest/gtest.h>

#include <atomic>

extern "C" {
void fhec_rt_gpu_emu_launch(void (*kernel)(int64_t *), int64_t gx, int64_t gy, int64_t gz, int64_t bx, int64_t by,
                            int64_t bz, int64_t sharedBytes, int64_t *slots, int32_t flags);
int64_t fhec_rt_gpu_thread_id(int32_t dim);
int64_t fhec_rt_gpu_block_id(int32_t dim);
int64_t fhec_rt_gpu_block_dim(int32_t dim);
void fhec_rt_gpu_trace_kernel(const char *kernel);
void fhec_rt_gpu_trace_access(int32_t site, int64_t address, int32_t bytes, int32_t kind);
void fhec_rt_gpu_trace_ops(int32_t weight);
}

namespace rt = fhec::rt;
using fhec::abi::GpuTraceSpace;

namespace {

constexpr int64_t kBase = int64_t(1) << 20;  // 32-byte aligned
constexpr int32_t kLoadGlobal = int32_t(GpuTraceSpace::Global) * 2, kStoreGlobal = kLoadGlobal + 1,
                  kLoadShared = int32_t(GpuTraceSpace::Shared) * 2, kStoreLocal = int32_t(GpuTraceSpace::Local) * 2 + 1;

int64_t globalThread() { return fhec_rt_gpu_block_id(0) * fhec_rt_gpu_block_dim(0) + fhec_rt_gpu_thread_id(0); }

// out[i] = in[i], 8-byte words: every warp request reads 8 whole sectors.
void coalescedCopy(int64_t *) {
  fhec_rt_gpu_trace_kernel("copy");
  int64_t i = globalThread();
  fhec_rt_gpu_trace_access(0, kBase + 8 * i, 8, kLoadGlobal);
  fhec_rt_gpu_trace_access(1, 2 * kBase + 8 * i, 8, kStoreGlobal);
  fhec_rt_gpu_trace_ops(5);
}

// Every thread reads the same word (a broadcast): one sector, 8 useful bytes.
void broadcast(int64_t *) {
  fhec_rt_gpu_trace_kernel("broadcast");
  fhec_rt_gpu_trace_access(0, kBase + 8, 8, kLoadGlobal);
}

// in[32 i]: each thread of a warp in its own sector, 8 of its 32 bytes used.
void stride32(int64_t *) {
  fhec_rt_gpu_trace_kernel("stride32");
  int64_t i = globalThread();
  fhec_rt_gpu_trace_access(0, kBase + 8 * 32 * i, 8, kLoadGlobal);
  fhec_rt_gpu_trace_ops(3 + int32_t(fhec_rt_gpu_thread_id(0) % 32));  // lane 31 issues the most
}

// A 32x32 tile of 4-byte words read down a column: every thread of a warp in
// bank 0 (32 wavefronts); the padded tile (row pitch 33) spreads them over
// the 32 banks; a broadcast of one word is one wavefront.
void tileColumn(int64_t *) {
  fhec_rt_gpu_trace_kernel("tile");
  int64_t lane = fhec_rt_gpu_thread_id(0) % 32;
  fhec_rt_gpu_trace_access(0, 4 * 32 * lane, 4, kLoadShared);
  fhec_rt_gpu_trace_access(1, 4 * 33 * lane, 4, kLoadShared);
  fhec_rt_gpu_trace_access(2, 4 * 7, 4, kLoadShared);
}

// Three stores to an 8-byte local array element in a loop: three requests per
// warp, each ceil(32 * 8 / 32) = 8 sectors.
void localLoop(int64_t *) {
  fhec_rt_gpu_trace_kernel("local");
  for (int k = 0; k < 3; ++k) fhec_rt_gpu_trace_access(0, 0x7000 + 8 * k, 8, kStoreLocal);
}

// x[i] += 1 in place: each sector is read and written.
void inPlace(int64_t *) {
  fhec_rt_gpu_trace_kernel("inplace");
  int64_t i = globalThread();
  fhec_rt_gpu_trace_access(0, kBase + 8 * i, 8, kLoadGlobal);
  fhec_rt_gpu_trace_access(1, kBase + 8 * i, 8, kStoreGlobal);
}

void untraced(int64_t *) { fhec_rt_gpu_trace_access(0, kBase, 8, kLoadGlobal); }

// out[i] = in[i] * table[i % 32]: each block its own input and output, and a
// 256-byte table (8 sectors) that every block reads. Counts the threads that ran.
std::atomic<int64_t> gThreadsRan{0};
void copyWithTable(int64_t *) {
  fhec_rt_gpu_trace_kernel("table");
  int64_t i = globalThread();
  gThreadsRan.fetch_add(1);
  fhec_rt_gpu_trace_access(0, kBase + 8 * i, 8, kLoadGlobal);
  fhec_rt_gpu_trace_access(1, 4 * kBase + 8 * (i % 32), 8, kLoadGlobal);
  fhec_rt_gpu_trace_access(2, 2 * kBase + 8 * i, 8, kStoreGlobal);
}

std::vector<rt::GpuLaunchTrace> trace(void (*kernel)(int64_t *), int64_t blocks, int64_t threads, int64_t sample,
                                      int32_t flags = 0) {
  rt::startGpuTrace(sample);
  fhec_rt_gpu_emu_launch(kernel, blocks, 1, 1, threads, 1, 1, 0, nullptr, flags);
  return rt::stopGpuTrace();
}

TEST(GpuTrace, CoalescedCopyUsesEverySectorItTouches) {
  // With block synchronization the blocks not sampled run as fibers: in the footprint, not recorded.
  for (int32_t flags : {0, fhec::abi::kGpuEmuBlockSync}) {
    SCOPED_TRACE(flags);
    auto launches = trace(coalescedCopy, 4, 256, 2, flags);
    ASSERT_EQ(launches.size(), 1u);
    const rt::GpuLaunchTrace &t = launches[0];
    EXPECT_EQ(t.kernel, "copy");
    EXPECT_EQ(t.blocks, 4);
    EXPECT_EQ(t.tracedBlocks, 2);
    EXPECT_EQ(t.tracedWarps, 16);
    EXPECT_EQ(t.globalRequests, 16 * 2);
    EXPECT_EQ(t.globalBytes, 16 * 2 * 32 * 8);
    EXPECT_EQ(t.globalSectors, 16 * 2 * 8);  // 100% sector efficiency
    EXPECT_EQ(t.globalBlockSectors, t.globalSectors);
    EXPECT_EQ(t.globalFootprintSectors, 4 * 256 * 2 * 8 / 32);  // every block, traced or not
    EXPECT_EQ(t.globalReadSectors, 4 * 256 * 8 / 32);               // the input
    EXPECT_EQ(t.globalWrittenSectors, 4 * 256 * 8 / 32);            // the output
    EXPECT_EQ(t.issueSlots, 16 * 5);
    EXPECT_EQ(t.maxWarpIssueSlots, 5);
    EXPECT_EQ(t.sharedRequests + t.localRequests, 0);
  }
}

TEST(GpuTrace, InPlaceSectorsAreReadAndWritten) {
  auto t = trace(inPlace, 2, 256, 1);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].globalFootprintSectors, 2 * 256 * 8 / 32);
  EXPECT_EQ(t[0].globalReadSectors, t[0].globalFootprintSectors);
  EXPECT_EQ(t[0].globalWrittenSectors, t[0].globalFootprintSectors);
}

TEST(GpuTrace, Stride32TouchesASectorPerThread) {
  auto launches = trace(stride32, 2, 64, 8);
  ASSERT_EQ(launches.size(), 1u);
  const rt::GpuLaunchTrace &t = launches[0];
  EXPECT_EQ(t.tracedBlocks, 2);  // the whole grid: fewer blocks than asked for
  EXPECT_EQ(t.globalRequests, 4);
  EXPECT_EQ(t.globalSectors, 4 * 32);  // 25% sector efficiency
  EXPECT_EQ(t.globalBytes * 4, t.globalSectors * 32);
  EXPECT_EQ(t.maxWarpIssueSlots, 3 + 31);  // a warp issues as long as its longest thread
  EXPECT_EQ(t.issueSlots, 4 * 34);
  EXPECT_EQ(t.globalFootprintSectors, 2 * 64);
}

TEST(GpuTrace, BroadcastCountsItsBytesOnce) {
  auto launches = trace(broadcast, 3, 64, 2);
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_EQ(launches[0].globalRequests, 2 * 2);
  EXPECT_EQ(launches[0].globalSectors, 2 * 2);
  EXPECT_EQ(launches[0].globalBytes, 2 * 2 * 8);
  EXPECT_EQ(launches[0].globalBlockSectors, 2);      // once per traced block (its L1)
  EXPECT_EQ(launches[0].globalFootprintSectors, 1);  // once for the grid (the L2)
}

TEST(GpuTrace, SharedBankConflictsOfATileColumn) {
  // With block synchronization too: the emulator's other launch path.
  for (int32_t flags : {0, fhec::abi::kGpuEmuBlockSync}) {
    auto launches = trace(tileColumn, 1, 64, 1, flags);
    ASSERT_EQ(launches.size(), 1u);
    const rt::GpuLaunchTrace &t = launches[0];
    EXPECT_EQ(t.sharedRequests, 2 * 3);
    EXPECT_EQ(t.sharedWavefronts, 2 * (32 + 1 + 1));
    EXPECT_EQ(t.sharedIdealWavefronts, 2 * 3);
  }
}

TEST(GpuTrace, EachExecutionOfASiteIsARequest) {
  auto launches = trace(localLoop, 1, 32, 1);
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_EQ(launches[0].localRequests, 3);
  EXPECT_EQ(launches[0].localSectors, 3 * 8);
  EXPECT_EQ(launches[0].localBytes, 3 * 32 * 8);
}

TEST(GpuTrace, RecordsOnlyInstrumentedKernelsWhileTracing) {
  // Not tracing: nothing recorded.
  fhec_rt_gpu_emu_launch(coalescedCopy, 1, 1, 1, 32, 1, 1, 0, nullptr, 0);
  EXPECT_TRUE(rt::stopGpuTrace().empty());
  // A kernel that never names itself (compiled without --gpu-trace) is left out.
  EXPECT_TRUE(trace(untraced, 1, 32, 1).empty());
  EXPECT_THROW(rt::startGpuTrace(0), rt::Error);
}

// Accesses outside cuda-emu's device allocations (the host's memory, which
// a GPU cannot reach) are counted over every block, traced or not.
TEST(GpuTrace, CountsAccessesOutsideDeviceMemory) {
  for (int32_t flags : {0, fhec::abi::kGpuEmuBlockSync}) {
    SCOPED_TRACE(flags);
    rt::noteDeviceMemory(uint64_t(kBase), 8 * 128);  // the copy's input, not its output
    auto t = trace(coalescedCopy, 4, 32, 1, flags);
    rt::forgetDeviceMemory(uint64_t(kBase));
    ASSERT_EQ(t.size(), 1u);
    EXPECT_EQ(t[0].outsideDeviceMemory, 128);  // the stores, 4 blocks of 32
    EXPECT_NE(t[0].firstOutside.find("words past the end of a device allocation of 128 words"), std::string::npos)
        << t[0].firstOutside;
    rt::noteDeviceMemory(uint64_t(kBase), 8 * 96);  // one block's loads fall off its end
    rt::noteDeviceMemory(uint64_t(2 * kBase), 8 * 128);
    t = trace(coalescedCopy, 4, 32, 1, flags);
    rt::forgetDeviceMemory(uint64_t(kBase));
    rt::forgetDeviceMemory(uint64_t(2 * kBase));
    EXPECT_EQ(t[0].outsideDeviceMemory, 32);
  }
}

// A trace that runs only its sampled blocks: the others do not run, and the
// footprint is estimated from the sampled ones (shared sectors once, the
// rest scaled), exact here as in the full run.
TEST(GpuTrace, SampledOnlyRunsTheSampledBlocksAndEstimatesTheFootprint) {
  for (int32_t flags : {0, fhec::abi::kGpuEmuBlockSync}) {
    SCOPED_TRACE(flags);
    for (bool sampledOnly : {false, true}) {
      gThreadsRan = 0;
      rt::startGpuTrace(2, sampledOnly);
      fhec_rt_gpu_emu_launch(copyWithTable, 8, 1, 1, 64, 1, 1, 0, nullptr, flags);
      auto t = rt::stopGpuTrace();
      ASSERT_EQ(t.size(), 1u);
      EXPECT_EQ(gThreadsRan.load(), (sampledOnly ? 2 : 8) * 64);
      EXPECT_EQ(t[0].footprintEstimated, sampledOnly);
      EXPECT_EQ(t[0].tracedBlocks, 2);
      EXPECT_EQ(t[0].globalReadSectors, 8 * 64 * 8 / 32 + 8);  // the input and the table
      EXPECT_EQ(t[0].globalWrittenSectors, 8 * 64 * 8 / 32);
      EXPECT_EQ(t[0].globalFootprintSectors, 2 * 8 * 64 * 8 / 32 + 8);
    }
  }
  // All of a small grid sampled: nothing estimated.
  rt::startGpuTrace(8, true);
  fhec_rt_gpu_emu_launch(copyWithTable, 2, 1, 1, 64, 1, 1, 0, nullptr, 0);
  auto t = rt::stopGpuTrace();
  ASSERT_EQ(t.size(), 1u);
  EXPECT_FALSE(t[0].footprintEstimated);
  EXPECT_EQ(t[0].globalFootprintSectors, 2 * 2 * 64 * 8 / 32 + 8);
  EXPECT_NE(rt::gpuTraceJson(t).find("\"footprint_estimated\": false"), std::string::npos);
}

TEST(GpuTrace, JsonHasOneObjectPerLaunch) {
  rt::startGpuTrace(1);
  fhec_rt_gpu_emu_launch(coalescedCopy, 2, 1, 1, 32, 1, 1, 0, nullptr, 0);
  fhec_rt_gpu_emu_launch(stride32, 2, 1, 1, 32, 1, 1, 0, nullptr, 0);
  std::string json = rt::gpuTraceJson(rt::stopGpuTrace());
  EXPECT_NE(json.find("\"kernel\": \"copy\""), std::string::npos);
  EXPECT_NE(json.find("\"kernel\": \"stride32\""), std::string::npos);
  EXPECT_NE(json.find("\"global_sectors\": 32,"), std::string::npos);  // stride32, one warp
  EXPECT_EQ(json.front(), '[');
  // Names are escaped.
  rt::GpuLaunchTrace odd;
  odd.kernel = "a\"b\\c";
  EXPECT_NE(rt::gpuTraceJson({odd}).find("\"kernel\": \"a\\\"b\\\\c\""), std::string::npos);
}

} // namespace
