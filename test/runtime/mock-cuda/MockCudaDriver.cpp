// A stand-in for NVIDIA's libcuda.so.1, for testing the cuda target's runtime
// (runtime/lib/CudaDriver.cpp) on machines without a GPU. Built against the
// real cuda.h (from the nvidia-cuda-runtime-cu12 wheel the set-up script
// installs), so that the entry points' signatures are CUDA's own, and it
// checks the runtime's declarations (CudaApi.h) against them at compile time.
//
// Device memory is host memory (copies work, kernels do not run: outputs
// stay as allocated). What it checks and reports, as "misuse: ..." lines in
// the log: unknown or destroyed handles, work on the legacy default stream,
// copies outside an allocation, kernels missing from the loaded PTX, launch
// sizes beyond a GPU's limits, graph nodes chained to nodes of another graph
// (or updated through another graph's instance), pinned memory freed twice,
// elapsed times of events not recorded, not synchronized since, or not
// recorded again since their times were last read (the runtime reads each
// event pair once, after the call that recorded it). Each kernel run is
// logged with a hash of its argument values, read as the driver does (the
// entry's parameter count from the PTX), and copied into graph nodes.
//
// Environment:
//   FHEC_MOCK_CUDA_LOG=FILE     appends a line per call (and per misuse)
//   FHEC_MOCK_CUDA_DEVICES=N    the device count (default 1)
//   FHEC_MOCK_CUDA_FAIL=NAME:K  the K-th call of entry point NAME fails, or
//                               every call for K = 0 (with its usual error: out
//                               of memory for cuMemAlloc_v2, too many resources
//                               for cuLaunchKernel, ...)
//   FHEC_MOCK_CUDA_FAULT=K      the K-th kernel run (launched or in a graph)
//                               faults: the next synchronization, and every
//                               call after, return CUDA_ERROR_LAUNCH_FAILED
#include <cuda.h>

#include "CudaApi.h"

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

