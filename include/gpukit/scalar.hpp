// gpukit/scalar.hpp: one number and its dtype, as a NumPy scalar is: fill values, the bounds of
// arange and linspace, pad's constants.
//
//   gpukit::full({3, 4}, 2.5);                       // a Scalar of 2.5 (float64)
//   gpukit::Scalar(std::uint8_t{7}).dtype();         // uint8
//   gpukit::Scalar(0.1).converted(DType::float16);   // its bytes as a float16, rounded as astype rounds
//
// C++ numbers keep their type (an int is int32, as dtype_of says); the Python bindings give Python
// ints int64 (uint64 beyond it) and floats float64, as NumPy does.
#pragma once

#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <span>
#include <type_traits>

#include "gpukit/dtype.hpp"
#include "gpukit/promotion.hpp"

namespace gpukit {

class Scalar {
public:
    template <class T>
    requires std::is_arithmetic_v<T> || std::is_same_v<T, std::complex<float>> ||
        std::is_same_v<T, std::complex<double>>
        Scalar(T value)  // NOLINT(google-explicit-constructor): a number is a scalar wherever one is asked for
        : dtype_(dtype_of<T>()) {
        static_assert(sizeof(T) <= sizeof(bytes_));
        const auto* raw = reinterpret_cast<const std::byte*>(&value);
        std::copy(raw, raw + sizeof(T), bytes_.begin());
    }
    // One element's bytes of `dtype` (float16 and bfloat16 have no C++ type). Throws
    // InvalidArgumentError when `element` is not itemsize(dtype) bytes.
    Scalar(std::span<const std::byte> element, DType dtype);

    DType dtype() const noexcept { return dtype_; }
    // A Python number (bool, int, float, complex) is weak (NEP 50): where it meets arrays, it takes
    // their dtype unless it is of a higher kind (gpukit/promotion.hpp). The bindings mark them.
    bool weak() const noexcept { return weak_; }
    Scalar as_weak() const noexcept {
        Scalar weak = *this;
        weak.weak_ = true;
        return weak;
    }
    // The kind of Python number a weak scalar is: boolean, integer, floating or complex.
    PythonScalar python_kind() const noexcept;
    std::span<const std::byte> bytes() const noexcept { return {bytes_.data(), itemsize(dtype_)}; }

    // The value as an element of `dtype`, converted as NumPy's astype converts (its first
    // itemsize(dtype) bytes are the element).
    std::array<std::byte, 16> converted(DType dtype) const;
    // The value as a scalar of `dtype`, converted likewise.
    Scalar cast(DType dtype) const;
    // The value as a C++ number, converted likewise (complex to real drops the imaginary part).
    template <class T>
    T as() const {
        const std::array<std::byte, 16> element = converted(dtype_of<T>());
        T value;
        std::copy(element.begin(), element.begin() + sizeof(T), reinterpret_cast<std::byte*>(&value));
        return value;
    }

private:
    std::array<std::byte, 16> bytes_{};
    DType dtype_;
    bool weak_ = false;
};

}  // namespace gpukit
