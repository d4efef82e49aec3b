// src/array/ranges.cpp: arange and linspace (gpukit/creation.hpp), as NumPy computes them.
//
// The length, the first values and the spacing are worked out here as NumPy works them out (in
// Python arithmetic on the bounds, then in the dtype); the elements are written by one generated
// kernel whose expression reads the element's index (src/ops/builtin_ops.hpp).
#include <cmath>
#include <complex>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include "array/device_copy.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/promotion.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::BuiltinOp;
using detail::concat;

namespace {

bool is_integral(DType dtype) { return kind(dtype) != DTypeKind::floating && kind(dtype) != DTypeKind::complex; }

// The value as a typed scalar of `dtype`, converted as astype converts (no range check: arange and
// linspace wrap as NumPy's fill does).
Scalar cast(const Scalar& value, DType dtype) { return Scalar::typed(dtype, value.converted(dtype).data()); }

// NumPy's arange length: ceil((stop - start) / step) in Python arithmetic (exact for integers
// that fit int64, in double beyond), none when not positive.
std::int64_t arange_length(const Scalar& start, const Scalar& stop, const Scalar& step) {
    const auto fits_int64 = [](const Scalar& s) {
        return is_integral(s.dtype()) && (s.dtype() != DType::uint64 || s.value<std::uint64_t>() >> 63 == 0);
    };
    std::int64_t span = 0;
    if (fits_int64(start) && fits_int64(stop) && fits_int64(step) &&
        !__builtin_sub_overflow(stop.value<std::int64_t>(), start.value<std::int64_t>(), &span)) {
        const std::int64_t by = step.value<std::int64_t>();
        if (by == 0) throw InvalidArgumentError("arange: step must not be zero (division by zero)");
        if ((span > 0) != (by > 0) || span == 0) return 0;
        return span / by + (span % by != 0 ? 1 : 0);  // the ceiling of a positive quotient
    }
    const double difference = stop.value<double>() - start.value<double>(), by = step.value<double>();
    if (by == 0) throw InvalidArgumentError("arange: step must not be zero (division by zero)");
    if (difference == 0) return 0;
    const double quotient = difference / by;
    if (quotient == 0) return std::signbit(quotient) ? 0 : 1;  // underflow: NumPy keeps the start alone
    const double length = std::ceil(quotient);
    if (std::isnan(length)) throw InvalidArgumentError("arange: cannot compute length");
    if (!(length <= 9.2233720368547758e18))
        throw InvalidArgumentError(
            "arange: the range would have more elements than an array can hold (its length "
            "overflows 64 bits)");
    return length <= 0 ? 0 : static_cast<std::int64_t>(length);
}

// start + step as Python adds them: exactly for integers (modulo 2^64, which the dtype's wrap
// contains), in double once a float is involved.
Scalar second_value(const Scalar& start, const Scalar& step) {
    if (is_integral(start.dtype()) && is_integral(step.dtype()))
        return Scalar::of(start.value<std::uint64_t>() + step.value<std::uint64_t>());
    return Scalar::of(start.value<double>() + step.value<double>());
}

void run_arange(BuiltinOp op, DType compute, const Array& out, const Scalar& first, const Scalar& second) {
    Scalar delta = first;
    if (compute == DType::float32)
        delta = Scalar::of(second.value<float>() - first.value<float>());
    else if (compute == DType::float64)
        delta = Scalar::of(second.value<double>() - first.value<double>());
    else
        delta = Scalar::of(second.value<std::uint64_t>() - first.value<std::uint64_t>());
    const detail::ElementwiseOperand inputs[] = {detail::scalar_as(first, compute), detail::scalar_as(delta, compute),
                                                 detail::scalar_as(second, compute)};
    const Array* outputs[] = {&out};
    const DType loop[] = {compute, compute, compute, compute};
    detail::run_builtin(op, inputs, outputs, loop);
}

}  // namespace

Array arange(const Scalar& start, const Scalar& stop, const Scalar& step, std::optional<DType> dtype, Device device) {
    for (const Scalar* bound : {&start, &stop, &step})
        if (kind(bound->dtype()) == DTypeKind::complex)
            throw InvalidArgumentError("arange takes real bounds and steps, not complex ones");
    // NumPy's default: at least int64, promoted with each bound's own dtype.
    DType chosen = DType::int64;
    for (const Scalar* bound : {&start, &stop, &step}) chosen = promote_types(chosen, bound->dtype());
    const DType result_dtype = dtype.value_or(chosen);
    const std::int64_t length = arange_length(start, stop, step);
    if (result_dtype == DType::bool_ && length > 2)
        throw InvalidArgumentError("arange: no fill-function for data-type bool (more than 2 elements)");
    Array result = empty({length}, result_dtype, Order::C, device);
    if (length == 0) return result;
    // The first two elements are the start and start + step converted to the dtype (as NumPy's
    // setitem converts them); the kernel computes in the dtype's arithmetic type from there.
    const auto in_dtype = [&](const Scalar& value) { return cast(value, result_dtype); };
    const auto as_part = [&](const Array& target, DType part) {
        const Scalar first = in_dtype(start), second = in_dtype(second_value(start, step));
        if (part == DType::float64) return run_arange(BuiltinOp::arange_float64, part, target, first, second);
        return run_arange(BuiltinOp::arange_float32, DType::float32, target, first, second);
    };
    switch (kind(result_dtype)) {
        case DTypeKind::complex: {  // real parts from the bounds, imaginary parts all zero
            const DType part = result_dtype == DType::complex64 ? DType::float32 : DType::float64;
            as_part(result.view_as(part, 0), part);
            result.view_as(part, static_cast<std::int64_t>(itemsize(part))).fill(Scalar(false));
            break;
        }
        case DTypeKind::floating:
            as_part(result, result_dtype == DType::float64 ? DType::float64 : DType::float32);
            break;
        default:
            run_arange(BuiltinOp::arange_integer, DType::uint64, result, in_dtype(start),
                       in_dtype(second_value(start, step)));
    }
    return result;
}

