// Where a compiled module's kernels run, as its manifest states it
// (Manifest.h) and the executor picks a device for it (Device.h).
#pragma once

namespace fhec::rt {

/// Where a module's kernels run: the host CPU (the CPU targets), an NVIDIA
/// GPU through the CUDA driver (cuda), or the CPU with a GPU's thread
/// semantics, its data staged through a host "device" (cuda-emu).
enum class KernelPlace { Host, Cuda, Emulated };

} // namespace fhec::rt
