// include/gpukit/polynomial.hpp: polynomials as NumPy's legacy functions take them, coefficients
// highest power first: numpy.polyval (Horner's rule, one multiply and one add per coefficient on
// the device) and numpy.polyfit (a least-squares fit through gpukit::linalg::lstsq).
//
//   gpukit::Array y = gpukit::polyval(p, x);                  // p[0] * x**(n-1) + ... + p[n-1]
//   gpukit::PolyfitResult fit = gpukit::polyfit(x, y, 3);     // fit.coefficients: 4 of them
#pragma once

#include <cstdint>
#include <optional>

#include "gpukit/array.hpp"

namespace gpukit {

// numpy.polyval: the polynomial with coefficients p (along p's first axis, highest power first) at
// every x, by Horner's rule from zeros_like(x), so the dtype is NumPy's: x's for an empty p, else
// the promotion of x's and p's (0-d arrays count as typed, as NumPy's). DTypeError (NumPy's
// TypeError) for a 0-d p.
Array polyval(const Array& p, const Array& x);

enum class PolyfitCovariance : std::uint8_t {
    none,      // no covariance
    scaled,    // cov=True: scaled by the residuals over the degrees of freedom (len(x) - deg - 1)
    unscaled,  // cov='unscaled'
};

struct PolyfitOptions {
    std::optional<double> rcond;  // none: len(x) * eps of x's dtype (NumPy's)
    std::optional<Array> w;       // a weight per point, multiplying the residuals (1-D)
    PolyfitCovariance cov = PolyfitCovariance::none;
};

struct PolyfitResult {
    Array coefficients;  // (deg + 1,) for a 1-D y, (deg + 1, k) for k columns of y
    // What numpy.polyfit(full=True) returns besides: lstsq's residuals, rank and singular values of
    // the scaled Vandermonde matrix, and the rcond used.
    Array residuals;
    std::int64_t rank = 0;
    Array singular_values;
    double rcond = 0;
    std::optional<Array> covariance;  // (deg + 1, deg + 1), or (..., k) for a 2-D y, where asked for
};

// numpy.polyfit: the coefficients of the degree-`deg` polynomial nearest y in least squares, from
// the Vandermonde matrix of x (float64, or complex128 for complex x, as numpy.vander makes it) with
// NumPy's scaling of its columns to unit norm; rcond's default still from x's own precision. A rank below deg + 1 is no
// error: the caller warns (NumPy's RankWarning). TypeError (DTypeError) in NumPy's words for x not 1-D or empty, y not
// 1-D or 2-D, lengths that differ, or w not 1-D of y's length; InvalidArgumentError for deg < 0, or a scaled covariance
// of no more points than coefficients.
PolyfitResult polyfit(const Array& x, const Array& y, std::int64_t deg, const PolyfitOptions& options = {});

}  // namespace gpukit
