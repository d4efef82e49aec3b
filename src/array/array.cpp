// src/array/array.cpp: making arrays, and the views that share their memory.
#include "gpukit/array.hpp"

#include <utility>

#include "array/same_device.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/memory_pool.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

Array::Array(std::shared_ptr<ArrayMemory> memory, std::uint64_t address, Shape shape, Strides strides, DType dtype)
    : memory_(std::move(memory)),
      address_(address),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      dtype_(dtype) {
    if (!memory_) throw InvalidArgumentError("An array needs the memory it views (a null ArrayMemory was given)");
    if (shape_.size() != strides_.size())
        throw InvalidArgumentError(
            concat("strides ", format_shape(strides_), " do not match shape ", format_shape(shape_)));
}

Array Array::empty(Shape shape, DType dtype, Device device) {
    const auto item = static_cast<std::int64_t>(gpukit::itemsize(dtype));
    check_shape(shape, item);
    const auto bytes = static_cast<std::size_t>(element_count(shape) * item);
    auto memory = default_memory_pool(device).allocate(bytes);
    const std::uint64_t address = memory->allocation()->address();
    Strides strides = c_strides(shape, item);
    return Array(std::move(memory), address, std::move(shape), std::move(strides), dtype);
}

bool Array::owns_data() const noexcept {
    const BufferView* allocation = memory_->allocation();
    return allocation && allocation->address() == address_ &&
           allocation->size_bytes() == static_cast<std::size_t>(nbytes());
}

Array Array::view(const ViewLayout& layout) const {
    return Array(memory_, address_ + static_cast<std::uint64_t>(layout.offset), layout.shape, layout.strides, dtype_);
}

Array Array::index(std::span<const Index> key) const { return view(select(shape_, strides_, key)); }

