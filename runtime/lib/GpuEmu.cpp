// The CPU execution of GPU kernels (target cuda-emu). A kernel with shared
// memory or barriers runs its grid with one host thread per GPU thread of a
// block, the blocks one after the other, so that a block's threads really run
// concurrently and meet at gpu.barrier; each block starts with its shared
// memory poisoned, as a GPU leaves it undefined. Any other kernel's threads
// are independent: a few host threads share the grid's (block, thread)
// pairs without synchronizing. Missing barriers, and threads writing what
// others read, then show up as data races under ThreadSanitizer (docs/design.md,
// "Lowering structure"). While a GPU trace runs (fhec/runtime/GpuTrace.h),
// the threads of sampled blocks record their accesses for the cost model.
#include "fhec/runtime/Abi.h"
#include "fhec/runtime/GpuTrace.h"

#include <algorithm>
#include <cstring>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <system_error>
#include <vector>

namespace {

/// A reusable barrier for the threads of one block (C++17 has no
/// std::barrier): an arrival counter and a generation number. Waiters yield the core rather
/// than sleep: a block has up to 1024 threads on a few cores, and a futex
/// wake-up of each made the NTT phase 7x slower (HE Mul at logN 12, 2 cores).
/// The acquire/release atomics give ThreadSanitizer the barrier's order.
class BlockBarrier {
public:
  explicit BlockBarrier(int64_t count) : count_(count) {}
  void arriveAndWait() {
    uint64_t generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == count_) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_acq_rel);
      return;
    }
    while (generation_.load(std::memory_order_acquire) == generation) std::this_thread::yield();
  }

private:
  const int64_t count_;
  std::atomic<int64_t> arrived_{0};
  std::atomic<uint64_t> generation_{0};
};

/// What the kernel of the calling emulated thread sees of the grid.
struct ThreadState {
  int64_t thread[3] = {0, 0, 0}, block[3] = {0, 0, 0}, blockDim[3] = {1, 1, 1}, gridDim[3] = {1, 1, 1};
  BlockBarrier *barrier = nullptr;
  unsigned char *shared = nullptr;
};
thread_local ThreadState tState;

int64_t component(const int64_t (&v)[3], int32_t dim) { return dim >= 0 && dim < 3 ? v[dim] : 0; }

[[noreturn]] void fail(const char *what) {
  std::fprintf(stderr, "fhec runtime (cuda-emu): %s\n", what);
  std::abort();
}

/// Most threads of a block on the GPUs fhec targets.
constexpr int64_t kMaxBlockThreads = 1024;
/// Host threads that share the grid of a kernel without block synchronization
/// (at least two, so that ThreadSanitizer sees threads that race).
constexpr int64_t kIndependentHostThreads = 4;

/// Starts body(1) .. body(count - 1) on new host threads (the caller runs body(0)).
template <typename Body> void spawn(std::vector<std::thread> &pool, Body &body, int64_t count) {
  pool.reserve(size_t(count - 1));
  try {
    for (int64_t i = 1; i < count; ++i) pool.emplace_back(body, i);
  } catch (const std::system_error &) {
    // The threads started already would wait at the block's barrier forever.
    fail("cannot start the host threads of an emulated launch (thread limit reached?)");
  }
}

} // namespace

