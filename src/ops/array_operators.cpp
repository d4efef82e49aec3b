// src/ops/array_operators.cpp: the operators of gpukit/array_operators.hpp, each a ufunc call, and
// how a C++ number becomes an operand beside an array.
#include "gpukit/array_operators.hpp"

#include <limits>

#include "ops/ufunc.hpp"
#include "ops/ufunc_staged.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace detail {
namespace {

// An integer number's value, as the largest signed or unsigned type holds it.
struct IntegerValue {
    bool is_unsigned;
    std::int64_t signed_value;
    std::uint64_t unsigned_value;
};
IntegerValue integer_value(const WeakScalarValue& number) {
    IntegerValue v{number.value_dtype == DType::uint64, 0, 0};
    if (v.is_unsigned)
        std::memcpy(&v.unsigned_value, number.value, sizeof v.unsigned_value);
    else
        std::memcpy(&v.signed_value, number.value, sizeof v.signed_value);
    return v;
}

bool fits(const IntegerValue& v, DType dtype) {
    const unsigned bits = 8 * static_cast<unsigned>(itemsize(dtype));
    if (kind(dtype) == DTypeKind::unsigned_integer) {
        const std::uint64_t max =
            bits == 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1;
        return v.is_unsigned ? v.unsigned_value <= max
                             : v.signed_value >= 0 && static_cast<std::uint64_t>(v.signed_value) <= max;
    }
    const std::int64_t max =
        bits == 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << (bits - 1)) - 1;
    const std::int64_t min = -max - 1;
    return v.is_unsigned ? v.unsigned_value <= static_cast<std::uint64_t>(max)
                         : v.signed_value >= min && v.signed_value <= max;
}

std::string text_of(const IntegerValue& v) {
    return v.is_unsigned ? std::to_string(v.unsigned_value) : std::to_string(v.signed_value);
}

}  // namespace

// STAND-IN until the engine takes immediate scalar operands: the number goes to the device as a
// 0-d array (one small host-to-device copy per operator call). Switch here to the engine's scalar.
Array scalar_operand(const Array& array, const WeakScalarValue& number, ScalarUse use) {
    const DType arrays[] = {array.dtype()};
    DType dtype = weak_scalar_dtype(arrays, number.kind);
    if (number.kind == PythonScalar::integer &&
        (kind(dtype) == DTypeKind::signed_integer || kind(dtype) == DTypeKind::unsigned_integer)) {
        const IntegerValue value = integer_value(number);
        if (!fits(value, dtype)) {
            // NEP 50: arithmetic refuses the number (NumPy's OverflowError); a comparison compares
            // it exactly, through the int64 or uint64 loops.
            if (use == ScalarUse::arithmetic)
                throw InvalidArgumentError(
                    concat("Python integer ", text_of(value), " out of bounds for ", to_string(dtype)));
            dtype = number.value_dtype;
        }
    }
    return scalar_array(number.value, number.value_dtype, dtype, array.device());
}

void refuse_bool_negative(const Array& x) {
    if (x.dtype() == DType::bool_)
        throw InvalidArgumentError(
            "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not "
            "function instead.");
}

void refuse_bool_subtract(const Array& a, const Array& b) {
    if (a.dtype() == DType::bool_ && b.dtype() == DType::bool_)
        throw InvalidArgumentError(
            "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the "
            "logical_xor function instead.");
}

}  // namespace detail

Array operator-(const Array& x) {
    detail::refuse_bool_negative(x);
    return negative(x);
}
Array operator+(const Array& x) { return positive(x); }
Array operator~(const Array& x) { return bitwise_not(x); }

Array operator-(const Array& a, const Array& b) {
    detail::refuse_bool_subtract(a, b);
    return subtract(a, b);
}
Array& operator-=(Array& a, const Array& b) {
    detail::refuse_bool_subtract(a, b);
    subtract(a, b, a);
    return a;
}

#define GPUKIT_DEFINE_ARRAY_OPERATOR(op, ufunc) \
    Array operator op(const Array& a, const Array& b) { return ufunc(a, b); }
#define GPUKIT_DEFINE_IN_PLACE_OPERATOR(op, ufunc)    \
    Array& operator op##=(Array& a, const Array& b) { \
        ufunc(a, b, a);                               \
        return a;                                     \
    }
GPUKIT_DEFINE_ARRAY_OPERATOR(+, add)
GPUKIT_DEFINE_ARRAY_OPERATOR(*, multiply)
GPUKIT_DEFINE_ARRAY_OPERATOR(/, true_divide)
GPUKIT_DEFINE_ARRAY_OPERATOR(%, remainder)
GPUKIT_DEFINE_ARRAY_OPERATOR(&, bitwise_and)
GPUKIT_DEFINE_ARRAY_OPERATOR(|, bitwise_or)
GPUKIT_DEFINE_ARRAY_OPERATOR(^, bitwise_xor)
GPUKIT_DEFINE_ARRAY_OPERATOR(<<, left_shift)
GPUKIT_DEFINE_ARRAY_OPERATOR(>>, right_shift)
GPUKIT_DEFINE_ARRAY_OPERATOR(==, equal)
GPUKIT_DEFINE_ARRAY_OPERATOR(!=, not_equal)
GPUKIT_DEFINE_ARRAY_OPERATOR(<, less)
GPUKIT_DEFINE_ARRAY_OPERATOR(<=, less_equal)
GPUKIT_DEFINE_ARRAY_OPERATOR(>, greater)
GPUKIT_DEFINE_ARRAY_OPERATOR(>=, greater_equal)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(+, add)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(*, multiply)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(/, true_divide)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(%, remainder)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(&, bitwise_and)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(|, bitwise_or)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(^, bitwise_xor)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(<<, left_shift)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(>>, right_shift)
#undef GPUKIT_DEFINE_ARRAY_OPERATOR
#undef GPUKIT_DEFINE_IN_PLACE_OPERATOR

}  // namespace gpukit
