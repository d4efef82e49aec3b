// src/array/creation.cpp: new arrays of a shape, like another, eye, and from host memory or other
// arrays (gpukit/creation.hpp). Ranges (arange, linspace) are in ranges.cpp.
#include "gpukit/creation.hpp"

#include <utility>

#include "array/device_copy.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

namespace {

// A new allocation seen with `strides`, which must lay the shape out without gaps.
Array allocate(Shape shape, DType dtype, const Strides& strides, const Device& device) {
    Array array = Array::empty(shape, dtype, device);  // checks the shape
    if (strides == array.strides()) return array;
    return Array(array.memory(), array.address(), std::move(shape), strides, dtype);
}

Order checked_new_order(Order order) {
    if (order != Order::C && order != Order::F)
        throw InvalidArgumentError(
            concat("only 'C' or 'F' order is permitted for a new array, not '", to_string(order), "'"));
    return order;
}

bool lies_in(const Array& array, Order order) {
    switch (order) {
        case Order::C: return array.is_c_contiguous();
        case Order::F: return array.is_f_contiguous();
        case Order::A:
        case Order::K: return true;
    }
    return false;
}

}  // namespace

Array empty(Shape shape, DType dtype, Order order, Device device) {
    const auto item = static_cast<std::int64_t>(itemsize(dtype));
    check_shape(shape, item);
    const Strides strides = strides_in_order(shape, item, checked_new_order(order));
    return allocate(std::move(shape), dtype, strides, device);
}

Array zeros(Shape shape, DType dtype, Order order, Device device) {
    Array array = empty(std::move(shape), dtype, order, device);
    array.fill(false);  // all bytes zero in every dtype: a memset
    return array;
}

Array ones(Shape shape, DType dtype, Order order, Device device) {
    Array array = empty(std::move(shape), dtype, order, device);
    array.fill(true);
    return array;
}

Array full(Shape shape, const Scalar& value, std::optional<DType> dtype, Order order, Device device) {
    Array array = empty(std::move(shape), dtype.value_or(value.dtype()), order, device);
    array.fill(value);
    return array;
}

Array empty_like(const Array& prototype, const LikeOptions& options) {
    Shape shape = options.shape.value_or(prototype.shape());
    const DType dtype = options.dtype.value_or(prototype.dtype());
    const auto item = static_cast<std::int64_t>(itemsize(dtype));
    check_shape(shape, item);
    // A layout to follow needs as many dimensions as the prototype has (NumPy falls back to C).
    const bool follows = shape.size() == prototype.ndim();
    const Order order = !follows && (options.order == Order::K || options.order == Order::A) ? Order::C : options.order;
    const Strides strides =
        strides_in_order(shape, item, order, prototype.shape(), prototype.strides(), prototype.itemsize());
    return allocate(std::move(shape), dtype, strides, options.device.value_or(prototype.device()));
}

Array zeros_like(const Array& prototype, const LikeOptions& options) {
    Array array = empty_like(prototype, options);
    array.fill(false);
    return array;
}

Array ones_like(const Array& prototype, const LikeOptions& options) {
    Array array = empty_like(prototype, options);
    array.fill(true);
    return array;
}

Array full_like(const Array& prototype, const Scalar& value, const LikeOptions& options) {
    Array array = empty_like(prototype, options);
    array.fill(value);
    return array;
}

Array eye(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, DType dtype, Order order, Device device) {
    const std::int64_t columns = m.value_or(n);
    if (checked_new_order(order) == Order::F)  // the transpose of the C-ordered matrix of the other diagonal
        return eye(columns, n, -k, dtype, Order::C, device).transpose();
    Array result = empty({n, columns}, dtype, Order::C, device);
    if (result.size() == 0) return result;
    const detail::ElementwiseOperand inputs[] = {Scalar::of(columns), Scalar::of(k)};
    const Array* outputs[] = {&result};
    const DType loop[] = {DType::int64, DType::int64, DType::bool_};
    detail::run_builtin(detail::BuiltinOp::eye, inputs, outputs, loop);
    return result;
}

Array identity(std::int64_t n, DType dtype, Device device) { return eye(n, n, 0, dtype, Order::C, device); }

Array asarray(const ConstHostView& host, std::optional<DType> dtype, Order order, Device device) {
    const auto item = static_cast<std::int64_t>(itemsize(host.dtype));
    check_shape(host.shape, item);
    const Order staged_order = order == Order::A ? Order::K : order;  // NumPy's A follows an F-ordered host too
    const Strides strides = strides_in_order(host.shape, item, staged_order, host.shape, host.strides, item);
    Array staged = allocate(host.shape, host.dtype, strides, device);
    staged.copy_from_host(host);
    if (!dtype || *dtype == host.dtype) return staged;
    return staged.astype(*dtype, Order::K);
}

Array asarray(const Array& array, std::optional<DType> dtype, Order order) {
    if ((!dtype || *dtype == array.dtype()) && lies_in(array, order)) return array;
    return array.astype(dtype.value_or(array.dtype()), order);
}

Array ascontiguousarray(const Array& array, std::optional<DType> dtype) {
    const Array at_least_1d = array.ndim() == 0 ? array.reshape({1}) : array;
    return asarray(at_least_1d, dtype, Order::C);
}

Array asfortranarray(const Array& array, std::optional<DType> dtype) {
    const Array at_least_1d = array.ndim() == 0 ? array.reshape({1}) : array;
    return asarray(at_least_1d, dtype, Order::F);
}

}  // namespace gpukit