// The runtime's declarations are cuda.h's: its entry points take and return
// what cuda.h's do (sizes, pointers or not: the handle types differ in name
// only), its constants and struct layout are the same.
namespace cu = fhec::rt::cu;
template <typename A, typename B> struct SameShape : std::false_type {};
template <typename RA, typename... A, typename RB, typename... B> struct SameShape<RA (*)(A...), RB (*)(B...)> {
  static constexpr bool value = [] {
    if constexpr (sizeof...(A) != sizeof...(B)) {
      return false;
    } else {
      return sizeof(RA) == sizeof(RB) &&
             ((sizeof(A) == sizeof(B) && std::is_pointer_v<A> == std::is_pointer_v<B>) && ... && true);
    }
  }();
};
#define FHEC_SAME_ENTRY(name)                                                                                          \
  static_assert(SameShape<decltype(&::name), decltype(cu::Api::name)>::value, #name " differs from cuda.h's")
FHEC_SAME_ENTRY(cuInit);
FHEC_SAME_ENTRY(cuDeviceGetCount);
FHEC_SAME_ENTRY(cuDeviceGet);
FHEC_SAME_ENTRY(cuDevicePrimaryCtxRetain);
FHEC_SAME_ENTRY(cuCtxSetCurrent);
FHEC_SAME_ENTRY(cuGetErrorString);
FHEC_SAME_ENTRY(cuModuleLoadData);
FHEC_SAME_ENTRY(cuModuleGetFunction);
FHEC_SAME_ENTRY(cuModuleUnload);
FHEC_SAME_ENTRY(cuLaunchKernel);
FHEC_SAME_ENTRY(cuMemAlloc);
FHEC_SAME_ENTRY(cuMemFree);
FHEC_SAME_ENTRY(cuMemAllocHost);
FHEC_SAME_ENTRY(cuMemFreeHost);
FHEC_SAME_ENTRY(cuMemcpyHtoDAsync);
FHEC_SAME_ENTRY(cuMemcpyDtoHAsync);
FHEC_SAME_ENTRY(cuStreamCreate);
FHEC_SAME_ENTRY(cuStreamDestroy);
FHEC_SAME_ENTRY(cuStreamSynchronize);
FHEC_SAME_ENTRY(cuEventCreate);
FHEC_SAME_ENTRY(cuEventRecord);
FHEC_SAME_ENTRY(cuEventSynchronize);
FHEC_SAME_ENTRY(cuEventElapsedTime);
FHEC_SAME_ENTRY(cuEventDestroy);
FHEC_SAME_ENTRY(cuGraphCreate);
FHEC_SAME_ENTRY(cuGraphAddKernelNode);
FHEC_SAME_ENTRY(cuGraphAddEventRecordNode);
FHEC_SAME_ENTRY(cuGraphInstantiate);
FHEC_SAME_ENTRY(cuGraphLaunch);
FHEC_SAME_ENTRY(cuGraphExecKernelNodeSetParams);
FHEC_SAME_ENTRY(cuGraphExecDestroy);
FHEC_SAME_ENTRY(cuGraphDestroy);
#undef FHEC_SAME_ENTRY
static_assert(cu::CUDA_SUCCESS == CUDA_SUCCESS);
static_assert(cu::CU_STREAM_NON_BLOCKING == CU_STREAM_NON_BLOCKING);
static_assert(sizeof(cu::CUdeviceptr) == sizeof(CUdeviceptr));
static_assert(sizeof(cu::KernelNodeParams) == sizeof(CUDA_KERNEL_NODE_PARAMS_v2));
#define FHEC_SAME_OFFSET(field)                                                                                        \
  static_assert(offsetof(cu::KernelNodeParams, field) == offsetof(CUDA_KERNEL_NODE_PARAMS_v2, field))
FHEC_SAME_OFFSET(func);
FHEC_SAME_OFFSET(gridDimX);
FHEC_SAME_OFFSET(gridDimZ);
FHEC_SAME_OFFSET(blockDimX);
FHEC_SAME_OFFSET(blockDimZ);
FHEC_SAME_OFFSET(sharedMemBytes);
FHEC_SAME_OFFSET(kernelParams);
FHEC_SAME_OFFSET(extra);
FHEC_SAME_OFFSET(kern);
FHEC_SAME_OFFSET(ctx);
#undef FHEC_SAME_OFFSET

struct CUctx_st {};
struct CUfunc_st {
  std::string name;
  int params = 0;
};
struct CUmod_st {
  std::string ptx;
  std::vector<std::unique_ptr<CUfunc_st>> functions;  // handed out by cuModuleGetFunction
};
struct CUstream_st {
  long syncs = 0;  // cuStreamSynchronize calls that returned
};
struct CUevent_st {
  bool recorded = false;
  bool fresh = false;   // recorded since its time was last read
  CUstream stream = nullptr;
  long syncsAtRecord = 0;  // its stream's syncs when recorded
  double ms = 0;
};
struct CUgraphNode_st {
  CUgraph graph;
  CUfunction function;  // null: an event record node
  CUevent event;
  uint64_t args;  // hash of the kernel's argument values, copied at the node's creation
};
struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
};
struct CUgraphExec_st {
  std::vector<CUgraphNode_st> nodes;
};

namespace {

struct State {
  std::mutex mutex;
  FILE *log = nullptr;
  int devices = 1;
  std::string failName;
  long failAt = 0;
  long faultAt = 0, kernelsRun = 0;
  bool faulted = false;
  double clockMs = 0;  // advanced 1 ms by every kernel run
  CUctx_st context;
  std::map<const char *, long, std::less<>> calls;
  std::map<char *, size_t> allocations;  // device pointer -> bytes
  std::set<void *> pinned;                 // cuMemAllocHost's live allocations
  std::set<void *> handles;              // live modules, functions, streams, events, graphs, execs

