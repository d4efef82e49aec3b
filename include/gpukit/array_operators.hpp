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
// comparisons. They throw what the ufuncs throw (DTypeError, NumPy's TypeError, for -a and a - b
// on bool arrays, in NumPy's words).
//
// Numbers: every C++ arithmetic type (bool, integers, float, double) and std::complex is a weak
// scalar (NEP 50), as a Python bool, int, float or complex is: only its kind counts, and the
// array's dtype decides (int8 array + 1 is int8, float16 array * 2.0 is float16, int32 array *
// 2.0 is float64). That includes float: `2.0f` is how C++ spells a float constant, not a request
// for float32 arithmetic, so float16 * 2.0f stays float16 (PyTorch's C++ scalars are weak too). For
// a typed (strong) scalar, use a 0-d array of its dtype. A number travels in the kernel's
// parameters (nothing is allocated for it). An integer out of the range of the array's integer
// dtype throws ScalarOverflowError with NumPy's words ("Python integer 1000 out of bounds for
// int8", NumPy's OverflowError), except in comparisons, which compare it exactly.
#pragma once

#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "gpukit/array.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/scalar.hpp"

namespace gpukit {

template <class T>
concept WeakScalar =
    std::is_arithmetic_v<T> || std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

namespace detail {

// A C++ number as NumPy takes a Python number: weak, of its kind, its value exact.
template <WeakScalar T>
Scalar weak_scalar(T number) noexcept {
    if constexpr (std::is_same_v<T, bool>)
        return Scalar(number);
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
        return Scalar(static_cast<std::int64_t>(number));
    else if constexpr (std::is_integral_v<T>)
        return number <= static_cast<T>(std::numeric_limits<std::int64_t>::max())
                   ? Scalar(static_cast<std::int64_t>(number))
                   : Scalar::weak_unsigned(static_cast<std::uint64_t>(number));
    else if constexpr (std::is_floating_point_v<T>)
        return Scalar(static_cast<double>(number));
    else
        return Scalar(std::complex<double>(number));
}

// The ufunc behind each binary operator.
enum class BinaryOperator : std::uint8_t {
    add,
    subtract,
    multiply,
    true_divide,
    remainder,
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    left_shift,
    right_shift,
    equal,
    not_equal,
    less,
    less_equal,
    greater,
    greater_equal
};

// An operator with a number on one side (the number in the kernel's parameters), and in place.
Array apply(BinaryOperator op, const Array& a, const Scalar& b);
Array apply(BinaryOperator op, const Scalar& a, const Array& b);
void apply_in_place(BinaryOperator op, Array& a, const Scalar& b);

}  // namespace detail

Array operator-(const Array& x);  // negative (not of bool arrays)
Array operator+(const Array& x);  // positive
Array operator~(const Array& x);  // bitwise_not (bool: logical not)

// Binary operators: array with array, array with number, number with array, and in place
// (op(a, b, out=a) with casting same_kind; the result's shape must be a's).
#define GPUKIT_DECLARE_ARRAY_OPERATOR(op, ufunc)                                        \
    Array operator op(const Array& a, const Array& b);                                  \
    template <WeakScalar T>                                                             \
    Array operator op(const Array& a, T b) {                                            \
        return detail::apply(detail::BinaryOperator::ufunc, a, detail::weak_scalar(b)); \
    }                                                                                   \
    template <WeakScalar T>                                                             \
    Array operator op(T a, const Array& b) {                                            \
        return detail::apply(detail::BinaryOperator::ufunc, detail::weak_scalar(a), b); \
    }
#define GPUKIT_DECLARE_IN_PLACE_OPERATOR(op, ufunc)                                       \
    Array& operator op##=(Array& a, const Array& b);                                      \
    template <WeakScalar T>                                                               \
    Array& operator op##=(Array& a, T b) {                                                \
        detail::apply_in_place(detail::BinaryOperator::ufunc, a, detail::weak_scalar(b)); \
        return a;                                                                         \
    }

GPUKIT_DECLARE_ARRAY_OPERATOR(+, add)
GPUKIT_DECLARE_ARRAY_OPERATOR(-, subtract)
GPUKIT_DECLARE_ARRAY_OPERATOR(*, multiply)
GPUKIT_DECLARE_ARRAY_OPERATOR(/, true_divide)
GPUKIT_DECLARE_ARRAY_OPERATOR(%, remainder)
GPUKIT_DECLARE_ARRAY_OPERATOR(&, bitwise_and)
GPUKIT_DECLARE_ARRAY_OPERATOR(|, bitwise_or)
GPUKIT_DECLARE_ARRAY_OPERATOR(^, bitwise_xor)
GPUKIT_DECLARE_ARRAY_OPERATOR(<<, left_shift)
GPUKIT_DECLARE_ARRAY_OPERATOR(>>, right_shift)
GPUKIT_DECLARE_ARRAY_OPERATOR(==, equal)
GPUKIT_DECLARE_ARRAY_OPERATOR(!=, not_equal)
GPUKIT_DECLARE_ARRAY_OPERATOR(<, less)
GPUKIT_DECLARE_ARRAY_OPERATOR(<=, less_equal)
GPUKIT_DECLARE_ARRAY_OPERATOR(>, greater)
GPUKIT_DECLARE_ARRAY_OPERATOR(>=, greater_equal)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(+, add)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(-, subtract)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(*, multiply)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(/, true_divide)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(%, remainder)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(&, bitwise_and)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(|, bitwise_or)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(^, bitwise_xor)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(<<, left_shift)
GPUKIT_DECLARE_IN_PLACE_OPERATOR(>>, right_shift)

#undef GPUKIT_DECLARE_ARRAY_OPERATOR
#undef GPUKIT_DECLARE_IN_PLACE_OPERATOR

}  // namespace gpukit
