// python/src/numeric.cpp: gpukit/numeric.hpp (select, interp, trapezoid, cov, corrcoef,
// unravel_index, ravel_multi_index, append, delete, shares_memory, may_share_memory, fix, isposinf,
// isneginf, sinc, i0, real_if_close, sort_complex, unwrap, trim_zeros, packbits, unpackbits and the
// window functions) with NumPy's arguments: Python numbers, sequences and slices in, arrays out.
#include <optional>
#include <string>
#include <vector>

#include <nanobind/stl/vector.h>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/numeric.hpp"
#include "indexing.hpp"
#include "numpy_bridge.hpp"
#include "operands.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

// Each item of a sequence as an array operand (numbers as 0-d arrays).
std::vector<Array> operands_of(nb::handle sequence, HeldArrays& held, std::string_view call) {
    if (!PySequence_Check(sequence.ptr()) || nb::isinstance<Array>(sequence))
        raise_type_error(std::string(call) + " takes a list of arrays, not " + describe_value(sequence));
    std::vector<Array> arrays;
    std::size_t position = 0;
    for (nb::handle item : nb::borrow<nb::sequence>(sequence))
        arrays.push_back(array_operand(item, held, call, position++));
    return arrays;
}

std::optional<Array> optional_operand(nb::handle value, HeldArrays& held, std::string_view call, std::size_t position) {
    if (value.is_none()) return std::nullopt;
    return array_operand(value, held, call, position);
}

// numpy.delete's obj: an int, a slice, a sequence of ints, or an array (integers or a bool mask).
Array delete_positions_of(nb::handle obj, const Array& a, std::optional<std::int64_t> axis, HeldArrays& held) {
    if (PySlice_Check(obj.ptr())) {
        const std::int64_t n = axis ? a.shape()[normalize_axis(*axis, a.ndim())] : a.size();
        Py_ssize_t start = 0, stop = 0, step = 0, length = 0;
        if (PySlice_GetIndicesEx(obj.ptr(), static_cast<Py_ssize_t>(n), &start, &stop, &step, &length) != 0)
            throw nb::python_error();
        std::vector<std::int64_t> picked;
        for (Py_ssize_t k = 0; k < length; ++k) picked.push_back(start + k * step);
        return Array::from_host(std::span<const std::int64_t>(picked), {static_cast<std::int64_t>(picked.size())},
                                a.device());
    }
    if (nb::isinstance<Array>(obj) || is_scalar(obj)) return array_operand(obj, held, "delete", 1);
    // A list, a tuple or a NumPy array: integer positions or a bool mask, as NumPy reads them.
    return to_device_array(obj, a.device(), "obj", true);
}

// fix, isposinf and isneginf: a new array, or `out` (returned itself, as NumPy's).
template <class New, class Into>
nb::object unary_with_out(nb::handle x, nb::handle out, std::string_view call, New make, Into into) {
    HeldArrays held;
    const Array a = array_operand(x, held, call, 0);
    if (out.is_none()) {
        std::optional<Array> result;
        {
            GilRelease unlocked;
            result = make(a);
        }
        return nb::cast(std::move(*result));
    }
    const Array& target = to_output(out.ptr(), held, "out");
    {
        GilRelease unlocked;
        into(a, target);
    }
    return nb::borrow(out);
}

// A window function of M points (NumPy's M: an int).
template <class Window>
void bind_window(nb::module_& m, const char* name, Window window, const char* doc) {
    m.def(
        name, [window](nb::handle points) { return window(to_int64(points, "M")); }, "M"_a, doc);
}

}  // namespace

