// src/ops/fft/fft.cpp: numpy.fft's transforms (gpukit/fft.hpp) over the backend's FFT library
// (backends/fft_library.hpp).
//
// A transform over several axes is done in groups of at most three distinct axes (the rank cuFFT
// plans take). For each group the input is brought to a working array whose last dimensions are
// the group's axes, padded or truncated to the transform's lengths, C-contiguous, in the compute
// dtype; the library then runs one batched plan over the leading dimensions, and the result is
// seen through the inverse permutation. The normalisation is one multiplication at the end.
#include "gpukit/fft.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "array/convert.hpp"
#include "backends/backend.hpp"
#include "backends/fft_library.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit::fft {

namespace {

using detail::FftDirection;
using detail::FftPlanKey;
using detail::FftPrecision;
using detail::FftType;

// One transformed axis and the transform's (real-side) length along it.
struct AxisLength {
    std::size_t axis;
    std::int64_t n;
};

bool single_precision(DType dtype) {
    return dtype == DType::float16 || dtype == DType::bfloat16 || dtype == DType::float32 || dtype == DType::complex64;
}
DType complex_for(DType dtype) { return single_precision(dtype) ? DType::complex64 : DType::complex128; }
DType real_for(DType dtype) { return single_precision(dtype) ? DType::float32 : DType::float64; }

// The backend's FFT library for `device`; BackendUnavailableError where the backend has none.
detail::FftLibrary& fft_library(const Device& device) {
    detail::FftLibrary* library = device.backend().fft_library(device.ordinal());
    if (library == nullptr)
        throw BackendUnavailableError("The " + device.backend().info().name + " backend has no FFT library");
    return *library;
}

void check_length(std::int64_t n) {
    if (n < 1) throw InvalidArgumentError(detail::concat("Invalid number of FFT data points (", n, ") specified."));
}

// What one group transform needs to know besides the array.
struct Group {
    std::vector<AxisLength> axes;  // distinct; for r2c and c2r the real axis is the last
    FftType type = FftType::c2c;
    FftDirection direction = FftDirection::forward;
};

// Runs one group: see the file's comment. `compute` is the working array's dtype (complex, or real
// for r2c); `result` the library's output dtype.
Array transform_group(const Array& x, const Group& group, DType compute, DType result) {
    const std::size_t ndim = x.ndim();
    const std::size_t rank = group.axes.size();
    // The other axes first, in order, then the group's.
    std::vector<std::int64_t> perm;
    for (std::size_t d = 0; d < ndim; ++d)
        if (std::none_of(group.axes.begin(), group.axes.end(), [&](const AxisLength& a) { return a.axis == d; }))
            perm.push_back(static_cast<std::int64_t>(d));
    for (const AxisLength& a : group.axes) perm.push_back(static_cast<std::int64_t>(a.axis));
    const Array moved = x.transpose(perm);

    // The input's extents along the group: the half spectrum's along c2r's real axis.
    Shape input_shape = moved.shape();
    Shape output_shape = moved.shape();
    FftPlanKey key;
    key.type = group.type;
    key.precision = single_precision(compute) ? FftPrecision::single : FftPrecision::double_precision;
    for (std::size_t i = 0; i < rank; ++i) {
        const std::int64_t n = group.axes[i].n;
        const bool half = i + 1 == rank && group.type != FftType::c2c;
        const std::size_t at = ndim - rank + i;
        input_shape[at] = half && group.type == FftType::c2r ? n / 2 + 1 : n;
        output_shape[at] = half && group.type == FftType::r2c ? n / 2 + 1 : n;
        key.extents.push_back(n);
    }

    // Truncate by a view, pad by writing into zeros; copy where the layout, dtype or alignment is
    // not the library's, and always for c2r, which may overwrite its input.
    std::vector<Index> keep(ndim, Slice{});
    bool pads = false;
    for (std::size_t d = ndim - rank; d < ndim; ++d) {
        keep[d] = Slice{std::nullopt, std::min(input_shape[d], moved.shape()[d]), std::nullopt};
        pads = pads || input_shape[d] > moved.shape()[d];
    }
    const Array kept = moved.index(keep);
    Array work = kept;
    if (pads) {
        work = zeros(input_shape, compute, Order::C, x.device());
        work.index(std::span<const Index>(keep)).assign(kept);
    } else if (group.type == FftType::c2r || kept.dtype() != compute || !kept.is_c_contiguous() ||
               kept.address() % 16 != 0) {  // cuFFT wants its vector types' alignment
        work = Array::empty(input_shape, compute, x.device());
        work.assign(kept);
    }

    Array out = Array::empty(output_shape, result, x.device());
    key.input_distance = detail::fft_input_elements(key);
    key.output_distance = detail::fft_output_elements(key);
    key.batch = 1;
    for (std::size_t d = 0; d + rank < ndim; ++d) key.batch *= input_shape[d];
    if (key.batch > 0) {
        const Device& device = x.device();
        fft_library(device).execute(device.ordinal(), key, group.direction, work.address(), out.address(),
                                    current_stream(device).native_handle());
    }
    // Back to the input's order of axes.
    std::vector<std::int64_t> inverse(ndim);
    for (std::size_t d = 0; d < ndim; ++d) inverse[static_cast<std::size_t>(perm[d])] = static_cast<std::int64_t>(d);
    return out.transpose(inverse);
}

// Splits `axes` (in NumPy's order of application) into groups of at most three distinct axes.
std::vector<std::vector<AxisLength>> groups_of(const std::vector<AxisLength>& axes) {
    std::vector<std::vector<AxisLength>> groups;
    for (const AxisLength& a : axes) {
        const bool fits = !groups.empty() && groups.back().size() < 3 &&
                          std::none_of(groups.back().begin(), groups.back().end(),
                                       [&](const AxisLength& b) { return b.axis == a.axis; });
        if (!fits) groups.emplace_back();
        groups.back().push_back(a);
    }
    return groups;
}

// One axis's normalisation factor. NumPy computes it in the input's real dtype joined with a
// Python float: float16 input gets a factor rounded to float16 (numpy.reciprocal(n, dtype=float16)).
double axis_scale(std::int64_t length, Norm norm, FftDirection direction, bool float16_input) {
    const auto round = [&](double value) {
        return float16_input ? detail::float16_value(detail::float16_bits(value)) : value;
    };
    const double n = static_cast<double>(length);
    switch (norm) {
        case Norm::ortho: return round(1 / round(std::sqrt(n)));
        case Norm::backward: return direction == FftDirection::inverse ? round(1 / n) : 1;
        case Norm::forward: return direction == FftDirection::forward ? round(1 / n) : 1;
    }
    return 1;
}

// The factor of a transform over `axes` in NumPy's order of application: NumPy scales axis by
// axis, and only the first sees the input's dtype (the others see the complex result).
double scale_for(const std::vector<AxisLength>& axes, Norm norm, FftDirection direction, DType input) {
    double scale = 1;
    for (std::size_t i = 0; i < axes.size(); ++i)
        scale *= axis_scale(axes[i].n, norm, direction, i == 0 && input == DType::float16);
    return scale;
}

Norm swapped(Norm norm) {
    if (norm == Norm::backward) return Norm::forward;
    if (norm == Norm::forward) return Norm::backward;
    return norm;
}

// Multiplies by the normalisation (in place: `a` is the transform's own new array) and writes
// into `out` where given.
Array finish(Array a, double scale, std::optional<DType> final_dtype, const std::optional<Array>& out) {
    if (!a.is_c_contiguous()) a = a.copy();
    if (scale != 1 && a.size() > 0) {
        const DType real = kind(a.dtype()) == DTypeKind::complex ? real_for(a.dtype()) : a.dtype();
        const Array factor = full({}, Scalar(scale), real, Order::C, a.device());
        multiply(a, factor, a);
    }
    if (final_dtype && *final_dtype != a.dtype()) a = a.astype(*final_dtype);
    if (!out) return a;
    if (out->shape() != a.shape())
        throw InvalidArgumentError(detail::concat("out has shape ", format_shape(out->shape()),
                                                  " but the transform's result has shape ", format_shape(a.shape())));
    copyto(*out, a, Casting::same_kind);
    return *out;
}

// The complex transforms along `axes`, in NumPy's order of application.
Array complex_transform(const Array& a, const std::vector<AxisLength>& axes, FftDirection direction, Norm norm,
                        const std::optional<Array>& out) {
    if (axes.empty()) return finish(a.copy(), 1, std::nullopt, out);  // NumPy's fftn of a 0-d array: itself
    const DType compute = complex_for(a.dtype());
    Array x = a;
    for (const auto& group : groups_of(axes))
        x = transform_group(x, {group, FftType::c2c, direction}, compute, compute);
    return finish(x, scale_for(axes, norm, direction, a.dtype()), std::nullopt, out);
}

// rfftn: the last axis real to complex (with up to two more distinct axes before it in one
// plan), then the others complex, last to first.
Array real_forward(const Array& a, const std::vector<AxisLength>& axes, Norm norm, const std::optional<Array>& out) {
    if (kind(a.dtype()) == DTypeKind::complex)
        throw DTypeError(detail::concat("rfft takes real input; ", to_string(a.dtype()),
                                        " is complex (take fft, or the real part)"));
    std::vector<AxisLength> order(axes.rbegin(), axes.rend());  // NumPy applies the last axis first
    std::vector<AxisLength> first{order.front()};
    std::size_t used = 1;
    while (used < order.size() && first.size() < 3 &&
           std::none_of(first.begin(), first.end(), [&](const AxisLength& b) { return b.axis == order[used].axis; }))
        first.insert(first.begin(), order[used++]);
    Array x =
        transform_group(a, {first, FftType::r2c, FftDirection::forward}, real_for(a.dtype()), complex_for(a.dtype()));
    const std::vector<AxisLength> rest(order.begin() + static_cast<std::ptrdiff_t>(used), order.end());
    for (const auto& group : groups_of(rest))
        x = transform_group(x, {group, FftType::c2c, FftDirection::forward}, x.dtype(), x.dtype());
    return finish(x, scale_for(order, norm, FftDirection::forward, a.dtype()), std::nullopt, out);
}

// irfftn: every axis but the last complex (in order), then the last complex to real, with up to
// two distinct axes before it in one plan.
Array real_inverse(const Array& a, const std::vector<AxisLength>& axes, Norm norm, const std::optional<Array>& out) {
    std::vector<AxisLength> last{axes.back()};
    std::size_t before = axes.size() - 1;
    while (before > 0 && last.size() < 3 &&
           std::none_of(last.begin(), last.end(), [&](const AxisLength& b) { return b.axis == axes[before - 1].axis; }))
        last.insert(last.begin(), axes[--before]);
    Array x = a;
    const std::vector<AxisLength> leading(axes.begin(), axes.begin() + static_cast<std::ptrdiff_t>(before));
    for (const auto& group : groups_of(leading))
        x = transform_group(x, {group, FftType::c2c, FftDirection::inverse}, complex_for(x.dtype()),
                            complex_for(x.dtype()));
    // NumPy 2's irfft keeps a float16 input's dtype for its real result (computed in float32);
    // over several axes the complex transforms before it have made the input complex64.
    const std::optional<DType> final_dtype =
        axes.size() == 1 && a.dtype() == DType::float16 ? std::optional<DType>(DType::float16) : std::nullopt;
    x = transform_group(x, {last, FftType::c2r, FftDirection::inverse}, complex_for(x.dtype()), real_for(x.dtype()));
    return finish(x, scale_for(axes, norm, FftDirection::inverse, a.dtype()), final_dtype, out);
}

// NumPy's _cook_nd_args: the lengths and axes of an n-dimensional transform. `inverse_real`
// takes the last default length as irfftn does (2 (m - 1)).
std::vector<AxisLength> nd_axes(const Array& a, const std::optional<Sizes>& s, const std::optional<Axes>& axes,
                                bool inverse_real) {
    Axes chosen;
    if (axes)
        chosen = *axes;
    else {
        const std::size_t count = s ? s->size() : a.ndim();
        for (std::size_t i = 0; i < count; ++i)
            chosen.push_back(static_cast<std::int64_t>(i) - static_cast<std::int64_t>(count));
    }
    if (s && s->size() != chosen.size()) throw InvalidArgumentError("Shape and axes have different lengths.");
    std::vector<AxisLength> result;
    for (std::size_t i = 0; i < chosen.size(); ++i) {
        const std::size_t axis = normalize_axis(chosen[i], a.ndim());
        std::optional<std::int64_t> n = s ? (*s)[i] : std::nullopt;
        if (!n) n = inverse_real && i + 1 == chosen.size() && !s ? 2 * (a.shape()[axis] - 1) : a.shape()[axis];
        check_length(*n);
        result.push_back({axis, *n});
    }
    return result;
}

std::vector<AxisLength> one_axis(const Array& a, std::optional<std::int64_t> n, std::int64_t axis, bool inverse_real) {
    const std::size_t normalized = normalize_axis(axis, a.ndim());
    const std::int64_t length = n ? *n : inverse_real ? 2 * (a.shape()[normalized] - 1) : a.shape()[normalized];
    check_length(length);
    return {{normalized, length}};
}

Axes two_axes(const std::optional<Axes>& axes) { return axes ? *axes : Axes{-2, -1}; }

}  // namespace

