// src/ops/elementwise/generator.hpp: CUDA C for one elementwise kernel, from an expression and a key.
//
//   generate_elementwise(key, "out0 = in0 + in1")
//
// The expression reads in0, in1, ... and assigns out0, out1, ..., each a local of its loop dtype's
// compute type (float for float16 and bfloat16); the kernel loads and converts the inputs, runs the
// expression and converts and stores the outputs. The source includes gpukit_elementwise.cuh
// (elementwise_header()) and defines extern "C" kernels taking gk_params.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "ops/elementwise/op_key.hpp"

namespace gpukit::detail {

inline constexpr std::string_view elementwise_kernel_name = "gk_elementwise";
inline constexpr std::string_view elementwise_header_name = "gpukit_elementwise.cuh";

// The text of kernels/gpukit_elementwise.cuh, embedded at build time.
std::string_view elementwise_header();

// The C type an array of `dtype` holds in memory (gk_float16 for float16) and the one the
// expression computes in (float for float16).
std::string_view storage_c_type(DType dtype);
std::string_view compute_c_type(DType dtype);

// One kernel for `key`: its layout and dtypes in its text (GPUs).
std::string generate_elementwise(const OpKey& key, std::string_view expression);

// Generic kernels for the simulator: one per loop (generic_kernel_name(i) for loops[i]), reading
// the layout, the storage dtypes, scalars and a where= mask from gk_params at run time, so one
// compile serves an operation on any arrays.
struct GenericLoop {
    std::string_view expression;
    std::span<const DType> dtypes;  // the loop's dtypes, inputs then outputs
};
std::string generic_kernel_name(std::size_t index);
std::string generate_generic_elementwise(std::size_t nin, std::size_t nout, std::span<const GenericLoop> loops);

}  // namespace gpukit::detail
