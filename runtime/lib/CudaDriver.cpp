// The CUDA driver API through dlopen (CudaApi.h: no cuda.h at build time).
// A call of a cuda module's function is a sequence of kernel launches and
// phase markers, recorded while the module's host code runs and issued on the
// device's stream at synchronize(): one launch at a time, or, once a call has
// repeated the function's previous call exactly (same kernels, same argument
// values: the executor's workspace, tables, keys and staging buffers stay
// put), as one CUDA graph instantiated from it, which the later calls of the
// same kernels replay, pointed at their own argument values (a call on other
// ciphertexts on the device). Copies go through pinned staging buffers, in
// the stream's order.
#include "CudaApi.h"

#include "fhec/runtime/CudaDriver.h"
#include "fhec/runtime/Device.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Profile.h"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <type_traits>
#include <utility>
#include <vector>

using namespace fhec::rt::cu;

namespace {

struct Driver : Api {
  std::string unavailable;  // why the driver cannot be used; empty if it can
  CUcontext context = nullptr;

  std::string describe(CUresult r) const {
    const char *s = nullptr;
    if (cuGetErrorString && cuGetErrorString(r, &s) == CUDA_SUCCESS && s) return s;
    return "CUDA error " + std::to_string(r);
  }

  Driver() {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      unavailable = "no NVIDIA driver: libcuda.so.1 not found";
      return;
    }
    forEach([&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn && unavailable.empty()) unavailable = std::string("the NVIDIA driver lacks ") + name;
    });
    if (!unavailable.empty()) return;
    int count = 0;
    CUdevice dev = 0;
    if (CUresult r = cuInit(0); r != CUDA_SUCCESS) {
      unavailable = "the CUDA driver does not start (cuInit: " + describe(r) + ")";
    } else if (cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
      unavailable = "no CUDA device";
    } else if (CUresult r = cuDeviceGet(&dev, 0); r != CUDA_SUCCESS) {
      unavailable = "cannot open CUDA device 0: " + describe(r);
    } else if (CUresult r = cuDevicePrimaryCtxRetain(&context, dev); r != CUDA_SUCCESS) {
      unavailable = "cannot create a context on CUDA device 0: " + describe(r);
    }
  }
};

const Driver &driver() {
  static const Driver d;
  return d;
}

/// One step of a call: a kernel launch, or a phase marker (an event).
struct Step {
  enum class Kind : uint8_t { Kernel, Begin, End } kind = Kind::Kernel;
  fhec::abi::Phase phase = fhec::abi::Phase::Other;
  CUfunction function = nullptr;
  const char *kernel = "";  // its name, in the module's constant data
  std::array<unsigned, 7> dims = {};  // grid x y z, block x y z, dynamic shared bytes
  std::vector<int64_t> slots;         // the kernel's 8-byte argument values
  /// The same launch, argument values aside.
  bool sameLaunch(const Step &o) const {
    return kind == o.kind && phase == o.phase && function == o.function && dims == o.dims;
  }
  std::vector<void *> params() {
    std::vector<void *> p;
    for (int64_t &s : slots) p.push_back(&s);
    return p;
  }
  /// A graph kernel node's parameters, pointing into `params` (this step's
  /// params(), which must outlive them; the node keeps copies of the values).
  KernelNodeParams nodeParams(std::vector<void *> &params) const {
    return {function, dims[0], dims[1], dims[2], dims[3], dims[4], dims[5], dims[6], params.data(), nullptr, nullptr,
            nullptr};
  }
};

} // namespace

namespace fhec::rt {

std::string cudaUnavailableReason() { return driver().unavailable; }

namespace {

class CudaDevice;
/// The device whose call the calling thread's module is running (launch hook).
thread_local CudaDevice *tCalling = nullptr;

// Device 0's memory and a stream of its own, through the driver API (the
// primary context, made current on the calling thread for every call: the
// executor may run on any thread).
class CudaDevice final : public Device, public PhaseRecorder {
public:
  CudaDevice() {
    check(current(), "selecting the GPU's context");
    check(d().cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "creating a stream");
  }
  ~CudaDevice() override {
    if (tCalling == this) tCalling = nullptr;
    if (current() != CUDA_SUCCESS) return;
    d().cuStreamSynchronize(stream_);
    for (Chunk &c : chunks_) {
      if (c.host) d().cuMemFreeHost(c.host);
      if (c.done) d().cuEventDestroy(c.done);
    }
    for (auto &[key, g] : graphs_) destroy(g);
    for (CUevent e : events_) d().cuEventDestroy(e);
    for (auto &[ptx, module] : modules_) d().cuModuleUnload(module);
    d().cuStreamDestroy(stream_);
  }

