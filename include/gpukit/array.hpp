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

#include <complex>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "gpukit/array_memory.hpp"
#include "gpukit/device.hpp"
#include "gpukit/dtype.hpp"
#include "gpukit/error.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/module.hpp"
#include "gpukit/scalar.hpp"

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
    // The same elements in another shape (one extent may be -1), read and placed in `order` (C or
    // F; A is F for an F-contiguous array that is not C-contiguous, else C): a view when strides
    // can express it (NumPy's rule), else a copy. InvalidArgumentError for a shape of another size
    // or order K.
    Array reshape(std::span<const std::int64_t> shape, Order order = Order::C) const;
    Array reshape(std::initializer_list<std::int64_t> shape, Order order = Order::C) const {
        return reshape(std::span<const std::int64_t>(shape.begin(), shape.size()), order);
    }
    // The dimensions permuted (reversed when `axes` is empty). InvalidArgumentError unless a permutation.
    Array transpose(std::span<const std::int64_t> axes = {}) const;
    // 1-D, in `order` (K: the order of the elements in memory): a view of an array contiguous in
    // that order, else a copy (NumPy's ravel).
    Array ravel(Order order = Order::C) const;
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
    // with NumPy's rules (InvalidArgumentError when it does not broadcast). The host elements are
    // copied over as they are and converted and broadcast on the device.
    void assign(const ConstHostView& host);
    // a[...] = source: another array's elements, converted and broadcast likewise, on the device
    // (through the host only from another device). Shared memory behaves as NumPy's.
    void assign(const Array& source);

    // ---- on the device: one generated copy kernel (or a memcpy/memset where the bytes allow), on
    // the current stream, without waiting (src/array/device_copy.hpp)
    // A new array with the same elements, laid out in `order` (C by default, as ndarray.copy).
    Array copy(Order order = Order::C) const;
    // This array on `device`: itself when it is there, else a copy in its layout (through the host).
    Array to_device(const Device& device) const;
    // The elements converted to `dtype` as NumPy's astype converts them (float to integer
    // truncates, NaN and out-of-range values as NumPy on x86-64 gives them; complex to real drops
    // the imaginary part; anything to bool is "nonzero"), in a new array laid out in `order`
    // (K by default: the array's own order, as astype's).
    Array astype(DType dtype, Order order = Order::K) const;
    // Sets every element to `value`, converted to the array's dtype as NumPy converts it (a weak
    // integer out of the dtype's range is a ScalarOverflowError; anything else as astype converts):
    // a memset when the element's bytes are all equal and the array has no gaps, else the copy
    // loop with the value as an immediate scalar.
    void fill(const Scalar& value) const;
    // A C++ number is a typed scalar (a.fill(2.5f) is a float32 2.5), converted as astype converts.
    template <class T>
    requires std::is_arithmetic_v<T> || std::is_same_v<T, std::complex<float>> ||
        std::is_same_v<T, std::complex<double>>
    void fill(T value) const { fill(Scalar::of(value)); }
    // The same with one element's bytes in the array's dtype (InvalidArgumentError for another size).
    void fill_bytes(std::span<const std::byte> element) const;

    // The view `layout` describes, relative to this array's first element (its offset in bytes).
    Array view(const ViewLayout& layout) const;
    // numpy.ndarray.view(dtype): the same bytes read as `dtype`. Of another itemsize, the last axis
    // (contiguous; its bytes a multiple of dtype's size) holds more or fewer elements. Throws
    // InvalidArgumentError, in NumPy's words, where it cannot, and where the first element or a
    // stride would not be aligned to dtype's size (a device reads those only aligned).
    Array view(DType dtype) const;
    // The same memory seen with elements of another dtype at a byte offset (real and imag views of
    // complex arrays). Nothing is checked: the caller's promise.
    Array view_as(DType dtype, std::int64_t byte_offset) const;

private:
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
