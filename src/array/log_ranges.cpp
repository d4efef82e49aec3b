// src/array/log_ranges.cpp: logspace and geomspace (gpukit/creation.hpp), composed of linspace and
// power as NumPy composes them, so that their values and dtypes are NumPy's.
#include <cmath>
#include <complex>

#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/promotion.hpp"

namespace gpukit {

namespace {

bool is_complex(DType dtype) { return kind(dtype) == DTypeKind::complex; }

// A bound as NumPy's geomspace sees it after `* 1.0`: integers (and Python numbers) become float64,
// Python complex complex128; NumPy's float and complex scalars keep their dtype.
DType inexact_dtype(const Scalar& bound) {
    if (bound.weak_kind()) return bound.weak_kind() == PythonScalar::complex ? DType::complex128 : DType::float64;
    const DTypeKind bound_kind = kind(bound.dtype());
    return bound_kind == DTypeKind::floating || bound_kind == DTypeKind::complex ? bound.dtype() : DType::float64;
}

// `value` as a typed scalar of `dtype` (a 0-d array of it, in NumPy's computation).
Scalar typed(std::complex<double> value, DType dtype) {
    const std::array<std::byte, 16> element =
        is_complex(dtype) ? Scalar(value).converted(dtype) : Scalar(value.real()).converted(dtype);
    return Scalar::typed(dtype, element.data());
}

}  // namespace

Array logspace(const Scalar& start, const Scalar& stop, std::int64_t num, const LogspaceOptions& options,
               Device device) {
    const Array exponents = linspace(start, stop, num, {.endpoint = options.endpoint, .dtype = std::nullopt}, device);
    // NumPy makes an array of the base, so its dtype is strong: base 10 is int64, 10.0 float64.
    const Array base = full({}, options.base, options.base.dtype(), Order::C, device);
    const Array values = power(base, exponents);
    return options.dtype && *options.dtype != values.dtype() ? values.astype(*options.dtype) : values;
}

Array geomspace(const Scalar& start, const Scalar& stop, std::int64_t num, const LinspaceOptions& options,
                Device device) {
    const std::complex<double> first = start.value<std::complex<double>>(), last = stop.value<std::complex<double>>();
    if (first == 0.0 || last == 0.0) throw InvalidArgumentError("Geometric sequence cannot include zero");
    // NumPy's computing type: the bounds' inexact types with the asked dtype's (float64 when none).
    const DType computing = result_type(
        {inexact_dtype(start), inexact_dtype(stop), options.dtype.value_or(DType::float64)}, {PythonScalar::floating});
    // Divided by start's sign (a complex one's unit phase), the sequence starts on the positive reals.
    const std::complex<double> start_value = typed(first, computing).value<std::complex<double>>();
    const std::complex<double> stop_value = typed(last, computing).value<std::complex<double>>();
    const std::complex<double> sign = is_complex(computing) ? start_value / std::abs(start_value)
                                                            : std::complex<double>(start_value.real() < 0 ? -1.0 : 1.0);
    const std::complex<double> from = start_value / sign, to = stop_value / sign;
    const auto log10_of = [&](std::complex<double> value) {
        return is_complex(computing) ? std::log10(value) : std::complex<double>(std::log10(value.real()));
    };
    Array values = logspace(typed(log10_of(from), computing), typed(log10_of(to), computing), num,
                            {.endpoint = options.endpoint, .dtype = computing}, device);
    // The endpoints exactly as given (before the sign comes back), as NumPy writes them.
    if (num > 0) values.index({Index(std::int64_t{0})}).fill(typed(from, computing));
    if (num > 1 && options.endpoint) values.index({Index(std::int64_t{-1})}).fill(typed(to, computing));
    multiply(values, full({}, typed(sign, computing), computing, Order::C, device), values);
    return options.dtype && *options.dtype != computing ? values.astype(*options.dtype) : values;
}

}  // namespace gpukit
