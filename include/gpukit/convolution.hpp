// gpukit/convolution.hpp: convolution and correlation of arrays, as NumPy's (numpy.convolve,
// numpy.correlate: 1-D) and scipy.signal's (convolve, correlate: N-D; convolve2d, correlate2d: 2-D
// with boundaries). Sums are direct: small weights sit in the GPU's constant memory and the inputs
// in shared-memory tiles (kernels/gpukit_convolution.cuh); method fft and fftconvolve go through
// gpukit/fft.hpp.
//
//   gpukit::Array smooth = gpukit::convolve(x, kernel, gpukit::ConvolveMode::same);
//   gpukit::Array image2 = gpukit::signal::convolve2d(image, stencil, {.mode = gpukit::ConvolveMode::same,
//                                                                     .boundary =
//                                                                     gpukit::signal::Boundary::symmetric});
//
// Results take NumPy's promoted dtype of the two operands (result_type); integer sums wrap as
// NumPy's integer arithmetic does, float and complex sums are taken in double precision.
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"

namespace gpukit {

// Which outputs a convolution keeps: every overlap ("full": N + K - 1 along each axis), the first
// operand's size centred on the full result ("same"), or only complete overlaps ("valid").
enum class ConvolveMode { full, same, valid };

// "full", "same" or "valid" (InvalidArgumentError naming them otherwise).
ConvolveMode convolve_mode_from_name(std::string_view name);

// numpy.convolve of the 1-D `a` and `v` (the longer is the signal, whatever their order).
// InvalidArgumentError for an empty operand or one not 1-D, with NumPy's messages.
Array convolve(const Array& a, const Array& v, ConvolveMode mode = ConvolveMode::full);
// numpy.correlate: z[k] = sum_n a[n + k] * conj(v[n]); 'same' keeps the longer operand's length.
Array correlate(const Array& a, const Array& v, ConvolveMode mode = ConvolveMode::valid);

namespace signal {

// scipy.signal.convolve with method='direct' of two arrays of the same number of dimensions.
// InvalidArgumentError where their dimensions differ, and in 'valid' mode where neither is at
// least as large as the other along every axis (SciPy's messages).
Array convolve(const Array& in1, const Array& in2, ConvolveMode mode = ConvolveMode::full);
// scipy.signal.correlate with method='direct': in2 conjugated, the result 'full' over every lag.
Array correlate(const Array& in1, const Array& in2, ConvolveMode mode = ConvolveMode::full);

// How scipy.signal.convolve and correlate sum: directly, or by FFT (fftconvolve, then rounded
// for integer operands and cast to their promoted dtype, as SciPy's), or `automatic`: the one
// choose_conv_method picks.
enum class ConvolveMethod { direct, fft, automatic };
Array convolve(const Array& in1, const Array& in2, ConvolveMode mode, ConvolveMethod method);
Array correlate(const Array& in1, const Array& in2, ConvolveMode mode, ConvolveMethod method);
// scipy.signal.choose_conv_method: direct or fft for these operands, by a model of both methods'
// times measured on a GPU (src/ops/convolution/method_choice.cpp): direct sums for integer and
// bool operands (exact) and where the model says they are faster, the FFT otherwise. SciPy's
// model counts a CPU's operations; CuPy always picks the FFT.
ConvolveMethod choose_conv_method(const Array& in1, const Array& in2, ConvolveMode mode = ConvolveMode::full);

// scipy.signal.fftconvolve along `axes` (all by default; the others broadcast, one operand's
// extent equal to the other's or 1). Real operands give a real result (float32 for float32
// operands, float64 for integers), complex ones complex. Empty operands give an empty float64
// array, as SciPy's. InvalidArgumentError with SciPy's messages for operands of different
// dimensions, repeated or empty axes, shapes that do not broadcast, and 'valid' mode as convolve.
Array fftconvolve(const Array& in1, const Array& in2, ConvolveMode mode = ConvolveMode::full,
                  const std::optional<std::vector<std::int64_t>>& axes = std::nullopt);

// convolve2d's extension of in1 past its edges: zeros or `fillvalue`, periodic, or mirrored with
// the edge repeated (d c b a | a b c d).
enum class Boundary { fill, wrap, symmetric };
// "fill", "wrap" or "circular", "symm" or "symmetric" (InvalidArgumentError with SciPy's message).
Boundary boundary_from_name(std::string_view name);

struct Convolve2dOptions {
    ConvolveMode mode = ConvolveMode::full;
    Boundary boundary = Boundary::fill;
    std::complex<double> fillvalue = 0;
};

// scipy.signal.convolve2d and correlate2d of two 2-D arrays. InvalidArgumentError for operands not
// 2-D, and in 'valid' mode as convolve.
Array convolve2d(const Array& in1, const Array& in2, const Convolve2dOptions& options = {});
Array correlate2d(const Array& in1, const Array& in2, const Convolve2dOptions& options = {});

}  // namespace signal
}  // namespace gpukit
