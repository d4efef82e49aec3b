// src/ops/convolution/kernels.hpp: the convolution kernels (kernels/gpukit_convolution.cuh), their
// parameters, and how they are compiled and launched.
#pragma once

#include <cstdint>
#include <string_view>

#include "gpukit/array.hpp"

namespace gpukit::detail {

inline constexpr std::string_view convolution_header_name = "gpukit_convolution.cuh";

// The text of kernels/gpukit_convolution.cuh, embedded at build time.
std::string_view convolution_header();

inline constexpr int max_convolution_dims = 8;  // GK_CONV_MAX_DIMS

// How the input is extended past its edges and what the sums are taken in: the GK_CONV_* numbers
// of kernels/gpukit_convolution.cuh.
enum class Extension : std::int32_t { constant = 0, reflect = 1, mirror = 2, nearest = 3, wrap = 4 };
enum class ConvolutionCompute : std::int32_t { real = 0, complex = 1, integer = 2 };

// Mirrors gk_convolution_params in kernels/gpukit_convolution.cuh (what each field means is said there).
struct ConvolutionParams {
    std::uint64_t input = 0;
    std::uint64_t weights = 0;
    std::uint64_t out = 0;
    std::int64_t in_shape[max_convolution_dims] = {};
    std::int64_t in_strides[max_convolution_dims] = {};
    std::int64_t out_shape[max_convolution_dims] = {};
    std::int64_t out_strides[max_convolution_dims] = {};
    std::int64_t weight_shape[max_convolution_dims] = {};
    std::int64_t offset[max_convolution_dims] = {};
    std::int64_t size = 0;
    std::int64_t weight_size = 0;
    double cval_real = 0, cval_imag = 0;
    double divisor = 1;
    std::int32_t ndim = 0;
    std::int32_t input_dtype = 0;
    std::int32_t out_dtype = 0;
    ConvolutionCompute compute = ConvolutionCompute::real;
    Extension mode = Extension::constant;
    std::int32_t constant = 0;
    std::int32_t axis = 0;
    std::int64_t lines = 0;
    std::int64_t tiles = 0;
    std::int64_t tiles_x = 0;
};

// One correlation, described for the kernels: out[j] = sum_k weights[k] * input~[j + offset + k]
// (see the header). `weights` holds the values in the compute kind's type (float64, complex128,
// int64), C-contiguous, one dimension per input dimension; `out` is written.
struct CorrelationLaunch {
    Array input;
    Array weights;
    Array out;
    std::vector<std::int64_t> offset;
    Extension mode = Extension::constant;
    double cval_real = 0, cval_imag = 0;
    double divisor = 1;
    ConvolutionCompute compute = ConvolutionCompute::real;
};

// Launches the correlation on the current stream of the input's device: the GPU picks the 1-D
// line shape, the 2-D tile or the generic kernel, with the weights in constant memory where they
// fit; the simulator runs the generic kernel of its one module.
void launch_correlation(const CorrelationLaunch& launch);

}  // namespace gpukit::detail
