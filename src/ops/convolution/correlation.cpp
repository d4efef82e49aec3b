// src/ops/convolution/correlation.cpp: the host side every convolution shares.
#include "ops/convolution/correlation.hpp"

#include "gpukit/elementwise.hpp"
#include "gpukit/shape_ops.hpp"

namespace gpukit::detail {

ConvolutionCompute compute_kind_for(DType result) {
    switch (dtype_info(result).kind) {
        case DTypeKind::complex: return ConvolutionCompute::complex;
        case DTypeKind::floating: return ConvolutionCompute::real;
        default: return ConvolutionCompute::integer;
    }
}

Array kernel_weights(const Array& weights, ConvolutionCompute compute, bool reverse, bool conjugate) {
    const DType dtype = compute == ConvolutionCompute::complex ? DType::complex128
                        : compute == ConvolutionCompute::real  ? DType::float64
                                                               : DType::int64;
    Array w = reverse ? flip(weights) : weights;
    if (conjugate && dtype_info(w.dtype()).kind == DTypeKind::complex) w = conj(w);
    return w.astype(dtype, Order::C);
}

Array correlate_into_new(const Array& input, const Array& weights, const Correlation& correlation, DType out_dtype,
                         ConvolutionCompute compute) {
    Array out = Array::empty(correlation.out_shape, out_dtype, input.device());
    CorrelationLaunch launch{input, weights, out, correlation.offset};
    launch.mode = correlation.mode;
    launch.cval_real = correlation.cval.real();
    launch.cval_imag = correlation.cval.imag();
    launch.divisor = correlation.divisor;
    launch.compute = compute;
    launch_correlation(launch);
    return out;
}

}  // namespace gpukit::detail
