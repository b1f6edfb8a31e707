#include "target/Target.h"

#include "dialect/FHE/IR/FHEDialect.h"
#include "fhec/runtime/CpuFeatures.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace fhec {

namespace {
// clang-format off
const TargetSpec kTargets[] = {
    // Portable 64-bit scalar code: Shoup/Barrett with mulx, lazy NTT in [0, 4p)
    // needs p < 2^62. Radix-4 sub-levels: 4 residues and 3 twiddle pairs fit
    // the 16 registers (radix-8 measured 4% slower, radix-16 20%: spills);
    // depth-first blocks of 2^12 words (32 KiB) stay in
    // L1 (48 KiB). Blocks of 16 coefficients keep the iCRT's temp block
    // (16 x m words) and the CRT's input block in L1. A kernel reading a
    // prime-major matrix one coefficient block at a time touches one cache
    // line per prime: nearly as cheap as streaming, so transposes fold.
    // name   features  llvm cpu  llvm features  primes shoup word lanes gpu emulated ifma tile8x8 ntt order
    {"cpu", "", "x86-64", "", 60, 64, 64, 1, false, false, false, false, NttOrder::natural, /*packedTwiddles=*/false,
     // radix block head crt icrt folded transpose
     2, 12, 4, 16, 16, 1.1, 2.0},
    // AVX-512 IFMA: 8 x 64-bit lanes, the 52-bit multiplier (vpmadd52luq/huq):
    // Shoup constants and BigInt digits in base 2^52, lazy [0, 4p) needs
    // 4p < 2^52, so p < 2^50. Radix-8 sub-levels: the last three stages then
    // form one sub-level of 8-residue blocks, transposed in registers (radix-16
    // measured twice as slow: spills). Every target pads prime-major rows by
    // three cache lines (abi::rnsRowWords).
    {"cpu-avx512", "avx512f,avx512dq,avx512vl,avx512ifma", "x86-64-v4", "+avx512ifma,-prefer-256-bit", 50, 52, 64, 8,
     false, false, /*ifma=*/true, /*tileTranspose8x8=*/true, NttOrder::transposed8x8, /*packedTwiddles=*/false,
     3, 12, 4, 16, 16, 1.1, 2.0},
    // CUDA: 32-bit integer arithmetic, 30-bit primes (lazy [0, 4p) < 2^32),
    // Shoup in base 2^32; an NTT level of up to 2^11 words is one thread
    // block's tile in shared memory (16 KiB), each thread holding 8 residues
    // (radix-8 sub-levels: 256 threads per 2^11 tile). A warp's request
    // covers 32 consecutive coefficients of a row, coalesced like a
    // stream: an iCRT reads the NTTs' prime-major rows in place, without
    // a transpose (docs/gpu-model.md: the transposes moved 40% useful
    // sectors, and the iCRT's coefficient-major reads 25-31%). Its host
    // code is x86-64.
    {"cuda", "", "x86-64", "", 30, 32, 32, 1, /*gpu=*/true, false, false, false, NttOrder::natural,
     /*packedTwiddles=*/true, 3, 11, 5, 1, 1, 1.1, 2.0},
    // The cuda target's kernels executed on the CPU with the GPU's block,
    // thread, shared-memory and barrier semantics (runtime/lib/GpuEmu.cpp):
    // the same grids, arithmetic and primes, for machines without a GPU.
    {"cuda-emu", "", "x86-64", "", 30, 32, 32, 1, /*gpu=*/true, /*emulated=*/true, false, false, NttOrder::natural,
     /*packedTwiddles=*/true, 3, 11, 5, 1, 1, 1.1, 2.0},
};
// clang-format on
} // namespace

std::vector<std::string> TargetSpec::requiredCpuFeatures() const {
  llvm::SmallVector<llvm::StringRef> parts;
  cpuFeatures.split(parts, ',', -1, /*KeepEmpty=*/false);
  return std::vector<std::string>(parts.begin(), parts.end());
}

llvm::ArrayRef<TargetSpec> allTargets() { return kTargets; }

const TargetSpec *lookupTarget(llvm::StringRef name) {
  for (const TargetSpec &t : kTargets)
    if (t.name == name) return &t;
  return nullptr;
}

llvm::StringRef knownTargetNames() {
  static const std::string names = [] {
    std::string s;
    for (const TargetSpec &t : kTargets) s += (s.empty() ? "" : ", ") + t.name.str();
    return s;
  }();
  return names;
}

static const TargetSpec &ifmaTarget() { return *lookupTarget("cpu-avx512"); }

std::vector<std::string> missingCpuFeatures(const TargetSpec &target) {
  return rt::missingCpuFeatures(target.requiredCpuFeatures());
}

std::string targetsJson() {
  llvm::json::Array targets;
  for (const TargetSpec &t : kTargets) {
    std::vector<std::string> needed = t.requiredCpuFeatures(), missing = missingCpuFeatures(t);
    targets.push_back(llvm::json::Object{{"name", t.name},
                                         {"cpu_features", llvm::json::Array(needed)},
                                         {"gpu", t.gpu},
                                         {"emulated", t.emulated},
                                         {"word_bits", int64_t(t.wordBits)},
                                         {"missing_here", llvm::json::Array(missing)}});
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(targets)));
  return out;
}

const TargetSpec *resolveTarget(llvm::StringRef name, std::string &error) {
  if (name == "auto")
    return lookupTarget(missingCpuFeatures(ifmaTarget()).empty() ? "cpu-avx512" : "cpu");
  const TargetSpec *t = lookupTarget(name);
  if (!t) error = "unknown target '" + name.str() + "' (available: " + knownTargetNames().str() + ", auto)";
  return t;
}

std::string describeAutoTarget() {
  std::string error;
  std::string resolved = resolveTarget("auto", error)->name.str();
  std::vector<std::string> missing = missingCpuFeatures(ifmaTarget());
  if (missing.empty()) return resolved + " (--target=auto: this CPU has AVX-512 IFMA)";
  std::string list;
  for (const std::string &f : missing) list += (list.empty() ? "" : ", ") + f;
  return resolved + " (--target=auto: this CPU lacks " + list + " for cpu-avx512)";
}

llvm::StringRef targetAttrName() { return fhe::FHEDialect::getTargetAttrName(); }

void setTarget(mlir::ModuleOp module, const TargetSpec &target) {
  module->setAttr(targetAttrName(), mlir::StringAttr::get(module.getContext(), target.name));
}

const TargetSpec *getTarget(mlir::Operation *op) {
  mlir::Operation *holder = op;
  while (holder && !holder->hasAttr(targetAttrName())) holder = holder->getParentOp();
  if (!holder) return lookupTarget("cpu");
  auto name = holder->getAttrOfType<mlir::StringAttr>(targetAttrName());
  const TargetSpec *t = name ? lookupTarget(name.getValue()) : nullptr;
  if (!t)
    holder->emitError() << "unknown target " << holder->getAttr(targetAttrName()) << " in '" << targetAttrName()
                        << "' (expected one of " << knownTargetNames() << ")";
  return t;
}

} // namespace fhec
