// The CPU execution of GPU kernels (target cuda-emu). A kernel with shared
// memory or barriers runs its blocks one after the other, each block's threads
// as fibers (ucontext) on the calling host thread: a thread runs until it
// reaches gpu.barrier or its end, and the block goes on once every thread has.
// Each block starts with its shared memory poisoned, as a GPU leaves it
// undefined. Any other kernel's threads are independent: a few host threads
// share the grid's (block, thread) pairs without synchronizing. Under
// ThreadSanitizer every fiber is a thread of its own whose only order with the
// others is the barrier's, so missing barriers, and threads writing what
// others read, show up as data races (docs/design.md, "Lowering structure").
// While a GPU trace runs (fhec/runtime/GpuTrace.h), whose records are per
// host thread, the threads of the blocks it samples run on host threads of
// their own and record their accesses for the cost model; the other blocks
// still run as fibers, counted in the launch's footprint only, or not at all
// under a trace that runs only its sampled blocks (startGpuTrace's sampledOnly).
#include "fhec/runtime/Abi.h"
#include "fhec/runtime/GpuTrace.h"

#include <algorithm>
#include <cstring>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>
#include <system_error>
#include <vector>

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FHEC_EMU_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define FHEC_EMU_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(FHEC_EMU_ASAN)
#define FHEC_EMU_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__) && !defined(FHEC_EMU_TSAN)
#define FHEC_EMU_TSAN 1
#endif
#ifdef FHEC_EMU_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef FHEC_EMU_TSAN
#include <sanitizer/tsan_interface.h>
// ThreadSanitizer's dynamic annotations (its run-time library defines them).
extern "C" void AnnotateIgnoreReadsBegin(const char *file, int line);
extern "C" void AnnotateIgnoreReadsEnd(const char *file, int line);
extern "C" void AnnotateIgnoreWritesBegin(const char *file, int line);
extern "C" void AnnotateIgnoreWritesEnd(const char *file, int line);
#endif

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
  BlockBarrier *barrier = nullptr;  // block threads on host threads
  class BlockFibers *fibers = nullptr;  // block threads as fibers
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

/// The emulator's own bookkeeping, shared by the fibers of a host thread and
/// ordered by their switches, which ThreadSanitizer does not see: left out of
/// its race detection (the kernels' accesses and the barrier's order are not).
class Untracked {
public:
  Untracked() {
#ifdef FHEC_EMU_TSAN
    AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
#endif
  }
  ~Untracked() {
#ifdef FHEC_EMU_TSAN
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
    AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
#endif
  }
  Untracked(const Untracked &) = delete;
  Untracked &operator=(const Untracked &) = delete;
};

/// Happens-before edges for ThreadSanitizer, whose fibers switch without one.
void releaseTo([[maybe_unused]] void *sync) {
#ifdef FHEC_EMU_TSAN
  __tsan_release(sync);
#endif
}
void acquireFrom([[maybe_unused]] void *sync) {
#ifdef FHEC_EMU_TSAN
  __tsan_acquire(sync);
#endif
}

/// Fiber stacks (mmap'ed, a guard page below each), reused by later launches.
constexpr size_t kFiberStackBytes = size_t(256) << 10;
std::mutex gStacksMutex;
std::vector<char *> gFreeStacks;  // each kFiberStackBytes, above its guard page