  State() {
    if (const char *p = std::getenv("FHEC_MOCK_CUDA_LOG")) log = std::fopen(p, "a");
    if (const char *p = std::getenv("FHEC_MOCK_CUDA_DEVICES")) devices = std::atoi(p);
    if (const char *p = std::getenv("FHEC_MOCK_CUDA_FAIL")) {
      std::string spec = p;
      size_t colon = spec.rfind(':');
      failName = spec.substr(0, colon);
      failAt = colon == std::string::npos ? 1 : std::atol(spec.c_str() + colon + 1);
    }
    if (const char *p = std::getenv("FHEC_MOCK_CUDA_FAULT")) faultAt = std::atol(p);
  }
  void say(const char *fmt, ...) __attribute__((format(printf, 2, 3))) {
    if (!log) return;
    va_list args;
    va_start(args, fmt);
    std::vfprintf(log, fmt, args);
    va_end(args);
    std::fputc('\n', log);
    std::fflush(log);
  }
  // Counts a call of `name`; true if it is the one FHEC_MOCK_CUDA_FAIL names.
  bool failing(const char *name) {
    long n = ++calls[name];
    return failName == name && (failAt == 0 || n == failAt);
  }
  bool live(void *h) const { return h && handles.count(h); }
  // Whether [p, p + bytes) lies in one allocation.
  bool inside(CUdeviceptr p, size_t bytes) const {
    auto it = allocations.upper_bound(reinterpret_cast<char *>(p));
    if (it == allocations.begin()) return false;
    --it;
    uintptr_t base = reinterpret_cast<uintptr_t>(it->first);
    return p >= base && bytes <= it->second && p - base <= it->second - bytes;
  }
  void runKernel(CUfunction f, uint64_t args, const char *how) {
    say("%s %s args=%016llx", how, f->name.c_str(), (unsigned long long)args);
    clockMs += 1;
    if (++kernelsRun == faultAt) faulted = true;
  }
  void record(CUevent e, CUstream stream) {
    e->recorded = e->fresh = true;
    e->stream = stream;
    e->syncsAtRecord = stream->syncs;
    e->ms = clockMs;
  }
};

State &state() {
  static State &s = *new State;  // never destroyed: executors may outlive static destruction
  return s;
}

#define ENTER(name)                                                                                                    \
  State &s = state();                                                                                                  \
  std::lock_guard<std::mutex> lock(s.mutex);                                                                           \
  if (s.faulted) return CUDA_ERROR_LAUNCH_FAILED;                                                                     \
  [[maybe_unused]] const bool fail = s.failing(name)

// "misuse: ..." in the log, and the error the driver would return.
#define MISUSE(code, ...)                                                                                              \
  do {                                                                                                                 \
    s.say("misuse: " __VA_ARGS__);                                                                                     \
    return code;                                                                                                       \
  } while (0)

// A hash (FNV-1a) of a launch's `count` 8-byte argument values.
uint64_t argsHash(void **params, int count) {
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < count; ++i) {
    uint64_t v;
    std::memcpy(&v, params[i], sizeof v);
    for (int b = 0; b < 8; ++b) h = (h ^ ((v >> (8 * b)) & 0xff)) * 1099511628211ull;
  }
  return h;
}

// The parameter count of `.entry name(` in a PTX text; -1 if not there.
int entryParams(const std::string &ptx, const std::string &name) {
  size_t at = ptx.find(".entry " + name + "(");
  if (at == std::string::npos) return -1;
  size_t close = ptx.find(')', at);
  int n = 0;
  for (size_t p = ptx.find(".param", at); p < close; p = ptx.find(".param", p + 1)) ++n;
  return n;
}

// Ends a handle's life; a misuse if it was not live.
template <typename T> CUresult destroy(State &s, T *handle, const char *call) {
  if (!s.live(handle)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "%s of an unknown handle", call);
  s.handles.erase(handle);
  delete handle;
  return CUDA_SUCCESS;
}

} // namespace

