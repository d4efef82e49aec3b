// src/array/dtype.cpp: element types by name and by DLPack code.
#include "gpukit/dtype.hpp"

#include <string>

#include "array/c_type.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit {

std::optional<DType> dtype_named(std::string_view name) {
    for (const DTypeInfo& row : dtype_table)
        if (row.name == name) return row.dtype;
    return std::nullopt;
}

DType parse_dtype(std::string_view name) {
    if (auto dtype = dtype_named(name)) return *dtype;
    std::string names;
    for (const DTypeInfo& row : dtype_table) names += (names.empty() ? "" : ", ") + std::string(row.name);
    throw UnsupportedDTypeError(detail::concat("gpukit arrays do not hold ", name, "; they hold ", names));
}

std::optional<DType> dtype_from_dlpack(DLPackDType type) {
    if (type.lanes != 1) return std::nullopt;
    for (const DTypeInfo& row : dtype_table)
        if (to_dlpack(row.dtype) == type) return row.dtype;
    return std::nullopt;
}

namespace detail {

std::string_view c_type_of(DType dtype, CTypeNames names) {
    const bool cuda = names == CTypeNames::cuda_headers;
    switch (dtype) {
        case DType::bool_: return "bool";
        case DType::int8: return "signed char";
        case DType::int16: return "short";
        case DType::int32: return "int";
        case DType::int64: return "long long";
        case DType::uint8: return "unsigned char";
        case DType::uint16: return "unsigned short";
        case DType::uint32: return "unsigned int";
        case DType::uint64: return "unsigned long long";
        case DType::float16: return cuda ? "__half" : "gk_float16";
        case DType::bfloat16: return cuda ? "__nv_bfloat16" : "gk_bfloat16";
        case DType::float32: return "float";
        case DType::float64: return "double";
        case DType::complex64: return cuda ? "cuFloatComplex" : "gk_complex64";
        case DType::complex128: return cuda ? "cuDoubleComplex" : "gk_complex128";
    }
    return "void";
}

}  // namespace detail

}  // namespace gpukit
