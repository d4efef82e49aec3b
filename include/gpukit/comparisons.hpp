// gpukit/comparisons.hpp: whether arrays are equal or close, as NumPy's isclose, allclose,
// array_equal and array_equiv.
//
//   gpukit::Array near = gpukit::isclose(a, b);           // bool, of the broadcast shape
//   bool same = gpukit::array_equal(a, b).to_vector<bool>()[0];
//
// The answers that are one value are 0-d bool arrays on the device, as CuPy's: asking needs no
// wait for the device until the value is read.
#pragma once

#include "gpukit/array.hpp"

namespace gpukit {

struct CloseOptions {
    double rtol = 1e-5;
    double atol = 1e-8;
    bool equal_nan = false;  // nan close to nan
};

// |a - b| <= atol + rtol * |b| elementwise (not symmetric, as NumPy's), computed in the dtype of
// a, b and a Python float (integers in float64); an infinity is close only to itself, nan to
// nothing (to nan with equal_nan). Throws InvalidArgumentError for shapes that do not broadcast.
Array isclose(const Array& a, const Array& b, const CloseOptions& options = {});
// Whether every element is close: a 0-d bool array.
Array allclose(const Array& a, const Array& b, const CloseOptions& options = {});

// Whether a and b have one shape and equal elements (nan equal to nan with equal_nan): a 0-d bool array.
Array array_equal(const Array& a, const Array& b, bool equal_nan = false);
// Whether a and b broadcast to one shape and are equal there: a 0-d bool array.
Array array_equiv(const Array& a, const Array& b);

}  // namespace gpukit
