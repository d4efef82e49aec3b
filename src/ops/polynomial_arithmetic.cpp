// src/ops/polynomial_arithmetic.cpp: numpy.poly, polyadd, polysub, polymul, polydiv, polyder, polyint
// and roots (gpukit/polynomial.hpp) as compositions of gpukit's operations, in NumPy's steps so that
// dtypes and rounding come out as NumPy's.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpukit/advanced_indexing.hpp"
#include "gpukit/array_operators.hpp"
#include "gpukit/convolution.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/numeric.hpp"
#include "gpukit/polynomial.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "gpukit/sorting.hpp"

namespace gpukit {
namespace {

bool is_complex(DType dtype) { return kind(dtype) == DTypeKind::complex; }
bool is_inexact(DType dtype) { return kind(dtype) == DTypeKind::floating || is_complex(dtype); }

// len(p): NumPy's TypeError for a 0-d array.
std::int64_t length(const Array& p) {
    if (p.ndim() == 0) throw DTypeError("len() of unsized object");
    return p.shape()[0];
}

Array range_slice(const Array& p, std::optional<std::int64_t> start, std::optional<std::int64_t> stop) {
    return p.index({Slice{start, stop, std::nullopt}});
}

// n, n - 1, ..., 1 as int64 (NumPy's arange(n, 0, -1)).
Array descending_counts(std::int64_t n, const Device& device) {
    return arange(Scalar(n), Scalar(0), Scalar(-1), DType::int64, device);
}

// The operands of polyadd and polysub: the shorter padded in front with zeros of its own dtype.
std::pair<Array, Array> aligned(const Array& a, const Array& b) {
    const Array a1 = atleast_1d(a), a2 = atleast_1d(b);
    const std::int64_t difference = length(a2) - length(a1);
    if (difference > 0) {
        const Array padded[] = {zeros({difference}, a1.dtype(), Order::C, a1.device()), a1};
        return {concatenate(padded), a2};
    }
    if (difference < 0) {
        const Array padded[] = {zeros({-difference}, a2.dtype(), Order::C, a2.device()), a2};
        return {a1, concatenate(padded)};
    }
    return {a1, a2};
}

// numpy.poly1d's coefficients: 1-D, without leading zeros (one zero left of none).
Array poly1d_coefficients(const Array& c) {
    const Array coefficients = atleast_1d(c);
    if (coefficients.ndim() > 1) throw InvalidArgumentError("Polynomial must be 1d only.");
    const Array trimmed = trim_zeros(coefficients, TrimSides::front);
    return trimmed.size() == 0 ? zeros({1}, coefficients.dtype(), Order::C, coefficients.device()) : trimmed;
}

// NumPy's `x + 0.0`: bool and integers become float64.
Array as_inexact(const Array& a) { return is_inexact(a.dtype()) ? a : a.astype(DType::float64); }

}  // namespace

Array poly(const Array& seq_of_zeros) {
    Array zeros_of = atleast_1d(seq_of_zeros);
    const Shape& shape = zeros_of.shape();
    if (shape.size() == 2 && shape[0] == shape[1] && shape[0] != 0) {
        zeros_of = linalg::eigvals(zeros_of);
    } else if (shape.size() == 1) {
        // NumPy's mintypecode: float32, float64 and the complex types stay, the rest is float64.
        const DType d = zeros_of.dtype();
        if (d != DType::float32 && d != DType::float64 && !is_complex(d)) zeros_of = zeros_of.astype(DType::float64);
    } else {
        throw InvalidArgumentError("input must be 1d or non-empty square 2d array.");
    }
    const Device device = zeros_of.device();
    if (zeros_of.shape()[0] == 0) return full({}, Scalar(1.0), DType::float64, Order::C, device);
    const DType dtype = zeros_of.dtype();
    const Array one = ones({1}, dtype, Order::C, device);
    Array coefficients = one;
    // One factor (x - zero) at a time, as NumPy's loop of convolutions.
    for (std::int64_t k = 0; k < zeros_of.shape()[0]; ++k) {
        const Array factor[] = {one, negative(range_slice(zeros_of, k, k + 1))};
        coefficients = convolve(coefficients, concatenate(factor));
    }
    if (is_complex(dtype)) {
        // Conjugate pairs of roots give real coefficients (NumPy compares the sorted roots in complex128).
        const Array roots128 = zeros_of.astype(DType::complex128);
        const Array paired = all(equal(sort(roots128, -1), sort(conjugate(roots128), -1)));
        if (paired.astype(DType::uint8).to_vector<std::uint8_t>()[0] != 0) coefficients = real(coefficients).copy();
    }
    return coefficients;
}

Array polyadd(const Array& a1, const Array& a2) {
    const auto [left, right] = aligned(a1, a2);
    return add(left, right);
}

Array polysub(const Array& a1, const Array& a2) {
    const auto [left, right] = aligned(a1, a2);
    return subtract(left, right);
}

Array polymul(const Array& a1, const Array& a2) { return convolve(poly1d_coefficients(a1), poly1d_coefficients(a2)); }

std::pair<Array, Array> polydiv(const Array& u_in, const Array& v_in) {
    const Array u = as_inexact(atleast_1d(u_in)), v = as_inexact(atleast_1d(v_in));
    const Array u0 = u.index({std::int64_t{0}}), v0 = v.index({std::int64_t{0}});
    const DType dtype = add(u0, v0).dtype();
    const std::int64_t m = length(u) - 1, n = length(v) - 1;
    const Array scale = 1.0 / v0;
    Array quotient = zeros({std::max<std::int64_t>(m - n + 1, 1)}, dtype, Order::C, u.device());
    Array remainder = u.astype(dtype);
    // Long division, one coefficient of the quotient at a time.
    for (std::int64_t k = 0; k <= m - n; ++k) {
        const Array d = scale * remainder.index({k});
        quotient.index({k}).assign(d);
        const Array window = range_slice(remainder, k, k + n + 1);
        subtract(window, d * v, window);
    }
    // Leading coefficients within NumPy's allclose(r[0], 0, rtol=1e-14) (|r| <= 1e-8) are dropped,
    // all but the last; one wait for the whole test.
    const std::int64_t count = length(remainder);
    if (count > 1) {
        const Array bound = full({}, Scalar(1e-8), DType::float64, Order::C, u.device());
        const std::vector<std::uint8_t> negligible =
            less_equal(absolute(range_slice(remainder, std::nullopt, count - 1)), bound)
                .astype(DType::uint8)
                .to_vector<std::uint8_t>();
        const auto leading = std::find(negligible.begin(), negligible.end(), std::uint8_t{0}) - negligible.begin();
        remainder = range_slice(remainder, leading, std::nullopt);
    }
    return {quotient, remainder};
}

Array polyder(const Array& p, std::int64_t m) {
    if (m < 0) throw InvalidArgumentError("Order of derivative must be positive (see polyint)");
    Array derivative = p;
    for (std::int64_t k = 0; k < m; ++k) {
        const std::int64_t n = length(derivative) - 1;
        derivative = range_slice(derivative, std::nullopt, -1) * descending_counts(n, p.device());
    }
    return derivative;
}

Array polyint(const Array& p, std::int64_t m, const std::optional<Array>& k) {
    if (m < 0) throw InvalidArgumentError("Order of integral must be positive (see polyder)");
    Array constants = k ? atleast_1d(*k) : zeros({m}, DType::float64, Order::C, p.device());
    if (length(constants) == 1 && m > 1)
        constants = constants.index({std::int64_t{0}}) * ones({m}, DType::float64, Order::C, p.device());
    if (length(constants) < m) throw InvalidArgumentError("k must be a scalar or a rank-1 array of length 1 or >m.");
    Array integral = p;
    for (std::int64_t i = 0; i < m; ++i) {
        const Array parts[] = {true_divide(integral, descending_counts(length(integral), p.device())),
                               range_slice(constants, i, i + 1)};
        integral = concatenate(parts);
    }
    return integral;
}

Array roots(const Array& p_in) {
    Array p = atleast_1d(p_in);
    if (p.ndim() != 1) throw InvalidArgumentError("Input must be a rank-1 array.");
    const std::vector<std::int64_t> nonzero = flatnonzero(p).to_vector<std::int64_t>();
    if (nonzero.empty()) return empty({0}, DType::float64, Order::C, p.device());
    const std::int64_t trailing_zeros = length(p) - nonzero.back() - 1;
    p = range_slice(p, nonzero.front(), nonzero.back() + 1);
    if (!is_inexact(p.dtype())) p = p.astype(DType::float64);
    const std::int64_t n = length(p);
    Array found = empty({0}, DType::float64, Order::C, p.device());
    if (n > 1) {
        // The companion matrix: ones below the diagonal, -p[1:] / p[0] in the first row.
        const Array companion = diag(ones({n - 2}, p.dtype(), Order::C, p.device()), -1);
        companion.index({std::int64_t{0}})
            .assign(negative(range_slice(p, 1, std::nullopt)) / p.index({std::int64_t{0}}));
        found = linalg::eigvals(companion);
    }
    const Array parts[] = {found, zeros({trailing_zeros}, found.dtype(), Order::C, p.device())};
    return concatenate(parts);
}

}  // namespace gpukit
