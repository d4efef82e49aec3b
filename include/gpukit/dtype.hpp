// gpukit/dtype.hpp: the element types arrays hold: their names, sizes, kinds and DLPack codes.
//
// NumPy's numeric types plus bfloat16, named as NumPy names them ("float32"; "bfloat16" as
// ml_dtypes does), one row each in gpukit/dtypes.def.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

namespace gpukit {

enum class DTypeKind : std::uint8_t { boolean, signed_integer, unsigned_integer, floating, complex };

enum class DType : std::uint8_t {
#define GPUKIT_DTYPE(id, name, itemsize, kind, dlpack_code) id,
#include "gpukit/dtypes.def"
#undef GPUKIT_DTYPE
};

struct DTypeInfo {
    DType dtype;
    std::string_view name;  // "float32"
    std::size_t itemsize;   // bytes per element
    DTypeKind kind;
    std::uint8_t dlpack_code;  // DLPack's type code; its bits are itemsize * 8
};

// Every element type, in DType's order.
inline constexpr DTypeInfo dtype_table[] = {
#define GPUKIT_DTYPE(id, name, itemsize, kind, dlpack_code) {DType::id, name, itemsize, DTypeKind::kind, dlpack_code},
#include "gpukit/dtypes.def"
#undef GPUKIT_DTYPE
};

constexpr const DTypeInfo& dtype_info(DType dtype) { return dtype_table[static_cast<std::size_t>(dtype)]; }
constexpr std::string_view to_string(DType dtype) { return dtype_info(dtype).name; }
constexpr std::size_t itemsize(DType dtype) { return dtype_info(dtype).itemsize; }
constexpr DTypeKind kind(DType dtype) { return dtype_info(dtype).kind; }

// NumPy's one-letter kind (numpy.dtype.kind): 'b', 'i', 'u', 'f' (bfloat16 included) or 'c'.
constexpr char kind_char(DType dtype) {
    switch (kind(dtype)) {
        case DTypeKind::boolean: return 'b';
        case DTypeKind::signed_integer: return 'i';
        case DTypeKind::unsigned_integer: return 'u';
        case DTypeKind::floating: return 'f';
        case DTypeKind::complex: return 'c';
    }
    return '?';
}

// The element type of that name ("float32", "bool", "bfloat16"), or nullopt.
std::optional<DType> dtype_named(std::string_view name);
// The element type of that name. Throws InvalidArgumentError naming the types arrays hold.
DType parse_dtype(std::string_view name);

// The element type of a C++ type: dtype_of<float>() is DType::float32. (float16 and bfloat16 have
// no standard C++ type; arrays of them take their bits through std::byte spans.)
template <class T>
constexpr DType dtype_of() {
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, bool>) {
        return DType::bool_;
    } else if constexpr (std::is_integral_v<U>) {
        constexpr DType signed_types[] = {DType::int8, DType::int16, DType::int32, DType::int64};
        constexpr DType unsigned_types[] = {DType::uint8, DType::uint16, DType::uint32, DType::uint64};
        constexpr std::size_t log2_size = sizeof(U) == 1 ? 0 : sizeof(U) == 2 ? 1 : sizeof(U) == 4 ? 2 : 3;
        return std::is_signed_v<U> ? signed_types[log2_size] : unsigned_types[log2_size];
    } else if constexpr (std::is_same_v<U, float>) {
        return DType::float32;
    } else if constexpr (std::is_same_v<U, double>) {
        return DType::float64;
    } else if constexpr (std::is_same_v<U, std::complex<float>>) {
        return DType::complex64;
    } else {
        static_assert(std::is_same_v<U, std::complex<double>>, "gpukit: no element type for this C++ type");
        return DType::complex128;
    }
}

// A DLPack data type (DLDataType): type code, bits per lane, lanes.
struct DLPackDType {
    std::uint8_t code = 0;
    std::uint8_t bits = 0;
    std::uint16_t lanes = 1;
    friend constexpr bool operator==(const DLPackDType&, const DLPackDType&) = default;
};

constexpr DLPackDType to_dlpack(DType dtype) {
    return {dtype_info(dtype).dlpack_code, static_cast<std::uint8_t>(itemsize(dtype) * 8), 1};
}
// The element type of a DLPack data type, or nullopt for one arrays cannot hold (vector lanes,
// sub-byte types, codes gpukit does not know).
std::optional<DType> dtype_from_dlpack(DLPackDType type);

}  // namespace gpukit