  KernelPlace place() const override { return KernelPlace::Cuda; }
  PhaseRecorder *phaseRecorder() override { return this; }
  void begin(abi::Phase phase) override { marker(Step::Kind::Begin, phase); }
  void end(abi::Phase phase) override { marker(Step::Kind::End, phase); }

  void beginCall(const void *function) override {
    call_ = function;
    steps_.clear();
    error_.clear();
    tCalling = this;
  }
  /// Adds a launch of `kernel` (in the module of `ptx`) to the running call
  /// (the module's launch hook). The module is loaded once per device, while
  /// the executor that owns the device keeps the compiled module, and so its
  /// PTX text, loaded.
  void launch(const char *ptx, const char *kernel, Step step) {
    auto fail = [&](const std::string &what) {
      if (error_.empty()) error_ = "kernel " + std::string(kernel) + ": " + what;
    };
    CUmodule &module = modules_[ptx];
    if (CUresult r = current(); r != CUDA_SUCCESS) {
      fail("cuCtxSetCurrent: " + d().describe(r));
    } else if (!module && (r = d().cuModuleLoadData(&module, ptx)) != CUDA_SUCCESS) {
      module = nullptr;
      fail("loading the module's PTX failed: " + d().describe(r));
    } else {
      CUfunction &fn = functions_[{module, kernel}];
      if (!fn && (r = d().cuModuleGetFunction(&fn, module, kernel)) != CUDA_SUCCESS) {
        fn = nullptr;
        fail("not in the module's PTX: " + d().describe(r));
      }
      step.function = fn;
    }
    step.kernel = kernel;
    steps_.push_back(std::move(step));
  }

  uint64_t allocate(size_t bytes) override {
    CUdeviceptr p = 0;
    check(current(), "selecting the GPU's context");
    check(d().cuMemAlloc(&p, bytes ? bytes : 1), "allocating " + std::to_string(bytes) + " bytes of GPU memory");
    return p;
  }
  void release(uint64_t address) noexcept override {
    if (d().cuCtxSetCurrent(d().context) == CUDA_SUCCESS) d().cuMemFree(address);
  }
  // Through the pinned ring, in the stream's order; the host memory may be
  // reused when it returns.
  void write(uint64_t dst, const void *src, size_t bytes) override {
    std::string what = "copying " + std::to_string(bytes) + " bytes to the GPU";
    check(current(), "selecting the GPU's context");
    for (size_t at = 0; at < bytes; at += kChunkBytes) {
      size_t n = std::min(kChunkBytes, bytes - at);
      Chunk &c = take(nullptr, what);
      std::memcpy(c.host, static_cast<const char *>(src) + at, n);
      check(d().cuMemcpyHtoDAsync(dst + at, c.host, n, stream_), what);
      if (CUresult e = d().cuEventRecord(c.done, stream_); e != CUDA_SUCCESS) {
        d().cuStreamSynchronize(stream_);  // the copy still reads c.host, which the next take reuses
        check(e, what);
      }
      c.busy = true;
    }
  }
  // Issued by synchronize(), after the call's kernels.
  void read(void *dst, uint64_t src, size_t bytes) override { reads_.push_back({dst, src, bytes}); }