extern "C" {

void fhec_rt_gpu_emu_launch(void (*kernel)(int64_t *), int64_t gx, int64_t gy, int64_t gz, int64_t bx, int64_t by,
                            int64_t bz, int64_t sharedBytes, int64_t *slots, int32_t flags) {
  // Sizes come from the compiler, never from user input: a bad one is a bug.
  if (gx < 0 || gy < 0 || gz < 0 || bx <= 0 || by <= 0 || bz <= 0 || bx * by * bz > kMaxBlockThreads)
    fail("launch with an invalid grid or block size");
  if (sharedBytes != 0) fail("dynamic shared memory is not supported");
  const int64_t threads = bx * by * bz, blocks = gx * gy * gz;
  if (blocks == 0) return;
  // The grid position of thread t of block b.
  auto place = [&](ThreadState &s, int64_t b, int64_t t) {
    s.thread[0] = t % bx;
    s.thread[1] = t / bx % by;
    s.thread[2] = t / (bx * by);
    s.block[0] = b % gx;
    s.block[1] = b / gx % gy;
    s.block[2] = b / (gx * gy);
    s.blockDim[0] = bx, s.blockDim[1] = by, s.blockDim[2] = bz;
    s.gridDim[0] = gx, s.gridDim[1] = gy, s.gridDim[2] = gz;
  };
  const int64_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  auto recorder = fhec::rt::gputrace::beginLaunch(grid, block);
  // Runs thread t of block b, recorded when the trace samples the block.
  auto runThread = [&](int64_t b, int64_t t) {
    const bool traced = recorder && fhec::rt::gputrace::traced(*recorder, b);
    if (traced) fhec::rt::gputrace::beginThread();
    kernel(slots);
    if (traced) fhec::rt::gputrace::endThread(*recorder, b, t);
  };
  std::vector<std::thread> pool;
  if (!(flags & fhec::abi::kGpuEmuBlockSync)) {
    // Independent threads: host thread h runs pairs [h total / H, (h+1) total / H).
    const int64_t total = blocks * threads;
    const int64_t hostThreads = std::min<int64_t>(total, kIndependentHostThreads);
    auto body = [&](int64_t h) {
      if (recorder) fhec::rt::gputrace::beginHostThread(*recorder);
      for (int64_t i = h * total / hostThreads; i < (h + 1) * total / hostThreads; ++i) {
        place(tState, i / threads, i % threads);
        runThread(i / threads, i % threads);
      }
      if (recorder) fhec::rt::gputrace::endHostThread(*recorder);
      tState = ThreadState();
    };
    spawn(pool, body, hostThreads);
    body(0);
    for (std::thread &th : pool) th.join();
    if (recorder) fhec::rt::gputrace::endLaunch(*recorder);
    return;
  }
  BlockBarrier barrier(threads);
  std::vector<unsigned char> storage(fhec::abi::kGpuSharedMemoryBytes + 16);
  unsigned char *shared = storage.data() + (16 - reinterpret_cast<uintptr_t>(storage.data()) % 16) % 16;
  auto body = [&](int64_t t) {
    ThreadState &s = tState;
    s.barrier = &barrier;
    s.shared = shared;
    if (recorder) fhec::rt::gputrace::beginHostThread(*recorder);
    for (int64_t b = 0; b < blocks; ++b) {
      place(s, b, t);
      if (t == 0) std::memset(shared, 0xA5, fhec::abi::kGpuSharedMemoryBytes);
      barrier.arriveAndWait();
      runThread(b, t);
      // No thread starts the next block while one is still in this one.
      barrier.arriveAndWait();
    }
    if (recorder) fhec::rt::gputrace::endHostThread(*recorder);
    s = ThreadState();
  };
  spawn(pool, body, threads);
  body(0);
  for (std::thread &th : pool) th.join();
  if (recorder) fhec::rt::gputrace::endLaunch(*recorder);
}

void *fhec_rt_gpu_shared_memory() {
  if (!tState.shared) fail("shared memory used by a kernel launched without block synchronization");
  return tState.shared;
}

int64_t fhec_rt_gpu_thread_id(int32_t dim) { return component(tState.thread, dim); }
int64_t fhec_rt_gpu_block_id(int32_t dim) { return component(tState.block, dim); }
int64_t fhec_rt_gpu_block_dim(int32_t dim) { return component(tState.blockDim, dim); }
int64_t fhec_rt_gpu_grid_dim(int32_t dim) { return component(tState.gridDim, dim); }

void fhec_rt_gpu_barrier() {
  if (!tState.barrier) fail("gpu.barrier in a kernel launched without block synchronization");
  tState.barrier->arriveAndWait();
}

} // extern "C"