Norm norm_from_name(std::optional<std::string_view> name) {
    if (!name || *name == "backward") return Norm::backward;
    if (*name == "ortho") return Norm::ortho;
    if (*name == "forward") return Norm::forward;
    throw InvalidArgumentError(
        detail::concat("Invalid norm value ", *name, "; should be \"backward\",\"ortho\" or \"forward\"."));
}

Array fft(const Array& a, std::optional<std::int64_t> n, std::int64_t axis, Norm norm,
          const std::optional<Array>& out) {
    return complex_transform(a, one_axis(a, n, axis, false), FftDirection::forward, norm, out);
}
Array ifft(const Array& a, std::optional<std::int64_t> n, std::int64_t axis, Norm norm,
           const std::optional<Array>& out) {
    return complex_transform(a, one_axis(a, n, axis, false), FftDirection::inverse, norm, out);
}
Array rfft(const Array& a, std::optional<std::int64_t> n, std::int64_t axis, Norm norm,
           const std::optional<Array>& out) {
    return real_forward(a, one_axis(a, n, axis, false), norm, out);
}
Array irfft(const Array& a, std::optional<std::int64_t> n, std::int64_t axis, Norm norm,
            const std::optional<Array>& out) {
    return real_inverse(a, one_axis(a, n, axis, true), norm, out);
}
// hfft(a) = irfft(conj(a)) with the direction of the scaling swapped; ihfft(a) = conj(rfft(a)).
Array hfft(const Array& a, std::optional<std::int64_t> n, std::int64_t axis, Norm norm,
           const std::optional<Array>& out) {
    const auto axes = one_axis(a, n, axis, true);
    return real_inverse(kind(a.dtype()) == DTypeKind::complex ? conjugate(a) : a, axes, swapped(norm), out);
}
Array ihfft(const Array& a, std::optional<std::int64_t> n, std::int64_t axis, Norm norm,
            const std::optional<Array>& out) {
    Array spectrum = real_forward(a, one_axis(a, n, axis, false), swapped(norm), std::nullopt);
    conjugate(spectrum, spectrum);
    return finish(spectrum, 1, std::nullopt, out);
}

