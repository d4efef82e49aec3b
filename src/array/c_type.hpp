// src/array/c_type.hpp: how kernel source spells a dtype's element type.
#pragma once

#include <string_view>

#include "gpukit/dtype.hpp"

namespace gpukit::detail {

// Which names the half-precision and complex types go by: CUDA's headers' (cuda_fp16.h,
// cuda_bf16.h, cuComplex.h), as users write them, or the generated kernels' prelude's
// (kernels/gpukit_elementwise.cuh). Every other dtype is spelled the same in both.
enum class CTypeNames { cuda_headers, gpukit_prelude };

std::string_view c_type_of(DType dtype, CTypeNames names);

}  // namespace gpukit::detail
