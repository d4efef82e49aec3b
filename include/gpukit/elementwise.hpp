// gpukit/elementwise.hpp: elementwise operations on arrays, NumPy's ufuncs.
//
//   gpukit::Array c = gpukit::add(a, b);   // broadcast, the loop NumPy picks (gpukit/promotion.hpp)
//   gpukit::add(a, b, c);                   // into an existing array, cast to its dtype
//
// Each ufunc is a row of src/ops/ufuncs.def: its loops in NumPy's order; a call runs the first loop
// every input casts to safely. Each runs one generated kernel (src/ops/elementwise/) on the current
// stream of the arrays' device and returns without waiting. They throw DTypeError when no loop
// takes the dtypes or `casting` forbids the cast from the loop's output dtype to out's, and
// InvalidArgumentError when the shapes do not broadcast (naming both) or the arrays are on
// different devices. The `out` overloads need out's shape to be the broadcast shape.
//
// Integers wrap on overflow and an integer // or % by zero gives 0, as NumPy's (without its warning).
#pragma once

#include "gpukit/array.hpp"
#include "gpukit/promotion.hpp"

namespace gpukit {

#define GPUKIT_DECLARE_UNARY_UFUNC(name) \
    Array name(const Array& x);          \
    void name(const Array& x, const Array& out, Casting casting = Casting::same_kind);
#define GPUKIT_DECLARE_BINARY_UFUNC(name)       \
    Array name(const Array& a, const Array& b); \
    void name(const Array& a, const Array& b, const Array& out, Casting casting = Casting::same_kind);

GPUKIT_DECLARE_BINARY_UFUNC(add)           // a + b (bool: or)
GPUKIT_DECLARE_BINARY_UFUNC(subtract)      // a - b (no bool loop)
GPUKIT_DECLARE_BINARY_UFUNC(multiply)      // a * b (bool: and)
GPUKIT_DECLARE_BINARY_UFUNC(true_divide)   // a / b; integers give float64
GPUKIT_DECLARE_BINARY_UFUNC(floor_divide)  // a // b, toward minus infinity
GPUKIT_DECLARE_BINARY_UFUNC(remainder)     // a % b, with the sign of b
GPUKIT_DECLARE_UNARY_UFUNC(negative)       // -x
GPUKIT_DECLARE_UNARY_UFUNC(positive)       // +x
GPUKIT_DECLARE_UNARY_UFUNC(absolute)       // |x|; complex gives its real dtype
GPUKIT_DECLARE_BINARY_UFUNC(maximum)       // a nan on either side gives nan
GPUKIT_DECLARE_BINARY_UFUNC(minimum)
GPUKIT_DECLARE_BINARY_UFUNC(equal)  // comparisons give bool
GPUKIT_DECLARE_BINARY_UFUNC(not_equal)
GPUKIT_DECLARE_BINARY_UFUNC(less)
GPUKIT_DECLARE_BINARY_UFUNC(less_equal)
GPUKIT_DECLARE_BINARY_UFUNC(greater)
GPUKIT_DECLARE_BINARY_UFUNC(greater_equal)

#undef GPUKIT_DECLARE_UNARY_UFUNC
#undef GPUKIT_DECLARE_BINARY_UFUNC

}  // namespace gpukit
