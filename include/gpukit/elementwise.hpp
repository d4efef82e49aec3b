// gpukit/elementwise.hpp: elementwise operations on arrays, NumPy's ufuncs.
//
//   gpukit::Array c = gpukit::add(a, b);   // broadcast, promoted as NumPy 2 promotes (gpukit/promotion.hpp)
//   gpukit::add(a, b, c);                   // into an existing array
//
// Each runs one generated kernel (src/ops/elementwise/) on the current stream of the arrays'
// device and returns without waiting.
#pragma once

#include "gpukit/array.hpp"
#include "gpukit/promotion.hpp"

namespace gpukit {

// a + b, in the dtype NumPy's result_type gives. Throws InvalidArgumentError when the shapes do
// not broadcast (naming both) or the arrays are on different devices.
Array add(const Array& a, const Array& b);
// a + b into `out`, whose shape must be the broadcast shape; computed in promote(a, b) and cast to
// out's dtype, which `casting` must allow (InvalidArgumentError otherwise).
void add(const Array& a, const Array& b, const Array& out, Casting casting = Casting::same_kind);

}  // namespace gpukit
