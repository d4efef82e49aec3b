// gpukit/fft.hpp: discrete Fourier transforms of arrays, as numpy.fft's (NumPy 2's names,
// arguments and dtypes), through the backend's FFT library: cuFFT on a GPU (loaded at run time),
// a CPU FFT on the simulator.
//
//   gpukit::Array spectrum = gpukit::fft::rfft(signal);                    // along the last axis
//   gpukit::Array image = gpukit::fft::ifft2(gpukit::fft::fft2(x), {}, {}, gpukit::fft::Norm::ortho);
//
// Dtypes are NumPy 2's: float32 and complex64 (and float16) compute in single precision and give
// complex64 (float32 for the real results of irfft and hfft); float64, complex128, integers and bool
// give complex128 (float64). `n` and `s` pad with zeros or truncate the input along each axis
// before the transform. Any layout is taken (strided, reversed, transposed): the input is copied to
// a contiguous working array where the library needs one. Every transform runs on the current
// stream of the input's device and returns without waiting. Errors are NumPy's: n or s below 1 is
// InvalidArgumentError "Invalid number of FFT data points (0) specified.", an axis out of range
// AxisError, complex input to rfft DTypeError; a device whose backend has no FFT library (cuFFT
// missing) BackendUnavailableError saying how to install it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/device.hpp"

namespace gpukit::fft {

// Which direction is scaled: by 1/n on the inverse ("backward", the default), by 1/sqrt(n) both
// ways ("ortho"), or by 1/n on the forward transform ("forward").
enum class Norm { backward, ortho, forward };
// None (nullopt) and "backward", "ortho", "forward"; InvalidArgumentError in NumPy's words otherwise.
Norm norm_from_name(std::optional<std::string_view> name);

// Per axis, the transform's length; nullopt keeps the input's (NumPy 2 takes None in s).
using Sizes = std::vector<std::optional<std::int64_t>>;
using Axes = std::vector<std::int64_t>;

// One axis. `out`, when given, receives the result (its shape must be the result's; its dtype
// one the result casts to by same_kind) and is returned.
Array fft(const Array& a, std::optional<std::int64_t> n = std::nullopt, std::int64_t axis = -1,
          Norm norm = Norm::backward, const std::optional<Array>& out = std::nullopt);
Array ifft(const Array& a, std::optional<std::int64_t> n = std::nullopt, std::int64_t axis = -1,
           Norm norm = Norm::backward, const std::optional<Array>& out = std::nullopt);
// Real input (DTypeError for complex): the n / 2 + 1 non-negative frequencies.
Array rfft(const Array& a, std::optional<std::int64_t> n = std::nullopt, std::int64_t axis = -1,
           Norm norm = Norm::backward, const std::optional<Array>& out = std::nullopt);
// The inverse of rfft: n real outputs (default 2 (m - 1) for m inputs) from a half spectrum.
Array irfft(const Array& a, std::optional<std::int64_t> n = std::nullopt, std::int64_t axis = -1,
            Norm norm = Norm::backward, const std::optional<Array>& out = std::nullopt);
// The real spectrum of a signal with Hermitian symmetry given by its first half, and its inverse.
Array hfft(const Array& a, std::optional<std::int64_t> n = std::nullopt, std::int64_t axis = -1,
           Norm norm = Norm::backward, const std::optional<Array>& out = std::nullopt);
Array ihfft(const Array& a, std::optional<std::int64_t> n = std::nullopt, std::int64_t axis = -1,
            Norm norm = Norm::backward, const std::optional<Array>& out = std::nullopt);

// Several axes (default: all, or the last len(s)); an axis may repeat (transformed again, as
// NumPy's). ValueError-like InvalidArgumentError when s and axes differ in length.
Array fftn(const Array& a, const std::optional<Sizes>& s = std::nullopt, const std::optional<Axes>& axes = std::nullopt,
           Norm norm = Norm::backward, const std::optional<Array>& out = std::nullopt);
Array ifftn(const Array& a, const std::optional<Sizes>& s = std::nullopt,
            const std::optional<Axes>& axes = std::nullopt, Norm norm = Norm::backward,
            const std::optional<Array>& out = std::nullopt);
Array rfftn(const Array& a, const std::optional<Sizes>& s = std::nullopt,
            const std::optional<Axes>& axes = std::nullopt, Norm norm = Norm::backward,
            const std::optional<Array>& out = std::nullopt);
Array irfftn(const Array& a, const std::optional<Sizes>& s = std::nullopt,
             const std::optional<Axes>& axes = std::nullopt, Norm norm = Norm::backward,
             const std::optional<Array>& out = std::nullopt);
// The same over two axes, the last two by default.
Array fft2(const Array& a, const std::optional<Sizes>& s = std::nullopt, const std::optional<Axes>& axes = std::nullopt,
           Norm norm = Norm::backward, const std::optional<Array>& out = std::nullopt);
Array ifft2(const Array& a, const std::optional<Sizes>& s = std::nullopt,
            const std::optional<Axes>& axes = std::nullopt, Norm norm = Norm::backward,
            const std::optional<Array>& out = std::nullopt);
Array rfft2(const Array& a, const std::optional<Sizes>& s = std::nullopt,
            const std::optional<Axes>& axes = std::nullopt, Norm norm = Norm::backward,
            const std::optional<Array>& out = std::nullopt);
Array irfft2(const Array& a, const std::optional<Sizes>& s = std::nullopt,
             const std::optional<Axes>& axes = std::nullopt, Norm norm = Norm::backward,
             const std::optional<Array>& out = std::nullopt);

// The sample frequencies of an n-point transform with sample spacing d, float64:
// [0, 1, ..., n/2 - 1, -n/2, ..., -1] / (d n) for fft, [0, ..., n/2] / (d n) for rfft. As NumPy's:
// ZeroDivisionError where n d is 0, InvalidArgumentError for a negative n.
Array fftfreq(std::int64_t n, double d = 1.0, Device device = Device::current());
Array rfftfreq(std::int64_t n, double d = 1.0, Device device = Device::current());
// The zero frequency moved to the centre along `axes` (all by default), and back.
Array fftshift(const Array& x, const std::optional<Axes>& axes = std::nullopt);
Array ifftshift(const Array& x, const std::optional<Axes>& axes = std::nullopt);

}  // namespace gpukit::fft
