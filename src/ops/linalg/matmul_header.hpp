// src/ops/linalg/matmul_header.hpp: the text of kernels/gpukit_matmul.cuh, embedded at build time
// (src/ops/linalg/matmul.cpp compiles it).
#pragma once

#include <string_view>

namespace gpukit::detail {

std::string_view matmul_header();

}  // namespace gpukit::detail