  void synchronize() override {
    if (tCalling == this) tCalling = nullptr;
    std::vector<Step> steps = std::exchange(steps_, {});
    std::vector<Read> reads = std::exchange(reads_, {});
    const void *call = std::exchange(call_, nullptr);
    if (!error_.empty()) throw Error("cuda: " + std::exchange(error_, {}));  // no kernel was issued
    check(current(), "selecting the GPU's context");
    // The function's previous call, if this one launches the same kernels.
    Graph *graph = nullptr;
    if (auto it = graphs_.find(call); it != graphs_.end() && sameLaunches(it->second.steps, steps))
      graph = &it->second;
    if (graph && graph->exec && !update(*graph, steps)) {
      destroy(*graph);  // issued one at a time, and kept to compare with the next call
      graphs_.erase(call);
      graph = nullptr;
    }
    if (graph && graph->exec) {
      size_t kernels = 0;
      for (const Step &step : steps) kernels += step.kind == Step::Kind::Kernel;
      if (CUresult r = d().cuGraphLaunch(graph->exec, stream_); r != CUDA_SUCCESS) {
        destroy(*graph);  // issued one at a time again, from the next call
        graphs_.erase(call);
        throw Error("cuda: launching the graph of " + std::to_string(kernels) + " kernels failed: " + d().describe(r));
      }
      finish(graph->steps, graph->events, reads);
      return;
    }
    // Issued one at a time; the markers take events of the pool (created
    // before anything is issued).
    std::vector<CUevent> events;
    for (const Step &s : steps)
      if (s.kind != Step::Kind::Kernel) {
        if (events.size() == events_.size()) events_.push_back(createEvent());
        events.push_back(events_[events.size()]);
      }
    CUresult launched = CUDA_SUCCESS;
    const Step *failed = nullptr;
    size_t nextEvent = 0;
    for (Step &s : steps) {
      if (s.kind != Step::Kind::Kernel) {
        launched = d().cuEventRecord(events[nextEvent++], stream_);
      } else {
        std::vector<void *> params = s.params();
        launched = d().cuLaunchKernel(s.function, s.dims[0], s.dims[1], s.dims[2], s.dims[3], s.dims[4], s.dims[5],
                                      s.dims[6], stream_, params.data(), nullptr);
      }
      if (launched != CUDA_SUCCESS) {
        failed = &s;
        break;
      }
    }
    if (failed) {
      // Wait first: the kernels issued before it still use the buffers the
      // caller frees once this throws. An error of one of them (sticky, as
      // a GPU's faults are) is what made the issue fail.
      std::vector<Step> issued(steps.begin(), steps.begin() + (failed - steps.data()));
      if (CUresult r = d().cuStreamSynchronize(stream_); r != CUDA_SUCCESS) fault(issued, r, "waiting for the GPU");
      throw Error("cuda: " +
                  (failed->kind == Step::Kind::Kernel ? "kernel " + std::string(failed->kernel) + ": launch"
                                                      : std::string("recording an event")) +
                  " failed: " + d().describe(launched));
    }
    finish(steps, events, reads);
    if (!call) return;
    if (!graph) {
      // Kept to compare with the next call (one-off calls are never instantiated).
      Graph &g = graphs_[call];
      destroy(g);
      g = Graph{};
      g.steps = std::move(steps);
    } else if (!graph->tried) {
      graph->steps = std::move(steps);
      instantiate(*graph);  // a failure leaves exec null: one launch at a time
    }
  }

private:
  // Copies between pageable host memory and the GPU go through a ring of
  // pinned chunks, on the stream: the host does not wait for a copy to the
  // device, and the DMA of one chunk overlaps the host's memcpy of the next.
  static constexpr size_t kChunkBytes = size_t(4) << 20, kChunks = 4;
  struct Chunk {
    void *host = nullptr;        // kChunkBytes of pinned memory, allocated at first use
    CUevent done = nullptr;      // recorded after its last copy
    bool busy = false;           // that copy may still run
    void *readInto = nullptr;    // a copy to the host: where its bytes go
    size_t bytes = 0;
  };
  std::array<Chunk, kChunks> chunks_;
  size_t nextChunk_ = 0;
  struct Read {
    void *dst;
    uint64_t src;
    size_t bytes;
  };
  std::vector<Read> reads_;  // issued at synchronize()

  // A function's last call, and once it repeated, that call as a CUDA
  // graph: its steps in a chain, the markers as event record nodes (events
  // of the graph's own). exec stays null when the graph cannot be built.
  struct Graph {
    std::vector<Step> steps;
    std::vector<CUevent> events;
    std::vector<CUgraphNode> nodes;  // one per step
    CUgraph graph = nullptr;
    CUgraphExec exec = nullptr;
    bool tried = false;  // instantiate() ran
  };

