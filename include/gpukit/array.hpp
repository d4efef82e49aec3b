// gpukit/array.hpp: n-dimensional arrays in device memory.
//
//   auto a = gpukit::Array::from_host(std::span<const float>(values), {3, 4});
//   auto column = a.index({gpukit::Slice{}, 1});       // a[:, 1], a view
//   column.fill(2.5f);                                 // on the current stream
//   std::vector<float> back = a.to_vector<float>();    // waits for the data
//
// An Array is a view: shared ownership of memory (gpukit/array_memory.hpp), the address of its
// first element, a shape, byte strides and a dtype. Indexing, reshape and transpose make views of
// the same memory; nothing is copied until copy(), astype() or a transfer. Copying an Array copies
// the view, not the elements. Work on the device runs on the current stream of the array's device
// (gpukit/current_stream.hpp); transfers to and from the host wait for it, because the host memory
// must outlive the copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "gpukit/array_memory.hpp"
#include "gpukit/device.hpp"
#include "gpukit/dtype.hpp"
#include "gpukit/error.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/module.hpp"

namespace gpukit {

// Host memory laid out as an array: elements of `dtype` from `data`, with a shape and byte strides
// of any sign (NumPy arrays, however sliced). Arrays copy to and from it.
template <class Byte>
struct BasicHostView {
    Byte* data = nullptr;
    DType dtype = DType::uint8;
    Shape shape;
    Strides strides;

    BasicHostView() = default;
    // C-contiguous unless strides are given.
    BasicHostView(Byte* data_, DType dtype_, Shape shape_, std::optional<Strides> strides_ = std::nullopt)
        : data(data_),
          dtype(dtype_),
          shape(std::move(shape_)),
          strides(strides_ ? std::move(*strides_) : c_strides(shape, static_cast<std::int64_t>(itemsize(dtype_)))) {}
    template <class Other>
    requires std::is_const_v<Byte> &&(!std::is_const_v<Other>)
        BasicHostView(const BasicHostView<Other>& other)  // NOLINT(google-explicit-constructor): writable to read-only
        : data(other.data), dtype(other.dtype), shape(other.shape), strides(other.strides) {}
};
using HostView = BasicHostView<std::byte>;
using ConstHostView = BasicHostView<const std::byte>;

class Array {
public:
    // A new C-contiguous array on `device`; its elements are whatever the memory held. Throws
    // InvalidArgumentError for negative extents.
    static Array empty(Shape shape, DType dtype, Device device = Device::current());
    // A copy of host data, in a new C-contiguous array of its shape and dtype.
    static Array from_host(const ConstHostView& host, Device device = Device::current());
    template <class T>
    static Array from_host(std::span<const T> values, Shape shape, Device device = Device::current()) {
        return from_host(
            ConstHostView(reinterpret_cast<const std::byte*>(values.data()), dtype_of<T>(), std::move(shape)), device);
    }

    // A view of memory `memory` owns, its first element at `address`. Nothing is checked against
    // the memory's bounds: that is the caller's promise.
    Array(std::shared_ptr<ArrayMemory> memory, std::uint64_t address, Shape shape, Strides strides, DType dtype);

    // ---- what it is
    DType dtype() const noexcept { return dtype_; }
    const Shape& shape() const noexcept { return shape_; }
    // Bytes from one element to the next along each dimension (negative for reversed views).
    const Strides& strides() const noexcept { return strides_; }
    std::size_t ndim() const noexcept { return shape_.size(); }
    std::int64_t size() const noexcept { return element_count(shape_); }
    std::int64_t itemsize() const noexcept { return static_cast<std::int64_t>(gpukit::itemsize(dtype_)); }
    // Bytes the elements take, gaps between strided elements not counted.
    std::int64_t nbytes() const noexcept { return size() * itemsize(); }
    const Device& device() const noexcept { return memory_->device(); }
    // The device address of the first element.
    std::uint64_t address() const noexcept { return address_; }
    const std::shared_ptr<ArrayMemory>& memory() const noexcept { return memory_; }