char *takeStack() {
  {
    std::lock_guard<std::mutex> lock(gStacksMutex);
    if (!gFreeStacks.empty()) {
      char *s = gFreeStacks.back();
      gFreeStacks.pop_back();
      return s;
    }
  }
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  void *m = mmap(nullptr, kFiberStackBytes + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (m == MAP_FAILED || mprotect(m, page, PROT_NONE) != 0)
    fail("cannot map the stacks of an emulated block's threads");
  return static_cast<char *>(m) + page;
}

void giveBackStack(char *stack) {
#ifdef FHEC_EMU_TSAN
  // ThreadSanitizer would see a later fiber's frames race with this one's
  // (its shadow of a stack is reset only when the stack is unmapped).
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  munmap(stack - page, kFiberStackBytes + page);
#else
  std::lock_guard<std::mutex> lock(gStacksMutex);
  gFreeStacks.push_back(stack);
#endif
}

/// The threads of a kernel's blocks as fibers on the calling host thread,
/// one block after the other. The scheduler resumes each thread of the block
/// in turn; a thread runs until it reaches gpu.barrier (the barrier
/// completes once every thread has) or the end of its block. A thread's fiber
/// is reused by the same thread of the next block.
class BlockFibers {
public:
  using Body = std::function<void(int64_t block, int64_t thread)>;
  /// `place` sets tState for (block, thread), before tState.fibers; `beginBlock`
  /// runs on the scheduler before each block.
  BlockFibers(int64_t threads, int64_t blocks, Body body, std::function<void(int64_t, int64_t)> place,
              std::function<void()> beginBlock)
      : threads_(threads), blocks_(blocks), body_(std::move(body)), place_(std::move(place)),
        beginBlock_(std::move(beginBlock)), fibers_(size_t(threads)) {
    for (Fiber &f : fibers_) {
      f.stack = takeStack();
      captureContext(f.context);
      f.context.uc_stack.ss_sp = f.stack;
      f.context.uc_stack.ss_size = kFiberStackBytes;
      f.context.uc_link = nullptr;
      makecontext(&f.context, &BlockFibers::entry, 0);
#ifdef FHEC_EMU_TSAN
      f.tsan = __tsan_create_fiber(0);
#endif
    }
#ifdef FHEC_EMU_TSAN
    schedulerTsan_ = __tsan_get_current_fiber();
#endif
  }

  ~BlockFibers() {
    for (Fiber &f : fibers_) {
#ifdef FHEC_EMU_TSAN
      __tsan_destroy_fiber(f.tsan);
#endif
      giveBackStack(f.stack);
    }
  }

  /// Runs every block. Aborts if some threads of a block end while others
  /// wait at a barrier (undefined on a GPU; here it would never finish).
  void run() {
    BlockFibers *outer;
    {
      Untracked u;
      outer = tCurrent;
      tCurrent = this;
    }
    for (int64_t b = 0; b < blocks_; ++b) {
      acquireFrom(&blockEnd_);
      beginBlock_();
      releaseTo(&blockStart_);
      {
        Untracked u;
        block_ = b;
        for (Fiber &f : fibers_) f.blockDone = false;
      }
      for (;;) {
        int64_t done = 0;
        for (int64_t t = 0; t < threads_; ++t) {
          resume(t);
          Untracked u;
          done += fibers_[size_t(t)].blockDone;
        }
        if (done == threads_) break;
        if (done != 0) fail("some threads of a block ended while the others wait at gpu.barrier");
        // Every thread waits at the barrier: it completes.
        Untracked u;
        ++generation_;
      }
    }
    acquireFrom(&blockEnd_);
    Untracked u;
    tCurrent = outer;
  }

  /// gpu.barrier, on the calling thread's fiber.
  void barrier() {
    uint64_t generation;
    {
      Untracked u;
      generation = generation_;
    }
    releaseTo(&barrierSync_[generation & 1]);
    yield(false);
    acquireFrom(&barrierSync_[generation & 1]);
  }

private:
  struct Fiber {
    ucontext_t context{};
    char *stack = nullptr;  // kFiberStackBytes
    bool blockDone = false;  // else running, or waiting at a barrier
    void *tsan = nullptr;
    void *asanFakeStack = nullptr;
  };

  /// getcontext out of line (it returns twice, as setjmp does): the signal
  /// mask and floating-point state a fiber starts from. (A copied ucontext_t
  /// would point into its original for the floating-point state.)
  static void captureContext(ucontext_t &context) {
    if (getcontext(&context) != 0) fail("getcontext failed");
  }

  /// The scheduler switches to thread t's fiber until it yields.
  void resume(int64_t t) {
    Fiber *f;
    {
      Untracked u;
      current_ = t;
      place_(block_, t);
      tState.fibers = this;
      f = &fibers_[size_t(t)];
    }
#ifdef FHEC_EMU_TSAN
    __tsan_switch_to_fiber(f->tsan, __tsan_switch_to_fiber_no_sync);
#endif
#ifdef FHEC_EMU_ASAN
    void *fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, f->stack, kFiberStackBytes);
#endif
    if (swapcontext(&scheduler_, &f->context) != 0) fail("swapcontext failed");
#ifdef FHEC_EMU_ASAN
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
  }

  /// The running fiber switches back to the scheduler (for good when `last`).
  void yield([[maybe_unused]] bool last) {
    Fiber *f;
    [[maybe_unused]] void *schedulerTsan;
    {
      Untracked u;
      f = &fibers_[size_t(current_)];
      schedulerTsan = schedulerTsan_;
    }
#ifdef FHEC_EMU_TSAN
    __tsan_switch_to_fiber(schedulerTsan, __tsan_switch_to_fiber_no_sync);
#endif
#ifdef FHEC_EMU_ASAN
    __sanitizer_start_switch_fiber(last ? nullptr : &f->asanFakeStack, schedulerStack_, schedulerStackBytes_);
#endif
    if (swapcontext(&f->context, &scheduler_) != 0) fail("swapcontext failed");
#ifdef FHEC_EMU_ASAN
    __sanitizer_finish_switch_fiber(f->asanFakeStack, &schedulerStack_, &schedulerStackBytes_);
#endif
  }

  /// A fiber's function: the thread's part of every block.
  static void entry() {
    BlockFibers *current;
    {
      Untracked u;
      current = tCurrent;
    }
    BlockFibers &s = *current;
#ifdef FHEC_EMU_ASAN
    __sanitizer_finish_switch_fiber(nullptr, &s.schedulerStack_, &s.schedulerStackBytes_);
#endif
    int64_t t, b;
    {
      Untracked u;
      t = s.current_;
      b = s.block_;
      // ASan's swapcontext interceptor has just cleared the shadow of this
      // (possibly reused) stack; without uc_stack it no longer clears the
      // whole stack on every switch, which the fiber annotations make needless.
      s.fibers_[size_t(t)].context.uc_stack.ss_sp = nullptr;
      s.fibers_[size_t(t)].context.uc_stack.ss_size = 0;
    }
    for (;;) {
      acquireFrom(&s.blockStart_);
      s.body_(b, t);
      releaseTo(&s.blockEnd_);
      // Nothing after the release may be seen as racing with the next launch
      // (its BlockFibers may lie where this one does): untracked.
      bool last;
      {
        Untracked u;
        s.fibers_[size_t(t)].blockDone = true;
        last = b + 1 == s.blocks_;
      }
      s.yield(last);
      if (last) fail("an emulated thread resumed after its grid ended");
      Untracked u;
      b = s.block_;
    }
  }

  static thread_local BlockFibers *tCurrent;

  const int64_t threads_, blocks_;
  Body body_;
  std::function<void(int64_t, int64_t)> place_;
  std::function<void()> beginBlock_;
  std::vector<Fiber> fibers_;
  ucontext_t scheduler_{};
  void *schedulerTsan_ = nullptr;
  // The scheduler's stack, for AddressSanitizer's fiber switches.
  [[maybe_unused]] const void *schedulerStack_ = nullptr;
  [[maybe_unused]] size_t schedulerStackBytes_ = 0;
  int64_t block_ = 0, current_ = 0;
  uint64_t generation_ = 0;
  // ThreadSanitizer's synchronization addresses.
  char blockStart_ = 0, blockEnd_ = 0, barrierSync_[2] = {0, 0};
};