extern "C" {

CUresult cuInit(unsigned int) {
  ENTER("cuInit");
  return fail ? CUDA_ERROR_NOT_INITIALIZED : CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  ENTER("cuDeviceGetCount");
  *count = s.devices;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  ENTER("cuDeviceGet");
  if (ordinal < 0 || ordinal >= s.devices) return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice) {
  ENTER("cuDevicePrimaryCtxRetain");
  if (fail) return CUDA_ERROR_OUT_OF_MEMORY;
  *context = &s.context;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext context) {
  ENTER("cuCtxSetCurrent");
  if (context != &s.context) MISUSE(CUDA_ERROR_INVALID_CONTEXT, "cuCtxSetCurrent of an unknown context");
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  switch (error) {
  case CUDA_SUCCESS: *text = "no error"; break;
  case CUDA_ERROR_OUT_OF_MEMORY: *text = "out of memory"; break;
  case CUDA_ERROR_NOT_INITIALIZED: *text = "initialization error"; break;
  case CUDA_ERROR_INVALID_VALUE: *text = "invalid argument"; break;
  case CUDA_ERROR_INVALID_HANDLE: *text = "invalid resource handle"; break;
  case CUDA_ERROR_NOT_FOUND: *text = "named symbol not found"; break;
  case CUDA_ERROR_INVALID_PTX: *text = "a PTX JIT compilation failed"; break;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: *text = "too many resources requested for launch"; break;
  case CUDA_ERROR_LAUNCH_FAILED: *text = "unspecified launch failure"; break;
  case CUDA_ERROR_NOT_SUPPORTED: *text = "operation not supported"; break;
  default: *text = nullptr; return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  ENTER("cuModuleLoadData");
  std::string ptx = static_cast<const char *>(image);
  s.say("cuModuleLoadData %zu bytes", ptx.size());
  if (fail || ptx.find(".version") == std::string::npos || ptx.find(".target sm_") == std::string::npos)
    return CUDA_ERROR_INVALID_PTX;
  auto *m = new CUmod_st{std::move(ptx), {}};
  s.handles.insert(m);
  *module = m;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module, const char *name) {
  ENTER("cuModuleGetFunction");
  if (!s.live(module)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuModuleGetFunction on an unknown module");
  int params = entryParams(module->ptx, name);
  if (fail || params < 0) return CUDA_ERROR_NOT_FOUND;
  module->functions.push_back(std::make_unique<CUfunc_st>(CUfunc_st{name, params}));
  s.handles.insert(*function = module->functions.back().get());
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module) {
  ENTER("cuModuleUnload");
  if (s.live(module))
    for (auto &f : module->functions) s.handles.erase(f.get());  // its functions die with it
  return destroy(s, module, "cuModuleUnload");
}

CUresult cuMemAlloc(CUdeviceptr *pointer, size_t bytes) {
  ENTER("cuMemAlloc_v2");
  s.say("cuMemAlloc %zu bytes", bytes);
  if (fail) return CUDA_ERROR_OUT_OF_MEMORY;
  if (bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  char *p = static_cast<char *>(std::malloc(bytes));
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  std::memset(p, 0xA5, bytes);
  s.allocations[p] = bytes;
  *pointer = reinterpret_cast<CUdeviceptr>(p);
  return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr pointer) {
  ENTER("cuMemFree_v2");
  auto it = s.allocations.find(reinterpret_cast<char *>(pointer));
  if (it == s.allocations.end()) MISUSE(CUDA_ERROR_INVALID_VALUE, "cuMemFree of a pointer cuMemAlloc did not return");
  std::free(it->first);
  s.allocations.erase(it);
  return CUDA_SUCCESS;
}

CUresult cuMemAllocHost(void **pointer, size_t bytes) {
  ENTER("cuMemAllocHost_v2");
  s.say("cuMemAllocHost %zu bytes", bytes);
  if (fail) return CUDA_ERROR_OUT_OF_MEMORY;
  if (bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  void *p = std::malloc(bytes);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  s.pinned.insert(p);
  *pointer = p;
  return CUDA_SUCCESS;
}

CUresult cuMemFreeHost(void *pointer) {
  ENTER("cuMemFreeHost");
  if (!s.pinned.erase(pointer)) MISUSE(CUDA_ERROR_INVALID_VALUE, "cuMemFreeHost of a pointer cuMemAllocHost did not return");
  std::free(pointer);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t bytes, CUstream stream) {
  ENTER("cuMemcpyHtoDAsync_v2");
  if (fail) return CUDA_ERROR_INVALID_VALUE;
  if (!s.live(stream)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuMemcpyHtoDAsync on an unknown or the default stream");
  if (!s.inside(dst, bytes)) MISUSE(CUDA_ERROR_INVALID_VALUE, "cuMemcpyHtoDAsync of %zu bytes outside an allocation", bytes);
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  ENTER("cuMemcpyDtoHAsync_v2");
  if (fail) return CUDA_ERROR_INVALID_VALUE;
  if (!s.live(stream)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuMemcpyDtoHAsync on an unknown or the default stream");
  if (!s.inside(src, bytes)) MISUSE(CUDA_ERROR_INVALID_VALUE, "cuMemcpyDtoHAsync of %zu bytes outside an allocation", bytes);
  std::memcpy(dst, reinterpret_cast<void *>(src), bytes);
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *stream, unsigned int flags) {
  ENTER("cuStreamCreate");
  s.say("cuStreamCreate flags=%u", flags);
  if (fail) return CUDA_ERROR_OUT_OF_MEMORY;
  auto *st = new CUstream_st;
  s.handles.insert(st);
  *stream = st;
  return CUDA_SUCCESS;
}

CUresult cuStreamDestroy(CUstream stream) {
  ENTER("cuStreamDestroy_v2");
  return destroy(s, stream, "cuStreamDestroy");
}

CUresult cuStreamSynchronize(CUstream stream) {
  ENTER("cuStreamSynchronize");
  if (!s.live(stream)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuStreamSynchronize of an unknown or the default stream");
  if (fail) return CUDA_ERROR_LAUNCH_FAILED;
  ++stream->syncs;
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *event, unsigned int) {
  ENTER("cuEventCreate");
  if (fail) return CUDA_ERROR_OUT_OF_MEMORY;
  auto *e = new CUevent_st;
  s.handles.insert(e);
  *event = e;
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream stream) {
  ENTER("cuEventRecord");
  if (!s.live(event)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuEventRecord of an unknown event");
  if (!s.live(stream)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuEventRecord on an unknown or the default stream");
  s.record(event, stream);
  return CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent event) {
  ENTER("cuEventSynchronize");
  if (!s.live(event)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuEventSynchronize of an unknown event");
  return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end) {
  ENTER("cuEventElapsedTime");
  if (!s.live(start) || !s.live(end)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuEventElapsedTime of an unknown event");
  if (!start->recorded || !end->recorded) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuEventElapsedTime of an unrecorded event");
  for (CUevent e : {start, end})
    if (!s.live(e->stream) || e->stream->syncs <= e->syncsAtRecord)
      MISUSE(CUDA_ERROR_NOT_READY, "cuEventElapsedTime of an event its stream was not synchronized after");
  if (!start->fresh || !end->fresh) s.say("misuse: cuEventElapsedTime of an event not recorded since its last read");
  start->fresh = end->fresh = false;
  *ms = float(end->ms - start->ms);
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent event) {
  ENTER("cuEventDestroy_v2");
  return destroy(s, event, "cuEventDestroy");
}

// Launch sizes within an sm_80/sm_90 GPU's limits.
static bool validLaunch(State &s, CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned shared, void **params, const char *where) {
  if (!s.live(f)) {
    s.say("misuse: %s of an unknown function", where);
    return false;
  }
  bool ok = gx && gy && gz && bx && by && bz && gy <= 65535 && gz <= 65535 && uint64_t(bx) * by * bz <= 1024 &&
            bz <= 64 && shared <= 48 * 1024 && (params || f->params == 0);
  if (!ok)
    s.say("misuse: %s of %s with grid (%u, %u, %u), block (%u, %u, %u), %u shared bytes, %s parameters", where,
          f->name.c_str(), gx, gy, gz, bx, by, bz, shared, params ? "with" : "no");
  return ok;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                        unsigned int by, unsigned int bz, unsigned int shared, CUstream stream, void **params,
                        void **extra) {
  ENTER("cuLaunchKernel");
  if (!s.live(stream)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuLaunchKernel on an unknown or the default stream");
  if (!validLaunch(s, f, gx, gy, gz, bx, by, bz, shared, params, "cuLaunchKernel") || extra)
    return CUDA_ERROR_INVALID_VALUE;
  s.say("cuLaunchKernel %s grid=(%u,%u,%u) block=(%u,%u,%u)", f->name.c_str(), gx, gy, gz, bx, by, bz);
  if (fail) return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  s.runKernel(f, argsHash(params, f->params), "run");
  return CUDA_SUCCESS;
}

CUresult cuGraphCreate(CUgraph *graph, unsigned int flags) {
  ENTER("cuGraphCreate");
  if (fail) return CUDA_ERROR_OUT_OF_MEMORY;
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  auto *g = new CUgraph_st;
  s.handles.insert(g);
  *graph = g;
  return CUDA_SUCCESS;
}

// Adds a node after `deps` (which must be nodes of the same graph).
static CUresult addNode(State &s, CUgraphNode *node, CUgraph graph, const CUgraphNode *deps, size_t n,
                        CUfunction function, CUevent event, uint64_t args, const char *where) {
  if (!s.live(graph)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "%s to an unknown graph", where);
  for (size_t i = 0; i < n; ++i)
    if (!deps || !deps[i] || deps[i]->graph != graph) MISUSE(CUDA_ERROR_INVALID_VALUE, "%s after a node of another graph", where);
  graph->nodes.push_back(std::make_unique<CUgraphNode_st>(CUgraphNode_st{graph, function, event, args}));
  *node = graph->nodes.back().get();
  return CUDA_SUCCESS;
}

CUresult cuGraphAddKernelNode(CUgraphNode *node, CUgraph graph, const CUgraphNode *deps, size_t n,
                              const CUDA_KERNEL_NODE_PARAMS *p) {
  ENTER("cuGraphAddKernelNode_v2");
  if (fail) return CUDA_ERROR_OUT_OF_MEMORY;
  if (!validLaunch(s, p->func, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY, p->blockDimZ,
                   p->sharedMemBytes, p->kernelParams, "cuGraphAddKernelNode") ||
      p->extra)
    return CUDA_ERROR_INVALID_VALUE;
  return addNode(s, node, graph, deps, n, p->func, nullptr, argsHash(p->kernelParams, p->func->params),
                 "cuGraphAddKernelNode");
}

CUresult cuGraphAddEventRecordNode(CUgraphNode *node, CUgraph graph, const CUgraphNode *deps, size_t n,
                                   CUevent event) {
  ENTER("cuGraphAddEventRecordNode");
  if (fail) return CUDA_ERROR_OUT_OF_MEMORY;
  if (!s.live(event)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuGraphAddEventRecordNode of an unknown event");
  return addNode(s, node, graph, deps, n, nullptr, event, 0, "cuGraphAddEventRecordNode");
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph, unsigned long long) {
  ENTER("cuGraphInstantiateWithFlags");
  if (!s.live(graph)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuGraphInstantiate of an unknown graph");
  size_t kernels = 0;
  for (auto &n : graph->nodes) kernels += n->function != nullptr;
  s.say("cuGraphInstantiate kernels=%zu events=%zu", kernels, graph->nodes.size() - kernels);
  if (fail) return CUDA_ERROR_NOT_SUPPORTED;
  auto *e = new CUgraphExec_st;
  for (auto &n : graph->nodes) e->nodes.push_back(*n);
  s.handles.insert(e);
  *exec = e;
  return CUDA_SUCCESS;
}

CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  ENTER("cuGraphLaunch");
  if (!s.live(exec)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuGraphLaunch of an unknown graph");
  if (!s.live(stream)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuGraphLaunch on an unknown or the default stream");
  size_t kernels = 0;
  for (auto &n : exec->nodes) kernels += n.function != nullptr;
  s.say("cuGraphLaunch kernels=%zu events=%zu", kernels, exec->nodes.size() - kernels);
  if (fail) return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  // The nodes run in the order they were added (the runtime chains them).
  for (auto &n : exec->nodes) {
    if (n.function) {
      if (!s.live(n.function)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuGraphLaunch of a graph whose module was unloaded");
      s.runKernel(n.function, n.args, "node");
    } else if (!s.live(n.event)) {
      MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuGraphLaunch of a graph whose event was destroyed");
    } else {
      s.record(n.event, stream);
    }
  }
  return CUDA_SUCCESS;
}

CUresult cuGraphExecKernelNodeSetParams(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS *p) {
  ENTER("cuGraphExecKernelNodeSetParams_v2");
  if (!s.live(exec)) MISUSE(CUDA_ERROR_INVALID_HANDLE, "cuGraphExecKernelNodeSetParams of an unknown graph instance");
  if (!node || !s.live(node->graph)) MISUSE(CUDA_ERROR_INVALID_VALUE, "cuGraphExecKernelNodeSetParams of an unknown node");
  auto &nodes = node->graph->nodes;
  size_t i = 0;
  while (i < nodes.size() && nodes[i].get() != node) ++i;
  if (i >= nodes.size() || i >= exec->nodes.size() || exec->nodes[i].graph != node->graph)
    MISUSE(CUDA_ERROR_INVALID_VALUE, "cuGraphExecKernelNodeSetParams of a node of another graph than the instance's");
  if (!exec->nodes[i].function || p->func != exec->nodes[i].function)
    MISUSE(CUDA_ERROR_INVALID_VALUE, "cuGraphExecKernelNodeSetParams changing a node's function or kind");
  if (!validLaunch(s, p->func, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY, p->blockDimZ,
                   p->sharedMemBytes, p->kernelParams, "cuGraphExecKernelNodeSetParams") ||
      p->extra)
    return CUDA_ERROR_INVALID_VALUE;
  if (fail) return CUDA_ERROR_INVALID_VALUE;
  exec->nodes[i].args = argsHash(p->kernelParams, p->func->params);
  s.say("cuGraphExecKernelNodeSetParams %s args=%016llx", p->func->name.c_str(), (unsigned long long)exec->nodes[i].args);
  return CUDA_SUCCESS;
}

CUresult cuGraphExecDestroy(CUgraphExec exec) {
  ENTER("cuGraphExecDestroy");
  return destroy(s, exec, "cuGraphExecDestroy");
}

CUresult cuGraphDestroy(CUgraph graph) {
  ENTER("cuGraphDestroy");
  return destroy(s, graph, "cuGraphDestroy");
}

} // extern "C"
