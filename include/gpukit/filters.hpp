// gpukit/filters.hpp: correlation filters over N-D arrays, as scipy.ndimage's: correlate,
// convolve, their 1-D forms along one axis, and the separable uniform and Gaussian filters (a 1-D
// pass per axis). Small weights sit in the GPU's constant memory and the inputs in shared-memory
// tiles (kernels/gpukit_convolution.cuh).
//
//   gpukit::Array blurred = gpukit::ndimage::gaussian_filter(image, {2.0});
//   gpukit::Array edges = gpukit::ndimage::correlate(image, stencil, {.mode =
//   {gpukit::ndimage::BoundaryMode::nearest}});
//
// As SciPy: the result keeps the input's dtype unless `output` names another (complex input or
// weights give complex), sums are taken in double precision and converted once (a float to an
// integer truncates), and a separable filter converts after each pass.
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"

namespace gpukit::ndimage {

// How the input extends past its edges: reflect (d c b a | a b c d | d c b a), constant (cval),
// nearest (a a a | a b c d | d d d), mirror (d c b | a b c d | c b a), wrap (b c d | a b c d | a b c).
enum class BoundaryMode { reflect, constant, nearest, mirror, wrap };
// SciPy's names (and its aliases grid-mirror, grid-constant, grid-wrap); InvalidArgumentError
// naming the modes otherwise.
BoundaryMode boundary_mode_from_name(std::string_view name);

struct FilterOptions {
    std::vector<BoundaryMode> mode = {
        BoundaryMode::reflect};        // one for every axis, or one per axis (separable filters)
    std::complex<double> cval = 0;     // the constant mode's value (complex for complex input)
    std::vector<std::int64_t> origin;  // empty: 0; one for every axis, or one per axis
    std::optional<DType> output;       // none: the input's dtype
};

// scipy.ndimage.correlate: out[i] = sum_j weights[j] * input~[i + j - weights.shape // 2 - origin]
// (complex weights conjugated, as SciPy). InvalidArgumentError for weights of another number of
// dimensions or an empty one, an origin outside -(n // 2) <= origin <= (n - 1) // 2, several modes.
Array correlate(const Array& input, const Array& weights, const FilterOptions& options = {});
// scipy.ndimage.convolve: the weights flipped (their centre and origin as SciPy moves them).
Array convolve(const Array& input, const Array& weights, const FilterOptions& options = {});
// scipy.ndimage.correlate1d and convolve1d: the 1-D `weights` along `axis` (negative: from the end).
Array correlate1d(const Array& input, const Array& weights, std::int64_t axis = -1, const FilterOptions& options = {});
Array convolve1d(const Array& input, const Array& weights, std::int64_t axis = -1, const FilterOptions& options = {});

// scipy.ndimage.uniform_filter: the mean over `size` elements along each axis (one size for all
// axes, or one per axis; sizes of 1 skip the axis). InvalidArgumentError for a size below 1.
Array uniform_filter(const Array& input, const std::vector<std::int64_t>& size = {3},
                     const FilterOptions& options = {});

struct GaussianOptions {
    std::vector<std::int64_t> order = {0};  // the derivative's order along each axis (one for all, or one per axis)
    double truncate = 4.0;                  // the kernel reaches truncate * sigma, rounded (SciPy's int(t * s + 0.5))
    std::vector<std::optional<std::int64_t>> radius;  // empty, or one for all or one per axis: instead of truncate
};

// scipy.ndimage.gaussian_filter: a Gaussian of standard deviation `sigma` (one for all axes, or one
// per axis; axes with sigma <= 1e-15 are skipped) or its derivatives, as SciPy builds the kernel.
// InvalidArgumentError for a negative order or radius.
Array gaussian_filter(const Array& input, const std::vector<double>& sigma, const GaussianOptions& gaussian = {},
                      const FilterOptions& options = {});
// scipy.ndimage.gaussian_filter1d along one axis.
Array gaussian_filter1d(const Array& input, double sigma, std::int64_t axis = -1, const GaussianOptions& gaussian = {},
                        const FilterOptions& options = {});

}  // namespace gpukit::ndimage