    bool is_c_contiguous() const noexcept { return gpukit::is_c_contiguous(shape_, strides_, itemsize()); }
    bool is_f_contiguous() const noexcept { return gpukit::is_f_contiguous(shape_, strides_, itemsize()); }
    // Not a view of part of, or of another type over, an allocation: the array is all of it.
    bool owns_data() const noexcept;
    // The bytes the elements touch, relative to the first element.
    ByteExtent extent() const noexcept { return byte_extent(shape_, strides_, itemsize()); }

    // ---- views (share the memory)
    // Basic indexing (gpukit/indexing.hpp). Throws IndexError with NumPy's messages.
    Array index(std::span<const Index> key) const;
    Array index(std::initializer_list<Index> key) const {
        return index(std::span<const Index>(key.begin(), key.size()));
    }
    // The same elements in another shape (one extent may be -1). A view, so the array must be
    // C-contiguous: InvalidArgumentError otherwise, and for a shape of another size.
    Array reshape(std::span<const std::int64_t> shape) const;
    Array reshape(std::initializer_list<std::int64_t> shape) const {
        return reshape(std::span<const std::int64_t>(shape.begin(), shape.size()));
    }
    // The dimensions permuted (reversed when `axes` is empty). InvalidArgumentError unless a permutation.
    Array transpose(std::span<const std::int64_t> axes = {}) const;
    // 1-D: a view of a C-contiguous array, else a copy.
    Array ravel() const;
    // The array's bytes as elements of `dtype` in `shape`, C-contiguous unless `strides` are
    // given, as cupy.ndarray(shape, dtype, memptr) views memory: the array must be C-contiguous
    // and hold every byte the view touches (InvalidArgumentError otherwise).
    Array reinterpret(DType dtype, Shape shape, std::optional<Strides> strides = std::nullopt) const;

    // ---- host transfers: return once the host memory is done with
    // Copies the elements into host memory of the same shape and dtype, laid out as it is.
    void copy_to_host(const HostView& host) const;
    template <class T>
    std::vector<T> to_vector() const {
        std::vector<T> values(static_cast<std::size_t>(size()));
        copy_to_host(HostView(reinterpret_cast<std::byte*>(values.data()), dtype_of<T>(), shape_));
        return values;
    }
    // Copies host data of the same shape and dtype in. For a strided view the bytes between its
    // elements are read and written back unchanged, so no other stream may write them meanwhile.
    void copy_from_host(const ConstHostView& host);
    // a[...] = host: host data of any dtype, converted as astype converts, broadcast to the shape
    // with NumPy's rules (InvalidArgumentError when it does not broadcast).
    void assign(const ConstHostView& host);
    // a[...] = source: another array's elements, converted and broadcast likewise.
    void assign(const Array& source);

    // ---- on the device
    // A new C-contiguous array with the same elements (a strided one is gathered through the host).
    Array copy() const;
    // The elements converted to `dtype` as NumPy's astype converts them, in a new array (through
    // the host until elementwise kernels arrive).
    Array astype(DType dtype) const;
    // Sets every element to `element`, one element's bytes in the array's dtype: a memset when
    // its bytes are all equal, else through the host.
    void fill_bytes(std::span<const std::byte> element);
    // Sets every element to `value`, converted to the array's dtype as astype converts.
    template <class T>
    void fill(T value) {
        fill_converted(reinterpret_cast<const std::byte*>(&value), dtype_of<T>());
    }

private:
    void fill_converted(const std::byte* value, DType value_dtype);
    Array view(const ViewLayout& layout) const;

    std::shared_ptr<ArrayMemory> memory_;
    std::uint64_t address_ = 0;
    Shape shape_;
    Strides strides_;
    DType dtype_;
};

// A module's __device__ or __constant__ variable as an array: its bytes (uint8) by default, or
// elements of `dtype`, as many as it holds (1-D) unless `shape` says. Keeps the module loaded.
// Throws InvalidArgumentError when the variable does not exist, or does not hold a whole number of
// elements (without a shape), or is smaller than `shape` needs.
Array module_global(const Module& module, std::string_view name, DType dtype = DType::uint8,
                    std::optional<Shape> shape = std::nullopt);

}  // namespace gpukit
