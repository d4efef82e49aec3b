// src/ops/reduction/generator.hpp: writes the CUDA C of reduction kernels. Each kernel is an
// operation struct (the reduction's expressions over its dtypes) handed to one of the kernel
// shapes of kernels/gpukit_reduction.cuh, which hold the loops, once for both backends.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "gpukit/dtype.hpp"
#include "ops/reduction/plan.hpp"

namespace gpukit::detail {

inline constexpr std::string_view reduction_header_name = "gpukit_reduction.cuh";

// The text of kernels/gpukit_reduction.cuh, embedded at build time.
std::string_view reduction_header();

// A reduction's expressions (a row of src/ops/reductions.def).
struct ReductionExpressions {
    std::string_view identity, map, reduce, post;
};

// The dtypes of one loop: the input's, the accumulator's and the result's.
struct ReductionDTypes {
    DType input, accumulator, output;
    friend bool operator==(const ReductionDTypes&, const ReductionDTypes&) = default;
};

// One kernel to write: a loop, the shape that runs it, and (full reductions on a GPU) the
// elements per 16-byte load.
struct ReductionKernelSpec {
    ReductionDTypes dtypes;
    ReductionClass shape;
    int vector_width = 1;
};

// The kernel's name for `spec`, numbered `index` in its module.
std::string reduction_kernel_name(ReductionClass shape, std::size_t index);

// A module with one kernel per spec (reduction_kernel_name(spec.shape, index)), for the simulator
// when `simulated` (in the GPU's kernel shapes all the same when `gpu_shapes`: tests do).
std::string generate_reduction(const ReductionExpressions& expressions, std::span<const ReductionKernelSpec> specs,
                               bool simulated, bool gpu_shapes);

}  // namespace gpukit::detail
