// RMM 22.12 uses thrust::optional, which CCCL 3 (CUDA 13) removed: cuda::std::optional replaces it.
#pragma once
#include <cuda/std/optional>

namespace thrust {
using ::cuda::std::make_optional;
using ::cuda::std::nullopt;
using ::cuda::std::optional;
}  // namespace thrust
