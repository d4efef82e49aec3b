// gpukit/numeric.hpp: NumPy's functions built from gpukit's array operations: select, interp,
// trapezoid, cov, corrcoef, unravel_index, ravel_multi_index, append, delete and the memory-overlap
// questions, each a few ufuncs, reductions, searches or gathers on the device (only the checks
// NumPy makes of values wait for it); fix, isposinf, isneginf, sinc, i0, real_if_close,
// sort_complex, unwrap and trim_zeros (src/ops/math_routines.cpp), packbits and unpackbits
// (src/ops/bit_packing.cpp) and the window functions (src/ops/windows.cpp).
//
//   gpukit::Array y = gpukit::interp(x, xp, fp);
//   std::vector<gpukit::Array> rows_columns = gpukit::unravel_index(flat, std::vector<std::int64_t>{3, 4});
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include "gpukit/advanced_indexing.hpp"
#include "gpukit/array.hpp"
#include "gpukit/scalar.hpp"

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

// ---- rounding, classes and special functions

// numpy.fix: x rounded toward zero (trunc's loops: bool and integers keep their dtype; DTypeError for
// complex). Into `out` with same_kind casting.
Array fix(const Array& x);
void fix(const Array& x, const Array& out);
// numpy.isposinf and numpy.isneginf: bool, true at +inf (-inf); integers and bool are never infinite.
// DTypeError ("This operation is not supported for complex128 values because it would be
// ambiguous.") for complex x.
Array isposinf(const Array& x);
void isposinf(const Array& x, const Array& out);
Array isneginf(const Array& x);
void isneginf(const Array& x, const Array& out);
// numpy.sinc: sin(pi x) / (pi x), 1 where pi x is 0; integers and bool
// in float64, inexact dtypes in their own.
Array sinc(const Array& x);
// numpy.i0: the modified Bessel function of the first kind of order 0, of float dtypes in their own
// dtype and of integers and bool in float64; DTypeError ("i0 not supported for complex values") for
// complex x.
Array i0(const Array& x);
// numpy.real_if_close: a complex array's real part when every imaginary part is below `tol` (in
// machine epsilons of its dtype where tol > 1), else a itself; any other dtype is returned as is.
// Deciding waits for the device.
Array real_if_close(const Array& a, double tol = 100);
// numpy.sort_complex: a copy sorted along its last axis (real parts, then imaginary), as complex:
// complex64 for complex64, int8, int16, uint8 and uint16, complex128 for the rest. AxisError for 0-d.
Array sort_complex(const Array& a);
// numpy.unwrap: p with each jump between neighbours along `axis` larger than `discont` (default
// period / 2) taken modulo `period`. A weak integer period with an integer p keeps it integer;
// otherwise p's dtype promoted with the period's kind. InvalidArgumentError for a 0-d p.
Array unwrap(const Array& p, std::optional<Scalar> discont = std::nullopt, std::int64_t axis = -1,
             const Scalar& period = Scalar(6.283185307179586));

enum class TrimSides : std::uint8_t { front_and_back, front, back };
// numpy.trim_zeros: the view of filt without its leading (front) and trailing (back) zeros along
// each of `axes` (all when empty); an array with no nonzero element keeps none along them. A 0-d
// filt is returned as is. Finding the nonzeros waits for the device.
Array trim_zeros(const Array& filt, TrimSides trim = TrimSides::front_and_back,
                 std::span<const std::int64_t> axes = {});
// numpy.trim_zeros's trim= text ("fb", "bf", "f" or "b", any case); InvalidArgumentError in
// NumPy's words for anything else.
TrimSides parse_trim_sides(std::string_view trim);

// ---- bits packed into bytes

enum class BitOrder : std::uint8_t { big, little };
// numpy.packbits: the truth of each element of an integer or bool array, eight to a uint8 (the first
// in the highest bit for big, the lowest for little), along `axis` (the flattened array without one),
// the last byte padded with zeros. DTypeError ("Expected an input array of integer or boolean data
// type") for other dtypes; AxisError for an axis out of range.
Array packbits(const Array& a, std::optional<std::int64_t> axis = std::nullopt, BitOrder order = BitOrder::big);
// numpy.unpackbits: each bit of a uint8 array as a 0 or 1 uint8, along `axis` (flattened without
// one), the first `count` of them (negative: all but the last -count; more than there are: zeros
// after). DTypeError for other dtypes; InvalidArgumentError ("-count larger than number of
// elements") where count leaves fewer than none.
Array unpackbits(const Array& a, std::optional<std::int64_t> axis = std::nullopt,
                 std::optional<std::int64_t> count = std::nullopt, BitOrder order = BitOrder::big);
// numpy's bitorder= text: one starting with 'b' or 'l' (as NumPy reads it); InvalidArgumentError else.
BitOrder parse_bit_order(std::string_view order);

// ---- window functions: float64 arrays of M points (empty for M < 1, [1.0] for M = 1), on `device`

Array bartlett(std::int64_t M, Device device = Device::current());  // triangular, 0 at both ends
Array blackman(std::int64_t M, Device device = Device::current());
Array hamming(std::int64_t M, Device device = Device::current());
Array hanning(std::int64_t M, Device device = Device::current());  // raised cosine (Hann)
Array kaiser(std::int64_t M, double beta, Device device = Device::current());

}  // namespace gpukit