  void instantiate(Graph &g) {
    g.tried = true;
    bool ok = d().cuGraphCreate(&g.graph, 0) == CUDA_SUCCESS;
    CUgraphNode previous = nullptr;
    for (Step &s : g.steps) {
      if (!ok) break;
      CUgraphNode node = nullptr;
      size_t deps = previous ? 1 : 0;
      if (s.kind == Step::Kind::Kernel) {
        std::vector<void *> params = s.params();
        KernelNodeParams p = s.nodeParams(params);
        ok = d().cuGraphAddKernelNode(&node, g.graph, &previous, deps, &p) == CUDA_SUCCESS;
      } else {
        CUevent e = nullptr;
        ok = d().cuEventCreate(&e, 0) == CUDA_SUCCESS;
        if (ok) g.events.push_back(e);
        ok = ok && d().cuGraphAddEventRecordNode(&node, g.graph, &previous, deps, e) == CUDA_SUCCESS;
      }
      g.nodes.push_back(node);
      previous = node;
    }
    if (!ok || d().cuGraphInstantiate(&g.exec, g.graph, 0) != CUDA_SUCCESS) g.exec = nullptr;
  }
  void destroy(Graph &g) {
    if (g.exec) d().cuGraphExecDestroy(g.exec);
    if (g.graph) d().cuGraphDestroy(g.graph);
    for (CUevent e : g.events) d().cuEventDestroy(e);
    g.exec = nullptr, g.graph = nullptr, g.events.clear(), g.nodes.clear();
  }

  static bool sameLaunches(const std::vector<Step> &a, const std::vector<Step> &b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                              [](const Step &x, const Step &y) { return x.sameLaunch(y); });
  }
  // Points the instantiated graph's kernel nodes at this call's argument
  // values where they differ; false when the driver refuses.
  bool update(Graph &g, const std::vector<Step> &steps) {
    for (size_t i = 0; i < steps.size(); ++i) {
      if (steps[i].kind != Step::Kind::Kernel || steps[i].slots == g.steps[i].slots) continue;
      Step s = steps[i];
      std::vector<void *> params = s.params();
      KernelNodeParams p = s.nodeParams(params);
      if (d().cuGraphExecKernelNodeSetParams(g.exec, g.nodes[i], &p) != CUDA_SUCCESS) return false;
      g.steps[i].slots = steps[i].slots;
    }
    return true;
  }

  // Issues the copies to the host, waits for the issued steps and the
  // copies, and delivers the copies' bytes.
  void finish(const std::vector<Step> &steps, const std::vector<CUevent> &events, const std::vector<Read> &reads) {
    try {
      for (const Read &r : reads)
        for (size_t at = 0; at < r.bytes; at += kChunkBytes) {
          size_t n = std::min(kChunkBytes, r.bytes - at);
          const std::string what = "copying " + std::to_string(n) + " bytes to the host";
          Chunk &c = take(&steps, what);
          if (CUresult e = d().cuMemcpyDtoHAsync(c.host, r.src + at, n, stream_); e != CUDA_SUCCESS)
            fault(steps, e, what);
          if (CUresult e = d().cuEventRecord(c.done, stream_); e != CUDA_SUCCESS) fault(steps, e, what);
          c.busy = true, c.readInto = static_cast<char *>(r.dst) + at, c.bytes = n;
        }
      wait(steps, events);
      for (Chunk &c : chunks_)
        if (CUresult e = settle(c); e != CUDA_SUCCESS) fault(steps, e, "copying to the host");
    } catch (...) {
      for (Chunk &c : chunks_) c.readInto = nullptr;  // the caller's memory: not written after this
      d().cuStreamSynchronize(stream_);  // nothing issued still runs on the buffers the caller frees
      throw;
    }
  }

  // The next chunk of the pinned ring, once its last copy is done (and a
  // copy to the host's bytes delivered). An error is a kernel's of `issued`
  // if given, else the copy's (`what`).
  Chunk &take(const std::vector<Step> *issued, const std::string &what) {
    Chunk &c = chunks_[nextChunk_++ % kChunks];
    if (!c.host)
      check(d().cuMemAllocHost(&c.host, kChunkBytes), "allocating " + std::to_string(kChunkBytes) +
                                                          " bytes of pinned host memory");
    if (!c.done) c.done = createEvent();
    if (CUresult r = settle(c); r != CUDA_SUCCESS) {
      if (issued) fault(*issued, r, what);
      check(r, what);
    }
    return c;
  }
  CUresult settle(Chunk &c) {
    if (!c.busy) return CUDA_SUCCESS;
    c.busy = false;
    void *into = std::exchange(c.readInto, nullptr);
    if (CUresult r = d().cuEventSynchronize(c.done); r != CUDA_SUCCESS) return r;
    if (into) std::memcpy(into, c.host, c.bytes);
    return CUDA_SUCCESS;
  }

