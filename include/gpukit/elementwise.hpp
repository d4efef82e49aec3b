// gpukit/elementwise.hpp: elementwise operations on arrays, NumPy's ufuncs and the functions made of
// them (where, clip, around, nan_to_num, angle, real, imag).
//
//   gpukit::Array c = gpukit::add(a, b);   // broadcast, the loop NumPy picks (gpukit/promotion.hpp)
//   gpukit::add(a, b, c);                   // into an existing array, cast to its dtype
//   auto [q, r] = gpukit::divmod(a, b);     // two outputs
//
// Each ufunc is a row of src/ops/ufuncs.def: its loops in NumPy's order; a call runs the first loop
// every input casts to safely. Each runs one generated kernel (src/ops/elementwise/) on the current
// stream of the arrays' device and returns without waiting. They throw DTypeError when no loop
// takes the dtypes or `casting` forbids the cast from the loop's output dtype to out's, and
// InvalidArgumentError when the shapes do not broadcast (naming both) or the arrays are on
// different devices. The `out` overloads need out's shape to be the broadcast shape.
//
// As NumPy's: integers wrap on overflow; an integer // or % (fmod, divmod) by zero gives 0, and the
// floating ones inf or nan, without NumPy's warnings; float16 and bfloat16 compute in float and
// round once. Where NumPy raises from inside a loop, a kernel cannot: an integer to a negative
// power gives what CuPy gives (1 ** n = 1, (-1) ** n = +-1, else 0) instead of ValueError, and
// reciprocal of integer 0 gives 0 (NumPy leaves it to the platform).
// Accuracy against NumPy: tests/device/ufuncs_test.cpp states each function's bound in ulps.
#pragma once

#include <optional>
#include <utility>

#include "gpukit/array.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/scalar.hpp"

