// gpukit/scalar.hpp: one value as an operand of an elementwise operation.
//
//   gpukit::add(a, gpukit::Scalar(2.0))             // a Python-like float: takes a's dtype (NEP 50)
//   gpukit::add(a, gpukit::Scalar::of(2.0f))        // a float32 scalar, as numpy.float32(2): strong
//
// A scalar travels in the kernel's parameters, not in device memory: `x + 1.0` allocates nothing
// but its result. It is either weak, as Python's bool, int, float and complex are under NumPy 2's
// rules (gpukit/promotion.hpp: it takes the arrays' dtype unless of a higher kind), or typed, as
// NumPy's scalars are (np.float32(2) promotes like a 0-d float32 array). The same type carries
// fill values, the bounds of arange and linspace and pad's constants (gpukit/creation.hpp).
#pragma once

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>

#include "gpukit/dtype.hpp"
#include "gpukit/promotion.hpp"

namespace gpukit {

class Scalar {
public:
    // Weak scalars, as Python's bool, int, float and complex.
    explicit Scalar(bool value) noexcept;
    explicit Scalar(std::int64_t value) noexcept;
    explicit Scalar(int value) noexcept : Scalar(static_cast<std::int64_t>(value)) {}
    // A Python int above INT64_MAX (uint64 arrays take it; others raise OverflowError as NumPy's).
    static Scalar weak_unsigned(std::uint64_t value) noexcept;
    explicit Scalar(double value) noexcept;
    explicit Scalar(std::complex<double> value) noexcept;

    // A typed scalar: `bytes` hold one element of `dtype`.
    static Scalar typed(DType dtype, const void* bytes) noexcept;
    template <class T>
    static Scalar of(T value) noexcept {
        return typed(dtype_of<T>(), &value);
    }

    // The weak kind, or nullopt for a typed scalar.
    std::optional<PythonScalar> weak_kind() const noexcept { return weak_; }
    // The dtype it is held in: its own when typed; for a weak one, the default of its kind (bool,
    // int64 (uint64 above INT64_MAX), float64, complex128).
    DType dtype() const noexcept { return dtype_; }

    // The value as one element of `dtype`, converted as astype converts. A weak integer must fit
    // an integer `dtype`: OverflowError otherwise, in NumPy's words ("Python integer 300 out of
    // bounds for uint8").
    std::array<std::byte, 16> as(DType dtype) const;
    // Whether a weak integer's value fits `dtype` (always true for other scalars).
    bool fits(DType dtype) const noexcept;
    // The value as one element of `dtype`, converted as astype converts, without as()'s range check:
    // for arithmetic on range bounds, which picks a dtype wide enough first.
    std::array<std::byte, 16> converted(DType dtype) const;
    // The value as a C++ number, converted likewise (complex to real drops the imaginary part).
    template <class T>
    T value() const {
        const std::array<std::byte, 16> element = converted(dtype_of<T>());
        T result;
        std::memcpy(&result, element.data(), sizeof result);
        return result;
    }

private:
    Scalar() = default;
    alignas(16) std::array<std::byte, 16> bytes_{};  // one element of dtype_
    DType dtype_ = DType::bool_;
    std::optional<PythonScalar> weak_;
};

}  // namespace gpukit