void bind_numeric(nb::module_& m) {
    m.def(
        "select",
        [](nb::handle condlist, nb::handle choicelist, nb::handle default_value) {
            HeldArrays held;
            const std::vector<Array> conditions = operands_of(condlist, held, "select");
            const std::vector<Array> choices = operands_of(choicelist, held, "select");
            if (PyLong_CheckExact(default_value.ptr()) || PyFloat_CheckExact(default_value.ptr()) ||
                PyComplex_CheckExact(default_value.ptr()) || PyBool_Check(default_value.ptr())) {
                const Scalar weak = to_scalar(default_value, "default");  // a Python number: weak
                GilRelease unlocked;
                return select(conditions, choices, weak);
            }
            const Array otherwise = array_operand(default_value, held, "select", 2);
            GilRelease unlocked;
            return select(conditions, choices, otherwise);
        },
        "condlist"_a, "choicelist"_a, "default"_a = 0,
        "Elementwise, the choice of the first true condition, ``default`` where none holds, as numpy.select.");
    m.def(
        "interp",
        [](nb::handle x, nb::handle xp, nb::handle fp, nb::handle left, nb::handle right, nb::handle period) {
            HeldArrays held;
            const Array at = array_operand(x, held, "interp", 0), grid = array_operand(xp, held, "interp", 1),
                        values = array_operand(fp, held, "interp", 2);
            InterpOptions options;
            options.left = optional_operand(left, held, "interp", 3);
            options.right = optional_operand(right, held, "interp", 4);
            if (!period.is_none()) options.period = nb::cast<double>(nb::float_(period));
            GilRelease unlocked;
            return interp(at, grid, values, options);
        },
        "x"_a, "xp"_a, "fp"_a, "left"_a.none() = nb::none(), "right"_a.none() = nb::none(),
        "period"_a.none() = nb::none(),
        "The piecewise-linear interpolant of the points (xp, fp) at x, as numpy.interp (float64, or complex128 "
        "for complex fp).");
    m.def(
        "gradient",
        [](nb::handle f, const nb::args& varargs, nb::handle axis, nb::handle edge_order) -> nb::object {
            HeldArrays held;
            const Array values = array_operand(f, held, "gradient", 0);
            std::vector<GradientSpacing> spacing;
            std::size_t position = 1;
            for (nb::handle step : varargs) {
                if (is_scalar(step)) {
                    spacing.emplace_back(nb::cast<double>(nb::float_(step)));
                } else {
                    Array coordinates = array_operand(step, held, "gradient", position);
                    if (coordinates.ndim() == 0)
                        spacing.emplace_back(coordinates.astype(DType::float64).to_vector<double>()[0]);
                    else
                        spacing.emplace_back(std::move(coordinates));
                }
                ++position;
            }
            std::vector<std::int64_t> axes;
            if (!axis.is_none()) axes = to_axes(axis, "axis");
            const int order = static_cast<int>(to_int64(edge_order, "edge_order"));
            std::vector<Array> derivatives;
            {
                GilRelease unlocked;
                derivatives = gradient(values, spacing, axes, order);
            }
            // One axis: the array itself, as NumPy's (an int axis, or a 1-D f); else a tuple.
            if (derivatives.size() == 1 && (values.ndim() == 1 || (!axis.is_none() && is_scalar(axis))))
                return nb::cast(std::move(derivatives[0]));
            nb::list items;
            for (Array& derivative : derivatives) items.append(nb::cast(std::move(derivative)));
            return nb::tuple(items);
        },
        "f"_a, "varargs"_a, nb::kw_only(), "axis"_a.none() = nb::none(), "edge_order"_a = 1,
        nb::sig("def gradient(f: object, *varargs: object, axis: object = None, edge_order: int = 1) -> object"),
        "The derivative of f along each axis by central differences inside and one-sided ones at the ends, as "
        "numpy.gradient.");
    m.def(
        "trapezoid",
        [](nb::handle y, nb::handle x, double dx, std::int64_t axis) {
            HeldArrays held;
            const Array values = array_operand(y, held, "trapezoid", 0);
            const std::optional<Array> points = optional_operand(x, held, "trapezoid", 1);
            GilRelease unlocked;
            return trapezoid(values, points, dx, axis);
        },
        "y"_a, "x"_a.none() = nb::none(), "dx"_a = 1.0, "axis"_a = -1,
        "The integral of y along ``axis`` by the trapezoidal rule, as numpy.trapezoid.");
    m.def(
        "cov",
        [](nb::handle m_, nb::handle y, bool rowvar, bool bias, nb::handle ddof, nb::handle fweights,
           nb::handle aweights, nb::handle dtype) {
            HeldArrays held;
            const Array variables = array_operand(m_, held, "cov", 0);
            const std::optional<Array> more = optional_operand(y, held, "cov", 1);
            CovOptions options;
            options.rowvar = rowvar;
            options.bias = bias;
            if (!ddof.is_none()) options.ddof = to_int64(ddof, "ddof");
            options.fweights = optional_operand(fweights, held, "cov", 5);
            options.aweights = optional_operand(aweights, held, "cov", 6);
            options.dtype = to_optional_dtype(dtype);
            GilRelease unlocked;
            return cov(variables, more, options);
        },
        "m"_a, "y"_a.none() = nb::none(), "rowvar"_a = true, "bias"_a = false, "ddof"_a.none() = nb::none(),
        "fweights"_a.none() = nb::none(), "aweights"_a.none() = nb::none(), nb::kw_only(),
        "dtype"_a.none() = nb::none(), "The covariance matrix of the variables, as numpy.cov.");
    m.def(
        "corrcoef",
        [](nb::handle x, nb::handle y, bool rowvar, nb::handle dtype) {
            HeldArrays held;
            const Array variables = array_operand(x, held, "corrcoef", 0);
            const std::optional<Array> more = optional_operand(y, held, "corrcoef", 1);
            const std::optional<DType> chosen = to_optional_dtype(dtype);
            GilRelease unlocked;
            return corrcoef(variables, more, rowvar, chosen);
        },
        "x"_a, "y"_a.none() = nb::none(), "rowvar"_a = true, nb::kw_only(), "dtype"_a.none() = nb::none(),
        "The Pearson correlation coefficients, as numpy.corrcoef.");
    m.def(
        "unravel_index",
        [](nb::handle indices, nb::handle shape, nb::handle order) {
            HeldArrays held;
            const Array flat = array_operand(indices, held, "unravel_index", 0);
            const Shape extents = to_shape(shape);
            const Order layout = to_order(order, Order::C);
            std::vector<Array> coordinates;
            {
                GilRelease unlocked;
                coordinates = unravel_index(flat, extents, layout);
            }
            nb::list items;
            for (Array& coordinate : coordinates) items.append(nb::cast(std::move(coordinate)));
            return nb::tuple(items);
        },
        "indices"_a, "shape"_a, "order"_a = "C",
        "The coordinates in ``shape`` of flat indices, one int64 array per dimension, as numpy.unravel_index.");
    m.def(
        "ravel_multi_index",
        [](nb::handle multi_index, nb::handle dims, nb::handle mode, nb::handle order) {
            HeldArrays held;
            const std::vector<Array> coordinates = operands_of(multi_index, held, "ravel_multi_index");
            const Shape extents = to_shape(dims, "dims");
            std::vector<IndexMode> modes;
            if (PyUnicode_Check(mode.ptr())) {
                modes.push_back(parse_index_mode(to_str(mode, "mode")));
            } else {
                for (nb::handle each : nb::borrow<nb::sequence>(mode))
                    modes.push_back(parse_index_mode(to_str(each, "mode")));
            }
            const Order layout = to_order(order, Order::C);
            GilRelease unlocked;
            return ravel_multi_index(coordinates, extents, modes, layout);
        },
        "multi_index"_a, "dims"_a, "mode"_a = "raise", "order"_a = "C",
        "The flat indices of coordinates in an array of shape ``dims``, as numpy.ravel_multi_index.");
    m.def(
        "append",
        [](nb::handle arr, nb::handle values, nb::handle axis) {
            HeldArrays held;
            const Array a = array_operand(arr, held, "append", 0), more = array_operand(values, held, "append", 1);
            const std::optional<std::int64_t> along = to_optional_axis(axis, "axis");
            GilRelease unlocked;
            return append(a, more, along);
        },
        "arr"_a, "values"_a, "axis"_a.none() = nb::none(),
        "values after arr along ``axis`` (both flattened without one), as numpy.append.");
    m.def(
        "delete",
        [](nb::handle arr, nb::handle obj, nb::handle axis) {
            HeldArrays held;
            const Array a = array_operand(arr, held, "delete", 0);
            const std::optional<std::int64_t> along = to_optional_axis(axis, "axis");
            const Array positions = delete_positions_of(obj, a, along, held);
            GilRelease unlocked;
            return delete_positions(a, positions, along);
        },
        "arr"_a, "obj"_a, "axis"_a.none() = nb::none(),
        "arr without the positions ``obj`` (an int, a slice, ints or a bool mask) along ``axis``, as numpy.delete.");
    m.def(
        "insert",
        [](nb::handle arr, nb::handle obj, nb::handle values, nb::handle axis) {
            HeldArrays held;
            const Array a = array_operand(arr, held, "insert", 0);
            const std::optional<std::int64_t> along = to_optional_axis(axis, "axis");
            // A slice names its positions; an int stays 0-d (one block); anything else is positions.
            const Array positions = PySlice_Check(obj.ptr()) || !(nb::isinstance<Array>(obj) || is_scalar(obj))
                                        ? delete_positions_of(obj, a, along, held)
                                        : array_operand(obj, held, "insert", 1);
            const Array more = nb::isinstance<Array>(values) || is_scalar(values)
                                   ? array_operand(values, held, "insert", 2)
                                   : to_device_array(values, a.device(), "values", false);
            GilRelease unlocked;
            return insert(a, positions, more, along);
        },
        "arr"_a, "obj"_a, "values"_a, "axis"_a.none() = nb::none(),
        "arr with ``values`` put before the positions ``obj`` (an int: one block; a slice, ints or a bool mask: one "
        "slice before each) along ``axis`` (flattened without one), as numpy.insert.");
    m.def(
        "resize",
        [](nb::handle a_like, nb::handle new_shape) {
            HeldArrays held;
            const Array a = array_operand(a_like, held, "resize", 0);
            const Shape shape =
                is_scalar(new_shape) ? Shape{to_int64(new_shape, "new_shape")} : Shape(to_axes(new_shape, "new_shape"));
            GilRelease unlocked;
            return resize(a, shape);
        },
        "a"_a, "new_shape"_a,
        "A new array of ``new_shape`` filled with a's elements in C order, repeated from the start (zeros for an "
        "empty a), as numpy.resize.");
    m.def(
        "may_share_memory",
        [](const Array& a, const Array& b, nb::handle max_work) {
            // NumPy's default compares the bounds; any other max_work asks for the exact answer.
            if (!max_work.is_none() && to_int64(max_work, "max_work") != 0) return shares_memory(a, b);
            return may_share_memory(a, b);
        },
        "a"_a, "b"_a, "max_work"_a.none() = nb::none(),
        "Whether the byte ranges the arrays span overlap, as numpy.may_share_memory.");
    m.def(
        "shares_memory",
        [](const Array& a, const Array& b, nb::handle max_work) {
            if (!max_work.is_none() && to_int64(max_work, "max_work") == 0) return may_share_memory(a, b);
            return shares_memory(a, b);
        },
        "a"_a, "b"_a, "max_work"_a.none() = nb::none(),
        "Whether some element is in both arrays (exact), as numpy.shares_memory.");
    m.def(
        "fix",
        [](nb::handle x, nb::handle out) {
            return unary_with_out(
                x, out, "fix", [](const Array& a) { return fix(a); },
                [](const Array& a, const Array& o) { fix(a, o); });
        },
        "x"_a, "out"_a.none() = nb::none(), "x rounded toward zero, as numpy.fix.");
    m.def(
        "isposinf",
        [](nb::handle x, nb::handle out) {
            return unary_with_out(
                x, out, "isposinf", [](const Array& a) { return isposinf(a); },
                [](const Array& a, const Array& o) { isposinf(a, o); });
        },
        "x"_a, "out"_a.none() = nb::none(), "Whether each element is +inf, as numpy.isposinf.");
    m.def(
        "isneginf",
        [](nb::handle x, nb::handle out) {
            return unary_with_out(
                x, out, "isneginf", [](const Array& a) { return isneginf(a); },
                [](const Array& a, const Array& o) { isneginf(a, o); });
        },
        "x"_a, "out"_a.none() = nb::none(), "Whether each element is -inf, as numpy.isneginf.");
    m.def(
        "sinc",
        [](nb::handle x) {
            HeldArrays held;
            const Array a = array_operand(x, held, "sinc", 0);
            GilRelease unlocked;
            return sinc(a);
        },
        "x"_a, "sin(pi x) / (pi x), 1 at 0, as numpy.sinc.");
    m.def(
        "i0",
        [](nb::handle x) {
            HeldArrays held;
            const Array a = array_operand(x, held, "i0", 0);
            GilRelease unlocked;
            return i0(a);
        },
        "x"_a, "The modified Bessel function of the first kind of order 0, as numpy.i0.");
    m.def(
        "real_if_close",
        [](nb::handle a_like, double tol) -> nb::object {
            HeldArrays held;
            const Array a = array_operand(a_like, held, "real_if_close", 0);
            Array result = a;
            {
                GilRelease unlocked;
                result = real_if_close(a, tol);
            }
            // Anything not made real is the argument itself, as NumPy returns it.
            if (result.dtype() == a.dtype() && nb::isinstance<Array>(a_like)) return nb::borrow(a_like);
            return nb::cast(std::move(result));
        },
        "a"_a, "tol"_a = 100.0,
        "The real part of a complex array whose imaginary parts are all below tol (machine epsilons where tol "
        "> 1), else the array, as numpy.real_if_close.");
    m.def(
        "sort_complex",
        [](nb::handle a_like) {
            HeldArrays held;
            const Array a = array_operand(a_like, held, "sort_complex", 0);
            GilRelease unlocked;
            return sort_complex(a);
        },
        "a"_a, "A copy sorted along the last axis (real parts, then imaginary), complex, as numpy.sort_complex.");
    m.def(
        "unwrap",
        [](nb::handle p, nb::handle discont, std::int64_t axis, nb::handle period) {
            HeldArrays held;
            const Array phases = array_operand(p, held, "unwrap", 0);
            std::optional<Scalar> threshold;
            if (!discont.is_none()) threshold = to_scalar(discont, "discont");
            const Scalar cycle = to_scalar(period, "period");
            GilRelease unlocked;
            return unwrap(phases, threshold, axis, cycle);
        },
        "p"_a, "discont"_a.none() = nb::none(), "axis"_a = -1, nb::kw_only(), "period"_a = 6.283185307179586,
        "p with its jumps larger than discont taken modulo period along axis, as numpy.unwrap.");
    m.def(
        "trim_zeros",
        [](nb::handle filt, nb::handle trim, nb::handle axis) {
            HeldArrays held;
            const Array a = array_operand(filt, held, "trim_zeros", 0);
            const TrimSides sides = parse_trim_sides(to_str(trim, "trim"));
            std::vector<std::int64_t> axes;
            if (!axis.is_none()) axes = to_axes(axis, "axis");
            GilRelease unlocked;
            return trim_zeros(a, sides, axes);
        },
        "filt"_a, "trim"_a = "fb", "axis"_a.none() = nb::none(),
        "filt without its leading ('f') and trailing ('b') zeros along axis (every axis for None), as "
        "numpy.trim_zeros.");
    m.def(
        "packbits",
        [](nb::handle a_like, nb::handle axis, nb::handle bitorder) {
            HeldArrays held;
            const Array a = array_operand(a_like, held, "packbits", 0);
            const std::optional<std::int64_t> along = to_optional_axis(axis, "axis");
            const BitOrder order = parse_bit_order(to_str(bitorder, "bitorder"));
            GilRelease unlocked;
            return packbits(a, along, order);
        },
        "a"_a, "axis"_a.none() = nb::none(), "bitorder"_a = "big",
        "The truth of the elements, eight to a uint8, along axis (flattened for None), as numpy.packbits.");
    m.def(
        "unpackbits",
        [](nb::handle a_like, nb::handle axis, nb::handle count, nb::handle bitorder) {
            HeldArrays held;
            const Array a = array_operand(a_like, held, "unpackbits", 0);
            const std::optional<std::int64_t> along = to_optional_axis(axis, "axis");
            std::optional<std::int64_t> bits;
            if (!count.is_none()) bits = to_int64(count, "count");
            const BitOrder order = parse_bit_order(to_str(bitorder, "bitorder"));
            GilRelease unlocked;
            return unpackbits(a, along, bits, order);
        },
        "a"_a, "axis"_a.none() = nb::none(), "count"_a.none() = nb::none(), "bitorder"_a = "big",
        "Each bit of a uint8 array as a 0 or 1 uint8 along axis (flattened for None), as numpy.unpackbits.");
    bind_window(
        m, "bartlett", [](std::int64_t M) { return bartlett(M); }, "The Bartlett window, as numpy.bartlett.");
    bind_window(
        m, "blackman", [](std::int64_t M) { return blackman(M); }, "The Blackman window, as numpy.blackman.");
    bind_window(
        m, "hamming", [](std::int64_t M) { return hamming(M); }, "The Hamming window, as numpy.hamming.");
    bind_window(
        m, "hanning", [](std::int64_t M) { return hanning(M); }, "The Hann window, as numpy.hanning.");
    m.def(
        "kaiser", [](nb::handle M, double beta) { return kaiser(to_int64(M, "M"), beta); }, "M"_a, "beta"_a,
        "The Kaiser window, as numpy.kaiser.");
}

}  // namespace gpukit::python