Array Array::view(DType dtype) const {
    const std::int64_t old_size = itemsize();
    const std::int64_t new_size = gpukit::itemsize(dtype);
    Shape shape = shape_;
    Strides strides = strides_;
    if (new_size != old_size) {
        if (ndim() == 0)
            throw InvalidArgumentError(
                "Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
        const std::size_t last = ndim() - 1;
        if (shape[last] != 1 && strides[last] != old_size)
            throw InvalidArgumentError("To change to a dtype of a different size, the last axis must be contiguous");
        if (new_size < old_size && old_size % new_size != 0)
            throw InvalidArgumentError(
                "When changing to a smaller dtype, its size must be a divisor of the size of original dtype");
        if (new_size > old_size && (shape[last] * old_size) % new_size != 0)
            throw InvalidArgumentError(
                "When changing to a larger dtype, its size must be a divisor of the total size "
                "in bytes of the last axis of the array.");
        shape[last] = shape[last] * old_size / new_size;
        strides[last] = new_size;
    }
    // A complex number is read as two of its parts: those are what must be aligned.
    const std::int64_t alignment = kind(dtype) == DTypeKind::complex ? new_size / 2 : new_size;
    bool aligned = address_ % static_cast<std::uint64_t>(alignment) == 0;
    for (std::size_t d = 0; d < shape.size(); ++d)
        if (shape[d] > 1 && strides[d] % alignment != 0) aligned = false;
    if (!aligned)
        throw InvalidArgumentError(concat("a view of these ", to_string(dtype_), " elements as ", to_string(dtype),
                                          " would read elements not aligned to ", alignment,
                                          " bytes, which a device cannot: view a copy (a.copy().view(...))"));
    return Array(memory_, address_, std::move(shape), std::move(strides), dtype);
}

Array Array::view_as(DType dtype, std::int64_t byte_offset) const {
    return Array(memory_, address_ + static_cast<std::uint64_t>(byte_offset), shape_, strides_, dtype);
}

Array Array::reshape(std::span<const std::int64_t> shape, Order order) const {
    if (order == Order::K) throw InvalidArgumentError("order 'K' is not permitted for reshaping");
    if (order == Order::A) order = is_f_contiguous() && !is_c_contiguous() ? Order::F : Order::C;
    Shape resolved = resolve_reshape(size(), shape);
    const bool fortran = order == Order::F;
    if (std::optional<Strides> strides = reshaped_strides(shape_, strides_, itemsize(), resolved, fortran))
        return Array(memory_, address_, std::move(resolved), std::move(*strides), dtype_);
    // The elements are not evenly spaced in that order: a copy laid out in it, which is.
    return copy(order).reshape(resolved, order);
}

Array Array::transpose(std::span<const std::int64_t> axes) const {
    return view(permute(shape_, strides_, resolve_axes(ndim(), axes)));
}

Array Array::ravel(Order order) const {
    const std::int64_t flat[] = {size()};
    if (order == Order::A) order = is_f_contiguous() && !is_c_contiguous() ? Order::F : Order::C;
    if (order == Order::C) return (is_c_contiguous() ? *this : copy(Order::C)).reshape(flat);
    if (order == Order::F) return (is_f_contiguous() ? *this : copy(Order::F)).reshape(flat, Order::F);
    // K: the dimensions in memory order, read in C order: a view when that is contiguous.
    const std::vector<std::int64_t> outermost_first = memory_order(strides_);
    const Array in_memory_order = transpose(outermost_first);
    return (in_memory_order.is_c_contiguous() ? in_memory_order : in_memory_order.copy(Order::C)).reshape(flat);
}

Array Array::reinterpret(DType dtype, Shape shape, std::optional<Strides> strides) const {
    const auto item = static_cast<std::int64_t>(gpukit::itemsize(dtype));
    check_shape(shape, item);
    Strides resolved = strides ? std::move(*strides) : c_strides(shape, item);
    if (resolved.size() != shape.size())
        throw InvalidArgumentError(
            concat("strides ", format_shape(resolved), " do not match shape ", format_shape(shape)));
    const ByteExtent needs = byte_extent(shape, resolved, item);
    const bool contiguous = is_c_contiguous();
    if (!contiguous || needs.low < 0 || needs.high > nbytes())
        throw InvalidArgumentError(
            concat("a ", format_shape(shape), " ", to_string(dtype), " view with strides ", format_shape(resolved),
                   " needs bytes [", needs.low, ", ", needs.high, ") but the array it views ",
                   contiguous ? concat("holds ", nbytes(), " bytes") : std::string("is not contiguous")));
    return Array(memory_, address_, std::move(shape), std::move(resolved), dtype);
}

void detail::require_on_device(const Array& array, const Device& device, std::string_view operation) {
    if (array.device() == device) return;
    throw InvalidArgumentError(concat(operation, ": the arrays must be on one device, and one is on ",
                                      array.device().describe(), " while the work runs on ", device.describe(),
                                      ". Copy it over first: x.to_device(", device.ordinal(), ")"));
}

std::uint64_t detail::launch_address(const Array& array) noexcept {
    array.memory()->mark_used_by_launch();
    return array.address();
}

std::uint64_t detail::launch_address(const Array& array, const StreamRef& stream) {
    detail::require_on_device(array, stream.device(), "a launch");
    array.memory()->mark_used_by_launch(stream);
    return array.address();
}

Array module_global(const Module& module, std::string_view name, DType dtype, std::optional<Shape> shape) {
    const GlobalSymbol symbol = module.global(name);
    const auto size = static_cast<std::int64_t>(symbol.memory.size_bytes());
    const Array bytes(std::make_shared<ModuleGlobalMemory>(module), symbol.memory.address(), {size}, {1}, DType::uint8);
    if (!shape) {
        const auto item = static_cast<std::int64_t>(itemsize(dtype));
        if (size % item != 0)
            throw InvalidArgumentError(
                concat(name, " is ", size, " bytes, not a whole number of ", to_string(dtype), " elements"));
        shape = Shape{size / item};
    }
    return bytes.reinterpret(dtype, std::move(*shape));
}

}  // namespace gpukit
