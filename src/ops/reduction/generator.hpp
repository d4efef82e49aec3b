// src/ops/reduction/generator.hpp: writes the CUDA C of reduction kernels. Each kernel is an
// operation struct (the reduction's expressions over its dtypes) handed to one of the kernel
// shapes of kernels/gpukit_reduction.cuh, which hold the loops, once for both backends. Built-in
// reductions (src/ops/reductions.def) and users' ReductionKernels are written alike.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <tuple>

#include "gpukit/dtype.hpp"
#include "ops/reduction/plan.hpp"

namespace gpukit::detail {

inline constexpr std::string_view reduction_header_name = "gpukit_reduction.cuh";

// The text of kernels/gpukit_reduction.cuh, embedded at build time.
std::string_view reduction_header();

// A reduction's code. Built-in ones (a row of src/ops/reductions.def) write statements over in0..,
// a, b, n and out0; a ReductionKernel's expressions are wrapped to the same (its own names are
// declared by `names`).
struct ReductionExpressions {
    std::string_view accumulator;  // the accumulator's C type in terms of acc_value_t; empty: acc_value_t
    std::string_view identity;     // statements returning the acc_t of no elements
    std::string_view map;          // statements setting a (acc_t) from the inputs and gk_j
    std::string_view reduce;       // statements setting a from a and b (a's elements first)
    std::string_view post;         // statements setting the output from a, n and gk_argument
};

// Names the expressions use: each input's (in0, in1, ... for built-ins), the output's (out0), and
// code before the operation (a ReductionKernel's type placeholders and preamble).
struct ReductionNames {
    std::span<const std::string> inputs;
    std::string_view output;
    std::string_view prelude;
};

inline constexpr std::size_t max_reduction_inputs = 8;

// The dtypes of one loop: the inputs', the accumulator's (acc_value_t) and the result's.
struct ReductionDTypes {
    std::array<DType, max_reduction_inputs> inputs{};
    std::uint8_t input_count = 1;
    DType accumulator = DType::float32, output = DType::float32;
    friend bool operator==(const ReductionDTypes&, const ReductionDTypes&) = default;
    friend bool operator<(const ReductionDTypes& a, const ReductionDTypes& b) {
        return std::tie(a.inputs, a.input_count, a.accumulator, a.output) <
               std::tie(b.inputs, b.input_count, b.accumulator, b.output);
    }
};

// The params struct's input slots for `inputs` inputs: a power of two, so that few kernel
// parameter layouts exist (gk_reduce_params<N>).
inline std::size_t reduction_params_width(std::size_t inputs) {
    std::size_t width = 1;
    while (width < inputs) width *= 2;
    return width;
}

// One kernel to write: a loop, the shape that runs it, and (full reductions of one contiguous
// input on a GPU) the elements per 16-byte load.
struct ReductionKernelSpec {
    ReductionDTypes dtypes;
    ReductionClass shape;
    int vector_width = 1;
};

// Bytes of one accumulator (acc_t): acc_value_t's (`accumulator`), or the pair of
// kernels/gpukit_reduction.cuh that the expressions name (gk_range: two values; gk_arg and
// gk_sum_count: a value and a long long).
std::int64_t accumulator_bytes(const ReductionExpressions& expressions, DType accumulator);

// A columns kernel's results a thread (W: the accumulators each thread holds, at most `widest`, what
// the input's alignment allows up to column_results_most) and its blocks a multiprocessor (its
// launch bound, which the host's grid matches). Measured on an H200 over axis 0 of 4096^2 and 16384x256, sums, means
// and argmax of every dtype: beyond 32 bytes of accumulators a thread spilled (int8 sums at W=8: 208 GB/s, at W=4:
// 1002; argmax of float32 at W=4: 554, at W=2: 2162) and beyond 4 results a thread the loads did not keep up (float16
// sums at W=8: 2595, at W=4: 3498); four blocks beat six where a thread holds more than 8 bytes (float32 sums: 2867 ->
// 3150 GB/s), six beat four where it holds less (var: 957 against 839).
inline constexpr int column_results_most = 4;
int column_results_per_thread(int widest, std::int64_t accumulator_bytes);
int column_blocks_per_processor(int results_per_thread, std::int64_t accumulator_bytes);

// The kernel's name for `spec`, numbered `index` in its module.
std::string reduction_kernel_name(ReductionClass shape, std::size_t index);

// A module with one kernel per spec (reduction_kernel_name(spec.shape, index)), for the simulator
// when `simulated` (in the GPU's kernel shapes all the same when `gpu_shapes`: tests do).
std::string generate_reduction(const ReductionExpressions& expressions, const ReductionNames& names,
                               std::span<const ReductionKernelSpec> specs, bool simulated, bool gpu_shapes);

// The names of built-in reductions' inputs: in0, in1, ...
std::span<const std::string> builtin_input_names();

}  // namespace gpukit::detail
