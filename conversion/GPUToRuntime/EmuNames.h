// Symbol names shared by the cuda-emu passes (fhec-gpu-launch-to-runtime,
// fhec-gpu-to-emu, fhec-gpu-emu-trampolines).
#pragma once

#include "fhec/runtime/Abi.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace fhec::emu {

/// The host function a kernel becomes (prefixed: kernels are named after the
/// host functions they came from).
inline std::string kernelFunction(llvm::StringRef kernel) { return "__fhec_kernel_" + kernel.str(); }

/// void __fhec_emu_<kernel>(int64 *slots): unpacks the slots, calls the kernel.
inline std::string trampoline(llvm::StringRef kernel) { return abi::kEmuTrampolinePrefix + kernel.str(); }

/// Discardable attribute of a trampoline declaration: the kernel function it calls.
constexpr const char *kTrampolineOfAttr = "fhec.emu_kernel";

} // namespace fhec::emu
