// include/gpukit/polynomial.hpp: polynomials as NumPy's legacy functions take them, coefficients
// highest power first: numpy.polyval (Horner's rule, one multiply and one add per coefficient on
// the device), numpy.polyfit (a least-squares fit through gpukit::linalg::lstsq) and the arithmetic
// of coefficient arrays: poly, polyadd, polysub, polymul, polydiv, polyder, polyint, roots.
//
//   gpukit::Array y = gpukit::polyval(p, x);                  // p[0] * x**(n-1) + ... + p[n-1]
//   gpukit::PolyfitResult fit = gpukit::polyfit(x, y, 3);     // fit.coefficients: 4 of them
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

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

// ---- polynomial arithmetic (src/ops/polynomial_arithmetic.cpp), coefficients as numpy.poly* take
// them; 0-d operands count as one coefficient (numpy.atleast_1d).

// numpy.poly: the monic polynomial with the given roots (1-D; integers and float16 as float64), or
// with the eigenvalues of a non-empty square matrix; real when complex roots come in conjugate
// pairs. No roots: a 0-d float64 1.0 (NumPy's Python float). InvalidArgumentError ("input must be
// 1d or non-empty square 2d array.") for other shapes.
Array poly(const Array& seq_of_zeros);
// numpy.polyadd and numpy.polysub: the shorter operand padded with zeros in front (in its dtype).
Array polyadd(const Array& a1, const Array& a2);
Array polysub(const Array& a1, const Array& a2);
// numpy.polymul: the product (a convolution) of the operands without their leading zeros (one 0
// left of all-zero ones). InvalidArgumentError ("Polynomial must be 1d only.") above one dimension.
Array polymul(const Array& a1, const Array& a2);
// numpy.polydiv: (quotient, remainder) of u / v by long division in float64 or wider, the
// remainder without leading coefficients within 1e-8 of zero (one kept). Waits for the device.
std::pair<Array, Array> polydiv(const Array& u, const Array& v);
// numpy.polyder: the m-th derivative. InvalidArgumentError for m < 0.
Array polyder(const Array& p, std::int64_t m = 1);
// numpy.polyint: the m-th antiderivative, with integration constants k (one for each integration, the
// first for the first; none: zeros; one: repeated). InvalidArgumentError for m < 0 or fewer than m
// constants.
Array polyint(const Array& p, std::int64_t m = 1, const std::optional<Array>& k = std::nullopt);
// numpy.roots: the roots of the polynomial (1-D), as the eigenvalues of its companion matrix
// (without leading zeros; trailing ones give zero roots): float64 or complex. InvalidArgumentError
// ("Input must be a rank-1 array.") otherwise. Finding the nonzero coefficients waits.
Array roots(const Array& p);

}  // namespace gpukit