Array fftn(const Array& a, const std::optional<Sizes>& s, const std::optional<Axes>& axes, Norm norm,
           const std::optional<Array>& out) {
    auto lengths = nd_axes(a, s, axes, false);
    std::reverse(lengths.begin(), lengths.end());  // NumPy applies the last axis first
    return complex_transform(a, lengths, FftDirection::forward, norm, out);
}
Array ifftn(const Array& a, const std::optional<Sizes>& s, const std::optional<Axes>& axes, Norm norm,
            const std::optional<Array>& out) {
    auto lengths = nd_axes(a, s, axes, false);
    std::reverse(lengths.begin(), lengths.end());
    return complex_transform(a, lengths, FftDirection::inverse, norm, out);
}
Array rfftn(const Array& a, const std::optional<Sizes>& s, const std::optional<Axes>& axes, Norm norm,
            const std::optional<Array>& out) {
    const auto lengths = nd_axes(a, s, axes, false);
    if (lengths.empty()) throw IndexError("rfftn needs at least one axis to transform");  // NumPy: IndexError too
    return real_forward(a, lengths, norm, out);
}
Array irfftn(const Array& a, const std::optional<Sizes>& s, const std::optional<Axes>& axes, Norm norm,
             const std::optional<Array>& out) {
    const auto lengths = nd_axes(a, s, axes, true);
    if (lengths.empty()) throw IndexError("irfftn needs at least one axis to transform");
    return real_inverse(a, lengths, norm, out);
}
Array fft2(const Array& a, const std::optional<Sizes>& s, const std::optional<Axes>& axes, Norm norm,
           const std::optional<Array>& out) {
    return fftn(a, s, two_axes(axes), norm, out);
}
Array ifft2(const Array& a, const std::optional<Sizes>& s, const std::optional<Axes>& axes, Norm norm,
            const std::optional<Array>& out) {
    return ifftn(a, s, two_axes(axes), norm, out);
}
Array rfft2(const Array& a, const std::optional<Sizes>& s, const std::optional<Axes>& axes, Norm norm,
            const std::optional<Array>& out) {
    return rfftn(a, s, two_axes(axes), norm, out);
}
Array irfft2(const Array& a, const std::optional<Sizes>& s, const std::optional<Axes>& axes, Norm norm,
             const std::optional<Array>& out) {
    return irfftn(a, s, two_axes(axes), norm, out);
}

