// gpukit/numeric.hpp: NumPy's functions built from gpukit's array operations: select, interp,
// trapezoid, cov, corrcoef, unravel_index, ravel_multi_index, append, delete and the memory-overlap
// questions, each a few ufuncs, reductions, searches or gathers on the device (only the checks
// NumPy makes of values wait for it).
//
//   gpukit::Array y = gpukit::interp(x, xp, fp);
//   std::vector<gpukit::Array> rows_columns = gpukit::unravel_index(flat, std::vector<std::int64_t>{3, 4});
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "gpukit/advanced_indexing.hpp"
#include "gpukit/array.hpp"

namespace gpukit {

// numpy.select: the choice of the first true condition, elementwise (conditions and choices
// broadcast together); `default_value` where none holds. InvalidArgumentError for lists of
// different lengths or none at all; DTypeError for a condition that is not bool.
Array select(std::span<const Array> conditions, std::span<const Array> choices, const Array& default_value);
// The same with a Python number as the default: weak, the choices decide the dtype (NumPy 2's rule).
Array select(std::span<const Array> conditions, std::span<const Array> choices, const Scalar& default_value);

struct InterpOptions {
    std::optional<Array> left;     // the value below xp[0] (default fp[0])
    std::optional<Array> right;    // above xp[-1] (default fp[-1])
    std::optional<double> period;  // x and xp taken modulo it (left and right then unused)
};
// numpy.interp: the piecewise-linear interpolant of the points (xp, fp) at x, in float64 (complex128
// for complex fp). xp must increase (not checked, as NumPy's). InvalidArgumentError for xp and fp
// of different lengths or empty, or a period of 0.
Array interp(const Array& x, const Array& xp, const Array& fp, const InterpOptions& options = {});

// numpy.gradient's spacing along one axis: a distance, or the coordinates of the samples (1-D).
using GradientSpacing = std::variant<double, Array>;
// numpy.gradient: the derivative of f along each of `axes` (every axis when empty) by second-order
// central differences inside and one-sided ones of `edge_order` (1 or 2) at the ends; one spacing
// for every axis, or one per axis. Integers compute in float64. InvalidArgumentError for an axis
// shorter than edge_order + 1, spacings of the wrong count or coordinates of the wrong length.
std::vector<Array> gradient(const Array& f, std::span<const GradientSpacing> spacing = {},
                            std::span<const std::int64_t> axes = {}, int edge_order = 1);

// numpy.trapezoid: the integral of y along `axis` by the trapezoidal rule, at the sample points x
// (1-D along the axis, or y's shape) or spaced dx apart.
Array trapezoid(const Array& y, const std::optional<Array>& x = std::nullopt, double dx = 1.0, std::int64_t axis = -1);

struct CovOptions {
    bool rowvar = true;                // each row a variable (else each column)
    bool bias = false;                 // normalise by N (else N - 1)
    std::optional<std::int64_t> ddof;  // overrides bias: N - ddof
    std::optional<Array> fweights;     // integer repeat counts per observation
    std::optional<Array> aweights;     // importance weights per observation
    std::optional<DType> dtype;        // computed in it (default: float64 or the inputs' inexact type)
};
// numpy.cov: the covariance matrix of the variables of m (and y). A 0-d array for one variable.
Array cov(const Array& m, const std::optional<Array>& y = std::nullopt, const CovOptions& options = {});
// numpy.corrcoef: the Pearson correlation coefficients, clipped to [-1, 1].
Array corrcoef(const Array& x, const std::optional<Array>& y = std::nullopt, bool rowvar = true,
               std::optional<DType> dtype = std::nullopt);

// numpy.unravel_index: the coordinates in `shape` of flat indices (C or F order), one int64 array
// per dimension. InvalidArgumentError for an index outside [0, size) (which waits for the device).
std::vector<Array> unravel_index(const Array& indices, std::span<const std::int64_t> shape, Order order = Order::C);
// numpy.ravel_multi_index: the flat indices of coordinates (one array per dimension, broadcast),
// each dimension's out-of-range coordinates raising (InvalidArgumentError), wrapped or clipped.
Array ravel_multi_index(std::span<const Array> multi_index, std::span<const std::int64_t> dims,
                        std::span<const IndexMode> modes, Order order = Order::C);

// numpy.append: values after a along `axis` (both flattened without one).
Array append(const Array& a, const Array& values, std::optional<std::int64_t> axis = std::nullopt);
// numpy.delete: a without the positions `positions` (integers, negative from the end, or a bool
// mask of the axis's length) along `axis` (of the flattened array without one). IndexError for a
// position out of range.
Array delete_positions(const Array& a, const Array& positions, std::optional<std::int64_t> axis = std::nullopt);

// numpy.insert: `values` (cast to a's dtype as astype casts) put before the positions `positions`
// along `axis` (of the flattened array without one). A 0-d `positions` inserts the values as one
// block, their first axis moved to `axis`; a 1-D one (integers, negative from the end, or a bool
// array whose true places are taken) inserts one slice of values before each, repeated positions
// keeping their order. IndexError for a position outside [-n, n]; InvalidArgumentError for
// positions of more than one dimension or values that do not broadcast.
Array insert(const Array& a, const Array& positions, const Array& values,
             std::optional<std::int64_t> axis = std::nullopt);
// numpy.resize: a new array of `shape` filled with a's elements in C order, repeated from its
// start; zeros where a is empty. InvalidArgumentError for a negative extent.
Array resize(const Array& a, std::span<const std::int64_t> shape);

// numpy.may_share_memory: whether the byte ranges the two arrays span overlap.
bool may_share_memory(const Array& a, const Array& b);
// numpy.shares_memory: whether some element's bytes are in both (exact: the elements' byte ranges
// compared, which takes host time proportional to the elements of the two arrays).
bool shares_memory(const Array& a, const Array& b);

}  // namespace gpukit