namespace gpukit {

#define GPUKIT_DECLARE_UNARY_UFUNC(name) \
    Array name(const Array& x);          \
    void name(const Array& x, const Array& out, Casting casting = Casting::same_kind);
#define GPUKIT_DECLARE_BINARY_UFUNC(name)       \
    Array name(const Array& a, const Array& b); \
    void name(const Array& a, const Array& b, const Array& out, Casting casting = Casting::same_kind);

// ---- arithmetic
GPUKIT_DECLARE_BINARY_UFUNC(add)           // a + b (bool: or)
GPUKIT_DECLARE_BINARY_UFUNC(subtract)      // a - b (no bool loop)
GPUKIT_DECLARE_BINARY_UFUNC(multiply)      // a * b (bool: and)
GPUKIT_DECLARE_BINARY_UFUNC(true_divide)   // a / b; integers give float64
GPUKIT_DECLARE_BINARY_UFUNC(floor_divide)  // a // b, toward minus infinity
GPUKIT_DECLARE_BINARY_UFUNC(remainder)     // a % b, with the sign of b
GPUKIT_DECLARE_BINARY_UFUNC(fmod)          // C's %: the sign of a
GPUKIT_DECLARE_BINARY_UFUNC(power)         // a ** b; integers by squaring, wrapping
GPUKIT_DECLARE_BINARY_UFUNC(float_power)   // a ** b in float64 or complex128
GPUKIT_DECLARE_UNARY_UFUNC(negative)       // -x
GPUKIT_DECLARE_UNARY_UFUNC(positive)       // +x
GPUKIT_DECLARE_UNARY_UFUNC(absolute)       // |x|; complex gives its real dtype
GPUKIT_DECLARE_UNARY_UFUNC(fabs)           // |x| of floats only
GPUKIT_DECLARE_UNARY_UFUNC(sign)           // -1, 0, 1 (nan: nan); complex: x / |x|
GPUKIT_DECLARE_UNARY_UFUNC(reciprocal)     // 1 / x in x's dtype (integers: 0 unless x is 1 or -1)
GPUKIT_DECLARE_UNARY_UFUNC(square)         // x * x
GPUKIT_DECLARE_UNARY_UFUNC(conjugate)      // complex conjugate; real numbers unchanged
GPUKIT_DECLARE_BINARY_UFUNC(gcd)           // of integers, >= 0 (but gcd(min, 0) wraps, as NumPy's)
GPUKIT_DECLARE_BINARY_UFUNC(lcm)

// ---- exponents, logarithms, roots (integers compute in the float NumPy picks: int8 in float16)
GPUKIT_DECLARE_UNARY_UFUNC(exp)
GPUKIT_DECLARE_UNARY_UFUNC(exp2)
GPUKIT_DECLARE_UNARY_UFUNC(expm1)  // exp(x) - 1, accurate near 0
GPUKIT_DECLARE_UNARY_UFUNC(log)
GPUKIT_DECLARE_UNARY_UFUNC(log2)
GPUKIT_DECLARE_UNARY_UFUNC(log10)
GPUKIT_DECLARE_UNARY_UFUNC(log1p)  // log(1 + x), accurate near 0
GPUKIT_DECLARE_UNARY_UFUNC(sqrt)
GPUKIT_DECLARE_UNARY_UFUNC(cbrt)

// ---- trigonometry (complex ones with C99's branch cuts, as NumPy's)
GPUKIT_DECLARE_UNARY_UFUNC(sin)
GPUKIT_DECLARE_UNARY_UFUNC(cos)
GPUKIT_DECLARE_UNARY_UFUNC(tan)
GPUKIT_DECLARE_UNARY_UFUNC(arcsin)
GPUKIT_DECLARE_UNARY_UFUNC(arccos)
GPUKIT_DECLARE_UNARY_UFUNC(arctan)
GPUKIT_DECLARE_BINARY_UFUNC(arctan2)  // the angle of (b, a), quadrant by the signs
GPUKIT_DECLARE_BINARY_UFUNC(hypot)
GPUKIT_DECLARE_UNARY_UFUNC(sinh)
GPUKIT_DECLARE_UNARY_UFUNC(cosh)
GPUKIT_DECLARE_UNARY_UFUNC(tanh)
GPUKIT_DECLARE_UNARY_UFUNC(arcsinh)
GPUKIT_DECLARE_UNARY_UFUNC(arccosh)
GPUKIT_DECLARE_UNARY_UFUNC(arctanh)
GPUKIT_DECLARE_UNARY_UFUNC(deg2rad)
GPUKIT_DECLARE_UNARY_UFUNC(rad2deg)

// ---- rounding (integers and bool unchanged; rint: to nearest, ties to even)
GPUKIT_DECLARE_UNARY_UFUNC(floor)
GPUKIT_DECLARE_UNARY_UFUNC(ceil)
GPUKIT_DECLARE_UNARY_UFUNC(trunc)
GPUKIT_DECLARE_UNARY_UFUNC(rint)

// ---- comparisons and extremes (comparisons give bool; complex numbers order lexicographically)
GPUKIT_DECLARE_BINARY_UFUNC(equal)
GPUKIT_DECLARE_BINARY_UFUNC(not_equal)
GPUKIT_DECLARE_BINARY_UFUNC(less)  // int64 against uint64 exactly, as NumPy 2
GPUKIT_DECLARE_BINARY_UFUNC(less_equal)
GPUKIT_DECLARE_BINARY_UFUNC(greater)
GPUKIT_DECLARE_BINARY_UFUNC(greater_equal)
GPUKIT_DECLARE_BINARY_UFUNC(maximum)  // a nan on either side gives nan
GPUKIT_DECLARE_BINARY_UFUNC(minimum)
GPUKIT_DECLARE_BINARY_UFUNC(fmax)  // a nan on one side gives the other side
GPUKIT_DECLARE_BINARY_UFUNC(fmin)

// ---- logic and bits (logical functions take any dtype by truth, give bool)
GPUKIT_DECLARE_BINARY_UFUNC(logical_and)
GPUKIT_DECLARE_BINARY_UFUNC(logical_or)
GPUKIT_DECLARE_BINARY_UFUNC(logical_xor)
GPUKIT_DECLARE_UNARY_UFUNC(logical_not)
GPUKIT_DECLARE_BINARY_UFUNC(bitwise_and)  // integers and bool
GPUKIT_DECLARE_BINARY_UFUNC(bitwise_or)
GPUKIT_DECLARE_BINARY_UFUNC(bitwise_xor)
GPUKIT_DECLARE_UNARY_UFUNC(bitwise_not)
GPUKIT_DECLARE_BINARY_UFUNC(left_shift)    // a count >= the width gives 0
GPUKIT_DECLARE_BINARY_UFUNC(right_shift)   // arithmetic; a count >= the width gives 0 or -1
GPUKIT_DECLARE_UNARY_UFUNC(bitwise_count)  // the one bits of |x|, uint8 (NumPy 2)

// ---- floating-point classes and parts
GPUKIT_DECLARE_UNARY_UFUNC(isnan)  // integers and bool: false
GPUKIT_DECLARE_UNARY_UFUNC(isinf)
GPUKIT_DECLARE_UNARY_UFUNC(isfinite)
GPUKIT_DECLARE_UNARY_UFUNC(signbit)  // true for -0.0
GPUKIT_DECLARE_BINARY_UFUNC(copysign)
GPUKIT_DECLARE_BINARY_UFUNC(nextafter)  // float16 and bfloat16 step in their own precision
GPUKIT_DECLARE_UNARY_UFUNC(spacing)     // the distance to x's neighbour (NumPy's: away from zero; float16's up)
GPUKIT_DECLARE_BINARY_UFUNC(ldexp)      // a * 2 ** b, b of an integer dtype
GPUKIT_DECLARE_BINARY_UFUNC(heaviside)  // 0 for a < 0, b for a == 0, 1 for a > 0

// ---- sums of exponentials, without overflow (log-probabilities)
GPUKIT_DECLARE_BINARY_UFUNC(logaddexp)   // log(exp(a) + exp(b))
GPUKIT_DECLARE_BINARY_UFUNC(logaddexp2)  // log2(2 ** a + 2 ** b)

#undef GPUKIT_DECLARE_UNARY_UFUNC
#undef GPUKIT_DECLARE_BINARY_UFUNC

// ---- ufuncs of two outputs
// (a // b, a % b)
std::pair<Array, Array> divmod(const Array& a, const Array& b);
void divmod(const Array& a, const Array& b, const Array& quotient, const Array& remainder,
            Casting casting = Casting::same_kind);
// (mantissa in [0.5, 1), int32 exponent): x = mantissa * 2 ** exponent; inf and nan give exponent 0
std::pair<Array, Array> frexp(const Array& x);
void frexp(const Array& x, const Array& mantissa, const Array& exponent, Casting casting = Casting::same_kind);
// (fractional part, integral part), both with x's sign
std::pair<Array, Array> modf(const Array& x);
void modf(const Array& x, const Array& fractional, const Array& integral, Casting casting = Casting::same_kind);

// minimum(maximum(a, low), high), nan propagating; a ufunc of three inputs, as numpy.clip.
Array clip(const Array& a, const Array& low, const Array& high);
void clip(const Array& a, const Array& low, const Array& high, const Array& out, Casting casting = Casting::same_kind);

// ---- functions that are not ufuncs
// x where `condition` is true (nonzero), else y, as numpy.where(condition, x, y): in x's and y's
// dtypes promoted; the condition of any dtype, by truth.
Array where(const Array& condition, const Array& x, const Array& y);
// With numbers for x or y (weak or typed, gpukit/scalar.hpp; where(c, x, 0.0) keeps x's float32, as
// NumPy's), carried in the kernel's parameters.
Array where(const Array& condition, const Array& x, const Scalar& y);
Array where(const Array& condition, const Scalar& x, const Array& y);
Array where(const Array& condition, const Scalar& x, const Scalar& y);
// nan, +inf and -inf replaced by finite numbers (complex: in each part); by default 0, the largest
// and the most negative finite numbers of x's dtype. Integers and bool are copied.
Array nan_to_num(const Array& x, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                 std::optional<double> neginf = std::nullopt);
// Rounded to `decimals` decimal places as NumPy rounds: rint(x * 10 ** decimals) / 10 ** decimals,
// each step in x's dtype (10 ** -decimals and the other order for negative decimals); integers
// are copied for decimals >= 0 and go through float64 for negative ones, as NumPy 2.4.
Array around(const Array& x, int decimals = 0);
Array round(const Array& x, int decimals = 0);
// The angle of complex numbers (arctan2(imag, real)), in radians or degrees; real numbers' is 0 or pi.
Array angle(const Array& z, bool degrees = false);
// The real and imaginary parts. real: a view of a complex array's real parts, or x itself;
// imag: a view of the imaginary parts, or a new array of zeros of x's dtype.
Array real(const Array& x);
Array imag(const Array& x);
// Whether each element has a nonzero imaginary part (iscomplex: false for real dtypes) or none
// (isreal: true for real dtypes), as numpy.iscomplex and numpy.isreal: bool arrays of x's shape.
Array iscomplex(const Array& x);
Array isreal(const Array& x);

// ---- NumPy's other names for the same ufuncs
inline Array divide(const Array& a, const Array& b) { return true_divide(a, b); }
inline void divide(const Array& a, const Array& b, const Array& out, Casting casting = Casting::same_kind) {
    true_divide(a, b, out, casting);
}
inline Array mod(const Array& a, const Array& b) { return remainder(a, b); }
inline void mod(const Array& a, const Array& b, const Array& out, Casting casting = Casting::same_kind) {
    remainder(a, b, out, casting);
}
inline Array abs(const Array& x) { return absolute(x); }
inline void abs(const Array& x, const Array& out, Casting casting = Casting::same_kind) { absolute(x, out, casting); }
inline Array conj(const Array& x) { return conjugate(x); }
inline void conj(const Array& x, const Array& out, Casting casting = Casting::same_kind) { conjugate(x, out, casting); }
inline Array invert(const Array& x) { return bitwise_not(x); }
inline void invert(const Array& x, const Array& out, Casting casting = Casting::same_kind) {
    bitwise_not(x, out, casting);
}
inline Array degrees(const Array& x) { return rad2deg(x); }
inline void degrees(const Array& x, const Array& out, Casting casting = Casting::same_kind) {
    rad2deg(x, out, casting);
}
inline Array radians(const Array& x) { return deg2rad(x); }
inline void radians(const Array& x, const Array& out, Casting casting = Casting::same_kind) {
    deg2rad(x, out, casting);
}

}  // namespace gpukit
