// gpukit/creation.hpp: new arrays, made on the device: NumPy's empty, zeros, ones, full, the *_like
// forms, arange, linspace, eye, identity, and arrays from host memory or other arrays.
//
//   auto x = gpukit::arange(0.0, 1.0, 0.125);            // float64, NumPy's values bit for bit
//   auto m = gpukit::eye(4, 5, 1, DType::int32);
//   auto z = gpukit::zeros_like(m, {.dtype = DType::float16});
//
// Values are written by generated kernels (src/ops/builtin_ops.hpp) or a memset, on the current
// stream of the device, without waiting; only asarray of host memory transfers data. Shapes are
// checked as Array::empty checks them (InvalidArgumentError).
#pragma once

#include <cstdint>
#include <optional>

#include "gpukit/array.hpp"
#include "gpukit/scalar.hpp"

namespace gpukit {

// ---- of a shape. `order` is C or F (InvalidArgumentError for A and K, as NumPy's).
Array empty(Shape shape, DType dtype = DType::float64, Order order = Order::C, Device device = Device::current());
Array zeros(Shape shape, DType dtype = DType::float64, Order order = Order::C, Device device = Device::current());
Array ones(Shape shape, DType dtype = DType::float64, Order order = Order::C, Device device = Device::current());
// Every element `value`, in `dtype` (the value's own when not given), converted as astype converts.
Array full(Shape shape, const Scalar& value, std::optional<DType> dtype = std::nullopt, Order order = Order::C,
           Device device = Device::current());

// ---- like another array: its shape, dtype and (order K) layout unless given, on its device.
struct LikeOptions {
    std::optional<DType> dtype;
    Order order = Order::K;        // K and A follow the prototype's layout (C when `shape` changes its ndim)
    std::optional<Shape> shape;    // NumPy's shape=
    std::optional<Device> device;  // the prototype's when not given (the Array API's device=)
};
Array empty_like(const Array& prototype, const LikeOptions& options = {});
Array zeros_like(const Array& prototype, const LikeOptions& options = {});
Array ones_like(const Array& prototype, const LikeOptions& options = {});
Array full_like(const Array& prototype, const Scalar& value, const LikeOptions& options = {});

// ---- ranges
// NumPy's arange: ceil((stop - start) / step) elements (none when that is not positive), in `dtype`
// or, when not given, the type NumPy picks (int64 for integers, float64 once a float is among
// them, promoted with the bounds' own dtypes). The first two elements are start and start + step;
// the rest start + i * (second - first), computed in the dtype (float32 for float16 and bfloat16)
// as NumPy's fill computes them. Throws InvalidArgumentError for a zero step, a length that is NaN
// or beyond int64, complex bounds, and bool arrays of more than 2 elements (NumPy has no bool fill).
Array arange(const Scalar& start, const Scalar& stop, const Scalar& step = Scalar(std::int64_t{1}),
             std::optional<DType> dtype = std::nullopt, Device device = Device::current());
Array arange(const Scalar& stop, std::optional<DType> dtype = std::nullopt, Device device = Device::current());

// NumPy's linspace: `num` values from start to stop (stop included when `endpoint`), computed in
// the bounds' inexact type (float64 for integers; complex parts each on their own) with NumPy's
// formula, i * step + start with stop written exactly at the end, then floored for an integer
// dtype and converted to `dtype`. `step` is NumPy's retstep (NaN when num < 2 with the endpoint).
struct LinspaceResult {
    Array values;
    Scalar step;
};
struct LinspaceOptions {
    bool endpoint = true;
    std::optional<DType> dtype;
};
LinspaceResult linspace_with_step(const Scalar& start, const Scalar& stop, std::int64_t num = 50,
                                  const LinspaceOptions& options = {}, Device device = Device::current());
Array linspace(const Scalar& start, const Scalar& stop, std::int64_t num = 50, const LinspaceOptions& options = {},
               Device device = Device::current());

// NumPy's logspace: base ** linspace(start, stop, num), the base an array of its own dtype (so
// base 10 and 10.0 are int64 and float64, promoted with the exponents' type), then converted to `dtype`.
struct LogspaceOptions {
    bool endpoint = true;
    std::optional<DType> dtype;
    Scalar base = Scalar(10.0);
};
Array logspace(const Scalar& start, const Scalar& stop, std::int64_t num = 50, const LogspaceOptions& options = {},
               Device device = Device::current());
// NumPy's geomspace: `num` values in geometric progression from start to stop, as NumPy computes
// them: both divided by start's sign (a complex one's unit phase), logspace between their base-10
// logarithms, the endpoints written as they are, times the sign again. Computed in float64 (complex128
// for complex bounds or dtype) unless the bounds and dtype are narrower floats. InvalidArgumentError
// for a zero bound ("Geometric sequence cannot include zero").
Array geomspace(const Scalar& start, const Scalar& stop, std::int64_t num = 50, const LinspaceOptions& options = {},
                Device device = Device::current());

// NumPy's tri: an n x m matrix (m = n when not given; negative extents count as 0) of ones on and
// below diagonal k, zeros above.
Array tri(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
          DType dtype = DType::float64, Device device = Device::current());
// NumPy's vander: the columns of powers of the 1-D `x`, x ** (n-1), ..., x ** 0 (ascending when
// `increasing`), n = x's length when not given, in promote_types(x.dtype, int64); the powers are
// running products, as NumPy's. InvalidArgumentError for x not 1-D or a negative n.
Array vander(const Array& x, std::optional<std::int64_t> n = std::nullopt, bool increasing = false);

// Ones on the k-th diagonal (above the main one for k > 0) of an n x m matrix (m = n when not given).
Array eye(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
          DType dtype = DType::float64, Order order = Order::C, Device device = Device::current());
Array identity(std::int64_t n, DType dtype = DType::float64, Device device = Device::current());

// ---- from host memory and other arrays
// A new device array of the host elements, in `dtype` (theirs when not given) and `order` (K: the
// host's layout): one transfer of the bytes as they are, then a conversion on the device if needed.
Array asarray(const ConstHostView& host, std::optional<DType> dtype = std::nullopt, Order order = Order::K,
              Device device = Device::current());
// `array` itself when it already has `dtype` and lies in `order`, else a converted copy.
Array asarray(const Array& array, std::optional<DType> dtype = std::nullopt, Order order = Order::K);
// C-contiguous (F-contiguous), at least 1-D: `array` itself when it is already, else a copy.
Array ascontiguousarray(const Array& array, std::optional<DType> dtype = std::nullopt);
Array asfortranarray(const Array& array, std::optional<DType> dtype = std::nullopt);

// NumPy's require: `array` in `dtype` (its own when not given), a copy only where a requirement is
// not met. Of NumPy's flags, C and F (contiguous; both at once is InvalidArgumentError) and O (owns
// its memory, not a view) can fail; device arrays are always aligned and writeable (A and W), and
// gpukit has one array type (E).
struct Requirements {
    bool c_contiguous = false;
    bool f_contiguous = false;
    bool owns_data = false;
};
Array require(const Array& array, std::optional<DType> dtype = std::nullopt, const Requirements& requirements = {});
// Whether `array` is Fortran-contiguous and not C-contiguous too (numpy.isfortran: a 1-D array is not).
bool isfortran(const Array& array);

}  // namespace gpukit
