// src/array/promotion.cpp: NumPy 2's type promotion and casting rules over gpukit's dtypes.
//
// NumPy keeps a 2-D table; the rules below produce the same table (tests/array/promotion_test.cpp
// compares all 196 pairs with NumPy's answers) and say why each entry is what it is.
#include "gpukit/promotion.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <string>

#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace {

DType signed_of_size(std::size_t bytes) {
    switch (bytes) {
        case 1: return DType::int8;
        case 2: return DType::int16;
        case 4: return DType::int32;
        default: return DType::int64;
    }
}

// The smallest float that holds every value of an integer type exactly enough for NumPy's "safe":
// one-byte integers fit float16 (and bfloat16), two-byte ones float32, wider ones float64.
std::size_t float_bytes_for_integer(DType integer) {
    const std::size_t bytes = itemsize(integer);
    return bytes == 1 ? 2 : bytes == 2 ? 4 : 8;
}

// Two floating dtypes: the wider; float16 and bfloat16 each hold values the other cannot, so float32.
DType promote_floats(DType a, DType b) {
    if (a == b) return a;
    if (itemsize(a) == 2 && itemsize(b) == 2) return DType::float32;
    return itemsize(a) >= itemsize(b) ? a : b;
}

DType float_of_size(std::size_t bytes) {
    return bytes <= 2 ? DType::float16 : bytes == 4 ? DType::float32 : DType::float64;
}

DType complex_component(DType complex) { return complex == DType::complex64 ? DType::float32 : DType::float64; }
DType complex_of(DType floating) { return itemsize(floating) == 8 ? DType::complex128 : DType::complex64; }

// An integer and a float: the float, widened until it holds the integer.
DType promote_float_integer(DType floating, DType integer) {
    const std::size_t needed = float_bytes_for_integer(integer);
    if (itemsize(floating) >= needed) return floating;
    return float_of_size(needed);
}

DType promote_integers(DType a, DType b) {
    const bool a_signed = kind(a) == DTypeKind::signed_integer;
    const bool b_signed = kind(b) == DTypeKind::signed_integer;
    if (a_signed == b_signed) return itemsize(a) >= itemsize(b) ? a : b;
    const DType s = a_signed ? a : b;
    const DType u = a_signed ? b : a;
    if (itemsize(s) > itemsize(u)) return s;
    // A signed type twice the unsigned one's size holds both; past int64 nothing does, and NumPy gives float64.
    if (itemsize(u) == 8) return DType::float64;
    return signed_of_size(itemsize(u) * 2);
}

// The dtype a weak Python scalar brings when it is of a higher kind than the arrays.
DType default_dtype(PythonScalar scalar) {
    switch (scalar) {
        case PythonScalar::boolean: return DType::bool_;
        case PythonScalar::integer: return DType::int64;
        case PythonScalar::floating: return DType::float64;
        case PythonScalar::complex: return DType::complex128;
    }
    return DType::float64;
}

int kind_rank(DTypeKind kind) {
    switch (kind) {
        case DTypeKind::boolean: return 0;
        case DTypeKind::signed_integer:
        case DTypeKind::unsigned_integer: return 1;
        case DTypeKind::floating: return 2;
        case DTypeKind::complex: return 3;
    }
    return 0;
}

DType promote_weak(DType strong, PythonScalar scalar) {
    if (kind_rank(kind(strong)) >= static_cast<int>(scalar)) return strong;
    // A complex scalar keeps a float array's precision (float32 + 1j is complex64).
    if (scalar == PythonScalar::complex && kind(strong) == DTypeKind::floating) return complex_of(strong);
    return default_dtype(scalar);
}

}  // namespace

namespace {

// NumPy's promotion of two dtypes, worked out by kind (promote_types looks it up in a table of
// these: ufunc loop selection asks it a dozen times per call).
DType compute_promotion(DType a, DType b) {
    if (a == b) return a;
    if (a == DType::bool_) return b;
    if (b == DType::bool_) return a;
    const DTypeKind ka = kind(a);
    const DTypeKind kb = kind(b);
    if (ka == DTypeKind::complex || kb == DTypeKind::complex) {
        // The complex type of the components' promotion.
        const DType ca = ka == DTypeKind::complex ? complex_component(a) : a;
        const DType cb = kb == DTypeKind::complex ? complex_component(b) : b;
        return complex_of(compute_promotion(ca, cb));
    }
    if (ka == DTypeKind::floating && kb == DTypeKind::floating) return promote_floats(a, b);
    if (ka == DTypeKind::floating) return promote_float_integer(a, b);
    if (kb == DTypeKind::floating) return promote_float_integer(b, a);
    return promote_integers(a, b);
}

constexpr std::size_t dtype_count = std::size(dtype_table);

}  // namespace

DType promote_types(DType a, DType b) {
    static const auto table = [] {
        std::array<std::array<DType, dtype_count>, dtype_count> promoted{};
        for (std::size_t i = 0; i < dtype_count; ++i)
            for (std::size_t j = 0; j < dtype_count; ++j)
                promoted[i][j] = compute_promotion(dtype_table[i].dtype, dtype_table[j].dtype);
        return promoted;
    }();
    return table[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
}

DType result_type(std::span<const DType> arrays, std::span<const PythonScalar> scalars) {
    if (arrays.empty() && scalars.empty())
        throw InvalidArgumentError("result_type needs at least one array dtype or Python scalar");
    if (arrays.empty()) {
        // Only scalars: they are all weak, so the highest kind's default wins.
        return default_dtype(*std::max_element(scalars.begin(), scalars.end()));
    }
    DType result = arrays.front();
    for (DType dtype : arrays.subspan(1)) result = promote_types(result, dtype);
    for (PythonScalar scalar : scalars) result = promote_weak(result, scalar);
    return result;
}

DType result_type(std::initializer_list<DType> arrays, std::initializer_list<PythonScalar> scalars) {
    return result_type(std::span<const DType>(arrays.begin(), arrays.size()),
                       std::span<const PythonScalar>(scalars.begin(), scalars.size()));
}

std::string_view to_string(Casting casting) {
    switch (casting) {
        case Casting::no: return "no";
        case Casting::equiv: return "equiv";
        case Casting::safe: return "safe";
        case Casting::same_kind: return "same_kind";
        case Casting::unsafe: return "unsafe";
    }
    return "?";
}

Casting parse_casting(std::string_view name) {
    for (Casting casting : {Casting::no, Casting::equiv, Casting::safe, Casting::same_kind, Casting::unsafe})
        if (to_string(casting) == name) return casting;
    throw InvalidArgumentError(
        detail::concat("casting must be one of 'no', 'equiv', 'safe', 'same_kind' or 'unsafe', not '", name, "'"));
}

bool can_cast(DType from, DType to, Casting casting) {
    switch (casting) {
        case Casting::no:
        case Casting::equiv: return from == to;
        case Casting::safe: return promote_types(from, to) == to;
        case Casting::same_kind: {
            if (promote_types(from, to) == to) return true;
            // Within a kind, or up: unsigned may go to signed (NumPy's order is b < u < i < f < c).
            const auto order = [](DType d) {
                const DTypeKind k = kind(d);
                return k == DTypeKind::boolean ? 0 : k == DTypeKind::unsigned_integer ? 1 : kind_rank(k) + 1;
            };
            return order(from) <= order(to);
        }
        case Casting::unsafe: return true;
    }
    return false;
}

}  // namespace gpukit
