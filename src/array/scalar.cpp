// src/array/scalar.cpp: scalars held as one element of their dtype.
#include "gpukit/scalar.hpp"

#include <cstring>
#include <limits>

#include "array/convert.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit {
using detail::concat;

namespace {

template <class T>
void store(std::array<std::byte, 16>& bytes, T value) noexcept {
    static_assert(sizeof(T) <= 16);
    std::memcpy(bytes.data(), &value, sizeof value);
}

}  // namespace

Scalar::Scalar(bool value) noexcept : dtype_(DType::bool_), weak_(PythonScalar::boolean) { store(bytes_, value); }
Scalar::Scalar(std::int64_t value) noexcept : dtype_(DType::int64), weak_(PythonScalar::integer) {
    store(bytes_, value);
}
Scalar Scalar::weak_unsigned(std::uint64_t value) noexcept {
    if (value <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return Scalar(static_cast<std::int64_t>(value));
    Scalar scalar;
    scalar.dtype_ = DType::uint64;
    scalar.weak_ = PythonScalar::integer;
    store(scalar.bytes_, value);
    return scalar;
}
Scalar::Scalar(double value) noexcept : dtype_(DType::float64), weak_(PythonScalar::floating) { store(bytes_, value); }
Scalar::Scalar(std::complex<double> value) noexcept : dtype_(DType::complex128), weak_(PythonScalar::complex) {
    store(bytes_, value);
}

Scalar Scalar::typed(DType dtype, const void* bytes) noexcept {
    Scalar scalar;
    scalar.dtype_ = dtype;
    std::memcpy(scalar.bytes_.data(), bytes, itemsize(dtype));
    return scalar;
}

bool Scalar::fits(DType dtype) const noexcept {
    if (weak_ != PythonScalar::integer) return true;
    const DTypeKind target = kind(dtype);
    if (target != DTypeKind::signed_integer && target != DTypeKind::unsigned_integer) return true;
    const auto bits = static_cast<int>(itemsize(dtype) * 8);
    if (dtype_ == DType::uint64) {  // above INT64_MAX: only uint64 holds it
        return dtype == DType::uint64;
    }
    std::int64_t value = 0;
    std::memcpy(&value, bytes_.data(), sizeof value);
    if (target == DTypeKind::unsigned_integer) return value >= 0 && (bits == 64 || value < (std::int64_t{1} << bits));
    if (bits == 64) return true;
    return value >= -(std::int64_t{1} << (bits - 1)) && value < (std::int64_t{1} << (bits - 1));
}

std::array<std::byte, 16> Scalar::as(DType dtype) const {
    if (!fits(dtype)) {
        std::string value;
        if (dtype_ == DType::uint64) {
            std::uint64_t v = 0;
            std::memcpy(&v, bytes_.data(), sizeof v);
            value = concat(v);
        } else {
            std::int64_t v = 0;
            std::memcpy(&v, bytes_.data(), sizeof v);
            value = concat(v);
        }
        throw ScalarOverflowError(concat("Python integer ", value, " out of bounds for ", to_string(dtype)));
    }
    return converted(dtype);
}

std::array<std::byte, 16> Scalar::converted(DType dtype) const {
    std::array<std::byte, 16> element{};
    detail::convert_elements(bytes_.data(), 0, dtype_, element.data(), 0, dtype, 1);
    return element;
}

}  // namespace gpukit
