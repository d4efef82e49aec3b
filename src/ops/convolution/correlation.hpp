// src/ops/convolution/correlation.hpp: what NumPy's, scipy.signal's and scipy.ndimage's
// convolutions share on the host: the compute kind of a result dtype, the weights as the kernels
// read them, and one correlation launched into a new array.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "gpukit/array.hpp"
#include "ops/convolution/kernels.hpp"

namespace gpukit::detail {

// Complex results sum in complex128, floats in float64, bool and integers in wrapping int64.
ConvolutionCompute compute_kind_for(DType result);

// The weights as the kernels read them: in the compute kind's dtype, C-contiguous, reversed along
// every axis for a convolution, conjugated where asked.
Array kernel_weights(const Array& weights, ConvolutionCompute compute, bool reverse, bool conjugate);

struct Correlation {
    Shape out_shape;
    std::vector<std::int64_t> offset;  // per dimension: the input coordinate of weights[0] for output 0
    Extension mode = Extension::constant;
    std::complex<double> cval = 0;
    double divisor = 1;
};

// A new array of `out_dtype` holding the correlation of `input` with the prepared `weights` (one
// dimension each per input dimension), on the current stream.
Array correlate_into_new(const Array& input, const Array& weights, const Correlation& correlation, DType out_dtype,
                         ConvolutionCompute compute);

}  // namespace gpukit::detail
