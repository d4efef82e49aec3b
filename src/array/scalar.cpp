// src/array/scalar.cpp: a number and its dtype (gpukit/scalar.hpp), converted by the host converter.
#include "gpukit/scalar.hpp"

#include <algorithm>

#include "array/convert.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit {

Scalar::Scalar(std::span<const std::byte> element, DType dtype) : dtype_(dtype) {
    if (element.size() != itemsize(dtype))
        throw InvalidArgumentError(
            detail::concat("a ", to_string(dtype), " scalar is ", itemsize(dtype), " bytes, not ", element.size()));
    std::copy(element.begin(), element.end(), bytes_.begin());
}

PythonScalar Scalar::python_kind() const noexcept {
    switch (kind(dtype_)) {
        case DTypeKind::boolean: return PythonScalar::boolean;
        case DTypeKind::signed_integer:
        case DTypeKind::unsigned_integer: return PythonScalar::integer;
        case DTypeKind::floating: return PythonScalar::floating;
        case DTypeKind::complex: return PythonScalar::complex;
    }
    return PythonScalar::floating;
}

std::array<std::byte, 16> Scalar::converted(DType dtype) const {
    std::array<std::byte, 16> element{};
    detail::convert_elements(bytes_.data(), 0, dtype_, element.data(), 0, dtype, 1);
    return element;
}

Scalar Scalar::cast(DType dtype) const {
    const std::array<std::byte, 16> element = converted(dtype);
    return Scalar(std::span(element).first(itemsize(dtype)), dtype);
}

}  // namespace gpukit