thread_local BlockFibers *BlockFibers::tCurrent = nullptr;

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
    if (traced) fhec::rt::gputrace::beginThread(b);
    kernel(slots);
    if (traced) fhec::rt::gputrace::endThread(*recorder, b, t);
  };
  // The blocks that run: all of them (block i is i, no list on the hot path),
  // or under a sampled-only trace the sampled ones alone.
  const bool sampledOnly = recorder && fhec::rt::gputrace::sampledOnly(*recorder);
  std::vector<int64_t> sampled;
  if (sampledOnly)
    for (int64_t b = 0; b < blocks; ++b)
      if (fhec::rt::gputrace::traced(*recorder, b)) sampled.push_back(b);
  const int64_t runCount = sampledOnly ? int64_t(sampled.size()) : blocks;
  auto runBlock = [&](int64_t i) { return sampledOnly ? sampled[size_t(i)] : i; };
  std::vector<std::thread> pool;
  if (!(flags & fhec::abi::kGpuEmuBlockSync)) {
    // Independent threads: host thread h runs pairs [h total / H, (h+1) total / H).
    const int64_t total = runCount * threads;
    const int64_t hostThreads = std::min<int64_t>(total, kIndependentHostThreads);
    auto body = [&](int64_t h) {
      if (recorder) fhec::rt::gputrace::beginHostThread(*recorder);
      for (int64_t i = h * total / hostThreads; i < (h + 1) * total / hostThreads; ++i) {
        place(tState, runBlock(i / threads), i % threads);
        runThread(runBlock(i / threads), i % threads);
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
  std::vector<unsigned char> storage(fhec::abi::kGpuSharedMemoryBytes + 16);
  unsigned char *shared = storage.data() + (16 - reinterpret_cast<uintptr_t>(storage.data()) % 16) % 16;
  auto poisonShared = [&] { std::memset(shared, 0xA5, fhec::abi::kGpuSharedMemoryBytes); };
  // The blocks a trace does not sample run as fibers on this thread (all of them without a
  // trace, block i being i); under a trace their global accesses still count in the launch's
  // footprint.
  std::vector<int64_t> fiberBlocks;
  if (recorder)
    for (int64_t i = 0; i < runCount; ++i)
      if (!fhec::rt::gputrace::traced(*recorder, runBlock(i))) fiberBlocks.push_back(runBlock(i));
  const int64_t fiberCount = recorder ? int64_t(fiberBlocks.size()) : blocks;
  auto fiberBlock = [&](int64_t i) { return recorder ? fiberBlocks[size_t(i)] : i; };
  if (fiberCount > 0) {
    if (recorder) fhec::rt::gputrace::beginHostThread(*recorder);
    BlockFibers fibers(
        threads, fiberCount, [&](int64_t i, int64_t t) { runThread(fiberBlock(i), t); },
        [&](int64_t i, int64_t t) {
          place(tState, fiberBlock(i), t);
          tState.shared = shared;
        },
        poisonShared);
    fibers.run();
    {
      Untracked u;
      tState = ThreadState();
    }
    if (recorder) fhec::rt::gputrace::endHostThread(*recorder);
  }
  if (!recorder) return;
  // The sampled blocks: a host thread per GPU thread, each keeping its own record.
  BlockBarrier barrier(threads);
  auto body = [&](int64_t t) {
    ThreadState &s = tState;
    s.barrier = &barrier;
    s.shared = shared;
    fhec::rt::gputrace::beginHostThread(*recorder);
    for (int64_t b = 0; b < blocks; ++b) {
      if (!fhec::rt::gputrace::traced(*recorder, b)) continue;  // ran as a fiber
      place(s, b, t);
      if (t == 0) poisonShared();
      barrier.arriveAndWait();
      runThread(b, t);
      // No thread starts the next block while one is still in this one.
      barrier.arriveAndWait();
    }
    fhec::rt::gputrace::endHostThread(*recorder);
    s = ThreadState();
  };
  spawn(pool, body, threads);
  body(0);
  for (std::thread &th : pool) th.join();
  fhec::rt::gputrace::endLaunch(*recorder);
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
  if (tState.fibers) return tState.fibers->barrier();
  if (!tState.barrier) fail("gpu.barrier in a kernel launched without block synchronization");
  tState.barrier->arriveAndWait();
}

} // extern "C"
