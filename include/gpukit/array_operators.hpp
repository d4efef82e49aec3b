// gpukit/array_operators.hpp: C++ operators on arrays, as NumPy's operators on ndarrays.
//
//   gpukit::Array c = a + b;        // add(a, b): broadcast, NumPy's loop
//   gpukit::Array d = a * 2.0f;     // a C++ number is weak, as a Python number: float16 stays float16
//   gpukit::Array m = a > 0;        // bool
//   a += b;                         // add(a, b, out=a) with casting same_kind: int32 += 2.5 throws
//
// Each operator is the ufunc of gpukit/elementwise.hpp that NumPy's operator calls: + - * / // %
// are add, subtract, multiply, true_divide, (floor_divide has no C++ operator), remainder; unary
// - + ~ are negative, positive, bitwise_not; & | ^ << >> the bitwise ufuncs; == != < <= > >= the
// comparisons. They throw what the ufuncs throw, and, as NumPy, InvalidArgumentError for -a and
// a - b on bool arrays (NumPy's TypeError: its words).
//
// Numbers: every C++ arithmetic type (bool, integers, float, double) and std::complex is a weak
// scalar (NEP 50), as a Python bool, int, float or complex is: only its kind counts, and the
// array's dtype decides (int8 array + 1 is int8, float16 array * 2.0 is float16, int32 array *
// 2.0 is float64). That includes float: `2.0f` is how C++ spells a float constant, not a request
// for float32 arithmetic, so float16 * 2.0f stays float16 (PyTorch's C++ scalars are weak too). For
// a typed (strong) scalar, use a 0-d array of its dtype. An integer out of the range of the
// array's integer dtype throws InvalidArgumentError with NumPy's words ("Python integer 1000 out
// of bounds for int8", NumPy's OverflowError), except in comparisons, which compare it exactly.
#pragma once

#include <complex>
#include <cstring>
#include <type_traits>

#include "gpukit/array.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/promotion.hpp"

namespace gpukit {

template <class T>
concept WeakScalar =
    std::is_arithmetic_v<T> || std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

namespace detail {

// A C++ number as NumPy takes a Python number: its kind, and its value exactly.
struct WeakScalarValue {
    PythonScalar kind = PythonScalar::integer;
    DType value_dtype = DType::int64;  // bool, int64, uint64, float64 or complex128
    alignas(16) std::byte value[16]{};
};

template <WeakScalar T>
WeakScalarValue weak_scalar_value(T number) {
    WeakScalarValue weak;
    const auto store = [&weak](auto value, PythonScalar kind, DType dtype) {
        static_assert(sizeof(value) <= sizeof(weak.value));
        weak.kind = kind;
        weak.value_dtype = dtype;
        std::memcpy(weak.value, &value, sizeof(value));
    };
    if constexpr (std::is_same_v<T, bool>)
        store(number, PythonScalar::boolean, DType::bool_);
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
        store(static_cast<std::int64_t>(number), PythonScalar::integer, DType::int64);
    else if constexpr (std::is_integral_v<T>)
        store(static_cast<std::uint64_t>(number), PythonScalar::integer, DType::uint64);
    else if constexpr (std::is_floating_point_v<T>)
        store(static_cast<double>(number), PythonScalar::floating, DType::float64);
    else
        store(std::complex<double>(number), PythonScalar::complex, DType::complex128);
    return weak;
}

// How an operator takes a number: as an operand of arithmetic (an integer out of the array's
// integer range throws) or of a comparison (such an integer compares exactly).
enum class ScalarUse : std::uint8_t { arithmetic, comparison };

// The number as an operand beside `array`: of the dtype NEP 50 gives it there.
Array scalar_operand(const Array& array, const WeakScalarValue& number, ScalarUse use);

// NumPy refuses arithmetic negation and subtraction of booleans (TypeError, in these words).
void refuse_bool_negative(const Array& x);
void refuse_bool_subtract(const Array& a, const Array& b);

}  // namespace detail

Array operator-(const Array& x);  // negative (not of bool arrays)
Array operator+(const Array& x);  // positive
Array operator~(const Array& x);  // bitwise_not (bool: logical not)

// Binary operators: array with array, array with number, number with array, and in place
// (op(a, b, out=a) with casting same_kind; the result's shape must be a's).
#define GPUKIT_DECLARE_ARRAY_OPERATOR(op, use)                                                       \
    Array operator op(const Array& a, const Array& b);                                               \
    template <WeakScalar T>                                                                          \
    Array operator op(const Array& a, T b) {                                                         \
        return a op detail::scalar_operand(a, detail::weak_scalar_value(b), detail::ScalarUse::use); \
    }                                                                                                \
    template <WeakScalar T>                                                                          \
    Array operator op(T a, const Array& b) {                                                         \
        return detail::scalar_operand(b, detail::weak_scalar_value(a), detail::ScalarUse::use) op b; \
    }
#define GPUKIT_DECLARE_IN_PLACE_OPERATOR(op)                                                                    \
    Array& operator op##=(Array& a, const Array& b);                                                            \
    template <WeakScalar T>                                                                                     \
    Array& operator op##=(Array& a, T b) {                                                                      \
        return a op## = detail::scalar_operand(a, detail::weak_scalar_value(b), detail::ScalarUse::arithmetic); \
    }

GPUKIT_DECLARE_ARRAY_OPERATOR(+, arithmetic)   // add
GPUKIT_DECLARE_ARRAY_OPERATOR(-, arithmetic)   // subtract
GPUKIT_DECLARE_ARRAY_OPERATOR(*, arithmetic)   // multiply
GPUKIT_DECLARE_ARRAY_OPERATOR(/, arithmetic)   // true_divide
GPUKIT_DECLARE_ARRAY_OPERATOR(%, arithmetic)   // remainder
GPUKIT_DECLARE_ARRAY_OPERATOR(&, arithmetic)   // bitwise_and
GPUKIT_DECLARE_ARRAY_OPERATOR(|, arithmetic)   // bitwise_or
GPUKIT_DECLARE_ARRAY_OPERATOR(^, arithmetic)   // bitwise_xor
GPUKIT_DECLARE_ARRAY_OPERATOR(<<, arithmetic)  // left_shift
GPUKIT_DECLARE_ARRAY_OPERATOR(>>, arithmetic)  // right_shift
GPUKIT_DECLARE_ARRAY_OPERATOR(==, comparison)  // equal
GPUKIT_DECLARE_ARRAY_OPERATOR(!=, comparison)  // not_equal
GPUKIT_DECLARE_ARRAY_OPERATOR(<, comparison)   // less
GPUKIT_DECLARE_ARRAY_OPERATOR(<=, comparison)  // less_equal
GPUKIT_DECLARE_ARRAY_OPERATOR(>, comparison)   // greater
GPUKIT_DECLARE_ARRAY_OPERATOR(>=, comparison)  // greater_equal
GPUKIT_DECLARE_IN_PLACE_OPERATOR(+)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(-)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(*)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(/)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(%)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(&)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(|)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(^)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(<<)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(>>)

#undef GPUKIT_DECLARE_ARRAY_OPERATOR
#undef GPUKIT_DECLARE_IN_PLACE_OPERATOR

}  // namespace gpukit