namespace {
// NumPy's errors: 1 / (n d) divides by zero, then n elements are made.
void check_frequency_arguments(std::int64_t n, double d) {
    if (static_cast<double>(n) * d == 0) throw ZeroDivisionError("float division by zero");
    if (n < 0) throw InvalidArgumentError("negative dimensions are not allowed");
}
}  // namespace

Array fftfreq(std::int64_t n, double d, Device device) {
    check_frequency_arguments(n, d);
    std::vector<double> values(static_cast<std::size_t>(n));
    const double scale = 1.0 / (static_cast<double>(n) * d);
    const std::int64_t positive = (n - 1) / 2 + 1;
    for (std::int64_t i = 0; i < n; ++i)
        values[static_cast<std::size_t>(i)] = static_cast<double>(i < positive ? i : i - n) * scale;
    return Array::from_host(std::span<const double>(values), {n}, device);
}
Array rfftfreq(std::int64_t n, double d, Device device) {
    check_frequency_arguments(n, d);
    const std::int64_t count = n / 2 + 1;
    std::vector<double> values(static_cast<std::size_t>(count));
    const double scale = 1.0 / (static_cast<double>(n) * d);
    for (std::int64_t i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = static_cast<double>(i) * scale;
    return Array::from_host(std::span<const double>(values), {count}, device);
}

namespace {
// Rolls each axis by half its extent: n / 2 forward, -(n / 2) back (numpy.fft.fftshift).
Array shift(const Array& x, const std::optional<Axes>& axes, bool back) {
    Axes chosen;
    if (axes)
        chosen = *axes;
    else
        for (std::size_t d = 0; d < x.ndim(); ++d) chosen.push_back(static_cast<std::int64_t>(d));
    std::vector<std::int64_t> shifts;
    for (std::int64_t axis : chosen) {
        const std::int64_t extent = x.shape()[normalize_axis(axis, x.ndim())];
        shifts.push_back(back ? -(extent / 2) : extent / 2);
    }
    if (chosen.empty()) return x.copy();
    return roll(x, shifts, chosen);
}
}  // namespace

Array fftshift(const Array& x, const std::optional<Axes>& axes) { return shift(x, axes, false); }
Array ifftshift(const Array& x, const std::optional<Axes>& axes) { return shift(x, axes, true); }

}  // namespace gpukit::fft