  // Waits for the issued steps; adds the phase times their markers' events took.
  void wait(const std::vector<Step> &steps, const std::vector<CUevent> &events) {
    if (CUresult r = d().cuStreamSynchronize(stream_); r != CUDA_SUCCESS) fault(steps, r, "waiting for the GPU");
    CUevent open[size_t(abi::Phase::Count)] = {};
    size_t e = 0;
    for (const Step &s : steps) {
      if (s.kind == Step::Kind::Kernel) continue;
      CUevent event = events[e++];
      if (s.kind == Step::Kind::Begin) {
        open[size_t(s.phase)] = event;
      } else if (CUevent start = std::exchange(open[size_t(s.phase)], nullptr)) {
        float ms = 0;
        if (d().cuEventElapsedTime(&ms, start, event) == CUDA_SUCCESS) addPhaseSeconds(s.phase, ms * 1e-3);
      }
    }
  }

  // A kernel of `issued` failed as it ran (the GPU does not say which; a
  // later call returns its error), or, with no kernel issued, `what` failed.
  [[noreturn]] static void fault(const std::vector<Step> &issued, CUresult r, const std::string &what) {
    const char *last = nullptr;
    for (const Step &s : issued)
      if (s.kind == Step::Kind::Kernel) last = s.kernel;
    if (!last) throw Error("cuda: " + what + " failed: " + d().describe(r));
    throw Error("cuda: a kernel failed (the last one issued: " + std::string(last) + "): " + d().describe(r));
  }

  void marker(Step::Kind kind, abi::Phase phase) {
    Step s;
    s.kind = kind;
    s.phase = phase;
    steps_.push_back(std::move(s));
  }
  CUevent createEvent() {
    CUevent e = nullptr;
    check(d().cuEventCreate(&e, 0), "creating an event");
    return e;
  }

  CUstream stream_ = nullptr;
  const void *call_ = nullptr;     // the function of the running call (null: none)
  std::vector<Step> steps_;        // its steps so far
  std::string error_;              // the first reason one of them cannot be launched
  std::vector<CUevent> events_;    // the pool of the markers issued one at a time
  std::map<const void *, Graph> graphs_;  // by function
  std::map<const char *, CUmodule> modules_;  // by PTX text
  std::map<std::pair<CUmodule, std::string>, CUfunction> functions_;

  static const Driver &d() { return driver(); }
  static CUresult current() { return d().cuCtxSetCurrent(d().context); }
  static void check(CUresult r, const std::string &what) {
    if (r != CUDA_SUCCESS) throw Error("cuda: " + what + " failed: " + d().describe(r));
  }
};

} // namespace

std::unique_ptr<Device> cudaDevice() {
  if (std::string why = cudaUnavailableReason(); !why.empty())
    throw Error("the cuda target needs an NVIDIA GPU, but there is none here (" + why + ")");
  return std::make_unique<CudaDevice>();
}

} // namespace fhec::rt

extern "C" void fhec_rt_gpu_cuda_launch(const char *ptx, const char *kernel, int64_t gx, int64_t gy, int64_t gz,
                                        int64_t bx, int64_t by, int64_t bz, int64_t sharedBytes, int64_t *slots,
                                        int32_t numSlots) {
  fhec::rt::CudaDevice *device = fhec::rt::tCalling;
  if (!device) {
    // Compiled code cannot unwind: a module run without an executor's call.
    std::fprintf(stderr, "fhec runtime: kernel %s launched outside a call of the cuda device\n", kernel);
    std::abort();
  }
  Step step;
  step.dims = {unsigned(gx), unsigned(gy), unsigned(gz), unsigned(bx), unsigned(by), unsigned(bz), unsigned(sharedBytes)};
  step.slots.assign(slots, slots + numSlots);
  device->launch(ptx, kernel, std::move(step));
}
