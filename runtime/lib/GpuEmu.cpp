// The CPU execution of GPU kernels (target cuda-emu): a launch runs its grid
// with one host thread per GPU thread of a block, the blocks one after the
// other, so that a block's threads really run concurrently and meet at
// gpu.barrier. Missing barriers then show up as data races under
// ThreadSanitizer (DESIGN.md, "Lowering structure").
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace {

/// A reusable barrier for the threads of one block (C++17 has no std::barrier).
class BlockBarrier {
public:
  explicit BlockBarrier(int64_t count) : count_(count) {}
  void arriveAndWait() {
    std::unique_lock<std::mutex> lock(mutex_);
    uint64_t generation = generation_;
    if (++arrived_ == count_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return generation_ != generation; });
  }

private:
  std::mutex mutex_;
  std::condition_variable cv_;
  const int64_t count_;
  int64_t arrived_ = 0;
  uint64_t generation_ = 0;
};

/// What the kernel of the calling emulated thread sees of the grid.
struct ThreadState {
  int64_t thread[3] = {0, 0, 0}, block[3] = {0, 0, 0}, blockDim[3] = {1, 1, 1}, gridDim[3] = {1, 1, 1};
  BlockBarrier *barrier = nullptr;
};
thread_local ThreadState tState;

int64_t component(const int64_t (&v)[3], int32_t dim) { return dim >= 0 && dim < 3 ? v[dim] : 0; }

[[noreturn]] void fail(const char *what) {
  std::fprintf(stderr, "fhec runtime (cuda-emu): %s\n", what);
  std::abort();
}

/// Most threads of a block on the GPUs fhec targets.
constexpr int64_t kMaxBlockThreads = 1024;

} // namespace

extern "C" {

void fhec_rt_gpu_emu_launch(void (*kernel)(int64_t *), int64_t gx, int64_t gy, int64_t gz, int64_t bx, int64_t by,
                            int64_t bz, int64_t sharedBytes, int64_t *slots) {
  // Sizes come from the compiler, never from user input: a bad one is a bug.
  if (gx < 0 || gy < 0 || gz < 0 || bx <= 0 || by <= 0 || bz <= 0 || bx * by * bz > kMaxBlockThreads)
    fail("launch with an invalid grid or block size");
  if (sharedBytes != 0) fail("dynamic shared memory is not supported");
  const int64_t threads = bx * by * bz, blocks = gx * gy * gz;
  if (blocks == 0) return;
  BlockBarrier barrier(threads);
  auto body = [&](int64_t t) {
    ThreadState &s = tState;
    s.thread[0] = t % bx;
    s.thread[1] = t / bx % by;
    s.thread[2] = t / (bx * by);
    s.blockDim[0] = bx, s.blockDim[1] = by, s.blockDim[2] = bz;
    s.gridDim[0] = gx, s.gridDim[1] = gy, s.gridDim[2] = gz;
    s.barrier = &barrier;
    for (int64_t b = 0; b < blocks; ++b) {
      s.block[0] = b % gx;
      s.block[1] = b / gx % gy;
      s.block[2] = b / (gx * gy);
      kernel(slots);
      // No thread starts the next block while one is still in this one.
      barrier.arriveAndWait();
    }
    s = ThreadState();
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (int64_t t = 1; t < threads; ++t) pool.emplace_back(body, t);
  body(0);
  for (std::thread &th : pool) th.join();
}

int64_t fhec_rt_gpu_thread_id(int32_t dim) { return component(tState.thread, dim); }
int64_t fhec_rt_gpu_block_id(int32_t dim) { return component(tState.block, dim); }
int64_t fhec_rt_gpu_block_dim(int32_t dim) { return component(tState.blockDim, dim); }
int64_t fhec_rt_gpu_grid_dim(int32_t dim) { return component(tState.gridDim, dim); }

void fhec_rt_gpu_barrier() {
  if (!tState.barrier) fail("gpu.barrier outside a kernel launch");
  tState.barrier->arriveAndWait();
}

} // extern "C"
