// src/array/dtype.cpp: element types by name and by DLPack code.
#include "gpukit/dtype.hpp"

#include <string>

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
    throw InvalidArgumentError(detail::concat("gpukit arrays do not hold ", name, "; they hold ", names));
}

std::optional<DType> dtype_from_dlpack(DLPackDType type) {
    if (type.lanes != 1) return std::nullopt;
    for (const DTypeInfo& row : dtype_table)
        if (to_dlpack(row.dtype) == type) return row.dtype;
    return std::nullopt;
}

}  // namespace gpukit