Array arange(const Scalar& stop, std::optional<DType> dtype, Device device) {
    return arange(Scalar(std::int64_t{0}), stop, Scalar(std::int64_t{1}), dtype, device);
}

namespace {

// One real sequence of linspace (the whole of a real one, a part of a complex one) into `out`.
struct LinspacePart {
    double start, stop, scale, divisor;
};

void run_linspace(DType compute, const Array& out, const LinspacePart& part, std::int64_t last, bool floored) {
    const detail::ElementwiseOperand inputs[] = {detail::scalar_as(Scalar::of(part.start), compute),
                                                 detail::scalar_as(Scalar::of(part.scale), compute),
                                                 detail::scalar_as(Scalar::of(part.stop), compute),
                                                 detail::scalar_as(Scalar::of(part.divisor), compute),
                                                 Scalar::of(last),
                                                 Scalar::of(floored)};
    const Array* outputs[] = {&out};
    const DType loop[] = {compute, compute, compute, compute, DType::int64, DType::bool_, compute};
    detail::run_builtin(compute == DType::float32 ? BuiltinOp::linspace_float32 : BuiltinOp::linspace_float64, inputs,
                        outputs, loop);
}

// Rounds to the compute type, as NumPy's arithmetic in that dtype does.
double in_compute(double value, DType compute) {
    return compute == DType::float32 ? static_cast<double>(static_cast<float>(value)) : value;
}

}  // namespace

LinspaceResult linspace_with_step(const Scalar& start, const Scalar& stop, std::int64_t num,
                                  const LinspaceOptions& options, Device device) {
    if (num < 0) throw InvalidArgumentError(concat("Number of samples, ", num, ", must be non-negative."));
    // NumPy's computing type: the bounds' result type, made inexact (integers and bool: float64).
    const Scalar bounds[] = {start, stop};
    std::vector<DType> strong;
    std::vector<PythonScalar> weak;
    for (const Scalar& bound : bounds) {
        if (const std::optional<PythonScalar> python = bound.weak_kind())
            weak.push_back(*python);
        else
            strong.push_back(bound.dtype());
    }
    DType computing = result_type(strong, weak);
    if (is_integral(computing)) computing = DType::float64;
    const bool complex = kind(computing) == DTypeKind::complex;
    // float16 and bfloat16 compute in float32 here: NumPy rounds each step to float16 (a rare last-bit difference).
    const DType part = computing == DType::float64 || computing == DType::complex128 ? DType::float64 : DType::float32;
    const DType result_dtype = options.dtype.value_or(computing);
    const bool floored = is_integral(result_dtype) && result_dtype != DType::bool_;
    if (floored && complex)
        throw InvalidArgumentError(concat("linspace: cannot floor complex values into ", to_string(result_dtype)));

    const std::int64_t div = options.endpoint ? num - 1 : num;
    const std::int64_t last = options.endpoint && num > 1 ? num - 1 : -1;
    Array result = empty({num}, result_dtype, Order::C, device);

    // delta = stop - start and step = delta / div in the computing type, per part; where the step
    // underflows to 0 (NumPy tests a complex one as a whole), (i / div) * delta instead of i * step.
    const std::complex<double> first = start.value<std::complex<double>>(), end = stop.value<std::complex<double>>();
    const auto make = [&](double from, double to) {
        from = in_compute(from, part);
        to = in_compute(to, part);
        const double delta = in_compute(to - from, part);
        const double step =
            div > 0 ? in_compute(delta / static_cast<double>(div), part) : std::numeric_limits<double>::quiet_NaN();
        return std::tuple{LinspacePart{from, to, div > 0 ? step : delta, 0}, delta, step};
    };
    auto [real, real_delta, real_step] = make(first.real(), end.real());
    auto [imag, imag_delta, imag_step] = make(first.imag(), end.imag());
    if (div > 0 && real.scale == 0 && (!complex || imag.scale == 0)) {
        real = {real.start, real.stop, real_delta, static_cast<double>(div)};
        imag = {imag.start, imag.stop, imag_delta, static_cast<double>(div)};
    }

    if (num > 0) {
        const bool result_complex = kind(result_dtype) == DTypeKind::complex;
        const DType out_part = result_dtype == DType::complex64 ? DType::float32 : DType::float64;
        const Array real_out = result_complex ? result.view_as(out_part, 0) : result;
        run_linspace(part, real_out, real, last, floored);
        if (result_complex) {
            const Array imag_out = result.view_as(out_part, static_cast<std::int64_t>(itemsize(out_part)));
            if (complex)
                run_linspace(part, imag_out, imag, last, false);
            else
                imag_out.fill(Scalar(false));
        }
    }
    const Scalar step = complex ? Scalar(std::complex<double>(real_step, imag_step)) : Scalar(real_step);
    return {std::move(result), cast(step, computing)};
}

Array linspace(const Scalar& start, const Scalar& stop, std::int64_t num, const LinspaceOptions& options,
               Device device) {
    return linspace_with_step(start, stop, num, options, device).values;
}

}  // namespace gpukit
