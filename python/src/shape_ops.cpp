// python/src/shape_ops.cpp: gpukit's shape and joining functions (gpukit/shape_ops.hpp) with NumPy's
// signatures. Python axes, shapes and sequences in, arrays out; the work is the core's.
// (pad's pad_width forms are normalised in gpukit/_shape.py, where NumPy's rules for them are.)
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <algorithm>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/index_routines.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/shape_ops.hpp"
#include "numpy_bridge.hpp"
#include "operands.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

nb::list to_list(std::vector<Array> arrays) {
    nb::list list;
    for (Array& array : arrays) list.append(nb::cast(std::move(array)));
    return list;
}

nb::tuple to_tuple(std::vector<Array> arrays) { return nb::tuple(to_list(std::move(arrays))); }

JoinOptions join_options(nb::handle out, nb::handle dtype, nb::handle casting) {
    JoinOptions options;
    if (!out.is_none()) options.out = to_array(out, "out");
    if (!out.is_none() && !dtype.is_none())
        raise_type_error("concatenate() only takes `out` or `dtype` as an argument, but both were provided.");
    options.dtype = to_optional_dtype(dtype);
    options.casting = to_casting(casting);
    return options;
}

// One array for one argument, else a list: NumPy's atleast_*d and friends.
nb::object one_or_list(const nb::args& arrays, Array (*transform)(const Array&)) {
    std::vector<Array> results;
    for (std::size_t k = 0; k < arrays.size(); ++k)
        results.push_back(transform(to_array(arrays[k], "arys[" + std::to_string(k) + "]")));
    if (results.size() == 1) return nb::cast(std::move(results.front()));
    return to_tuple(std::move(results));
}

// split's indices_or_sections: an int (sections) or a sequence of indices.
std::vector<Array> split_by(const Array& a, nb::handle indices_or_sections, nb::handle axis, bool equal) {
    const std::int64_t along = to_int64(axis, "axis");
    if (!PyBool_Check(indices_or_sections.ptr()) && PyIndex_Check(indices_or_sections.ptr())) {
        const std::int64_t sections = to_int64(indices_or_sections, "indices_or_sections");
        return equal ? split(a, sections, along) : array_split(a, sections, along);
    }
    const std::vector<std::int64_t> indices = to_shape(indices_or_sections, "indices_or_sections");
    return equal ? split(a, indices, along) : array_split(a, indices, along);
}

// hsplit, vsplit and dsplit: sections (an int) or indices, as split takes them.
using SplitBySections = std::vector<Array> (*)(const Array&, std::int64_t);
using SplitByIndices = std::vector<Array> (*)(const Array&, std::span<const std::int64_t>);
std::vector<Array> split_fixed(const Array& a, nb::handle indices_or_sections, SplitBySections by_sections,
                               SplitByIndices by_indices) {
    if (!PyBool_Check(indices_or_sections.ptr()) && PyIndex_Check(indices_or_sections.ptr()))
        return by_sections(a, to_int64(indices_or_sections, "indices_or_sections"));
    return by_indices(a, to_shape(indices_or_sections, "indices_or_sections"));
}

// block's nested lists as the core's Blocks: lists nest, arrays and numbers (0-d arrays of their
// dtype, as NumPy makes them) are blocks, and a tuple is NumPy's TypeError.
Blocks to_blocks(nb::handle value, const std::string& path) {
    Blocks blocks;
    if (PyTuple_Check(value.ptr()))
        raise_type_error(path +
                         " is a tuple. Only lists can be used to arrange blocks, and np.block does not allow implicit "
                         "conversion from tuple to ndarray.");
    if (PyList_Check(value.ptr())) {
        const std::size_t count = nb::len(value);
        for (std::size_t k = 0; k < count; ++k)
            blocks.items.push_back(to_blocks(value[k], path + "[" + std::to_string(k) + "]"));
        return blocks;
    }
    if (!nb::isinstance<Array>(value) && is_scalar(value)) {
        const Scalar number = to_scalar(value, path);
        blocks.array = full({}, number, number.dtype());
        return blocks;
    }
    blocks.array = to_array(value, path);
    return blocks;
}

// An index sequence of ix_: a gpukit array, or a list or tuple of numbers made one (empty: int64,
// as NumPy types an empty sequence).
Array to_index_sequence(nb::handle value, const std::string& name) {
    if (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())) {
        nb::object gpukit = nb::module_::import_("gpukit");
        if (nb::len(value) == 0) return nb::cast<Array>(gpukit.attr("asarray")(value, "dtype"_a = "int64"));
        return nb::cast<Array>(gpukit.attr("asarray")(value));
    }
    return to_array(value, name);
}

}  // namespace

void bind_shape_ops(nb::module_& m) {
    const struct {
        const char* name;
        SplitBySections by_sections;
        SplitByIndices by_indices;
        const char* doc;
    } fixed_splits[] = {
        {"hsplit", &hsplit, &hsplit, "Views of `ary` split along its columns (axis 1; axis 0 of a 1-D array)."},
        {"vsplit", &vsplit, &vsplit, "Views of `ary` (at least 2-D) split along its rows (axis 0)."},
        {"dsplit", &dsplit, &dsplit, "Views of `ary` (at least 3-D) split along its depth (axis 2)."},
    };
    for (const auto& row : fixed_splits) {
        m.def(
            row.name,
            [by_sections = row.by_sections, by_indices = row.by_indices](nb::handle ary,
                                                                         nb::handle indices_or_sections) {
                return to_list(split_fixed(to_array(ary, "ary"), indices_or_sections, by_sections, by_indices));
            },
            "ary"_a.none(), "indices_or_sections"_a.none(), row.doc);
    }
    m.def(
        "block",
        [](nb::handle arrays) {
            const Blocks blocks = to_blocks(arrays, "arrays");
            GilRelease unlocked;
            return block(blocks);
        },
        "arrays"_a.none(), nb::sig("def block(arrays: object) -> ndarray"),
        "Nested lists of arrays joined as blocks: the innermost lists along the last axis, the next along the one "
        "before, ... (numpy.block).");
    m.def(
        "rollaxis",
        [](nb::handle a, nb::handle axis, nb::handle start) {
            return rollaxis(to_array(a, "a"), to_int64(axis, "axis"), to_int64(start, "start"));
        },
        "a"_a.none(), "axis"_a.none(), "start"_a.none() = 0,
        "`a` with axis `axis` moved to just before position `start`: a view (numpy.rollaxis).");
    m.def(
        "broadcast_shapes",
        [](const nb::args& args) {
            std::vector<Shape> shapes;
            for (std::size_t k = 0; k < args.size(); ++k)
                shapes.push_back(to_shape(args[k], "args[" + std::to_string(k) + "]"));
            return nb::tuple(nb::cast(broadcast_shapes(shapes)));
        },
        nb::sig("def broadcast_shapes(*args: int | tuple[int, ...]) -> tuple[int, ...]"),
        "The shape the shapes broadcast to together (numpy.broadcast_shapes).");
    m.def(
        "ix_",
        [](const nb::args& args) {
            std::vector<Array> sequences;
            for (std::size_t k = 0; k < args.size(); ++k)
                sequences.push_back(to_index_sequence(args[k], "args[" + std::to_string(k) + "]"));
            return to_tuple(ix_(sequences));
        },
        nb::sig("def ix_(*args: object) -> tuple[ndarray, ...]"),
        "Open-mesh index arrays from 1-D sequences (bool ones as their nonzero positions): together they index "
        "the cross product (numpy.ix_).");
    using Triangle = std::vector<Array> (*)(std::int64_t, std::int64_t, std::optional<std::int64_t>, Device);
    using TriangleFrom = std::vector<Array> (*)(const Array&, std::int64_t);
    const struct {
        const char* name;
        const char* name_from;
        Triangle function;
        TriangleFrom function_from;
        const char* doc;
        const char* doc_from;
    } triangle_rows[] = {
        {"tril_indices", "tril_indices_from", &tril_indices, &tril_indices_from,
         "The (row, column) indices of the lower triangle of an n x m matrix from diagonal k (numpy.tril_indices).",
         "The indices of the lower triangle of the 2-D `arr` from diagonal k (numpy.tril_indices_from)."},
        {"triu_indices", "triu_indices_from", &triu_indices, &triu_indices_from,
         "The (row, column) indices of the upper triangle of an n x m matrix from diagonal k (numpy.triu_indices).",
         "The indices of the upper triangle of the 2-D `arr` from diagonal k (numpy.triu_indices_from)."},
    };
    for (const auto& row : triangle_rows) {
        m.def(
            row.name,
            [function = row.function](nb::handle n, nb::handle k, nb::handle m_) {
                const std::optional<std::int64_t> columns =
                    m_.is_none() ? std::nullopt : std::optional<std::int64_t>(to_int64(m_, "m"));
                return to_tuple(function(to_int64(n, "n"), to_int64(k, "k"), columns, Device::current()));
            },
            "n"_a.none(), "k"_a.none() = 0, "m"_a.none() = nb::none(), row.doc);
        m.def(
            row.name_from,
            [function = row.function_from](nb::handle arr, nb::handle k) {
                return to_tuple(function(to_array(arr, "arr"), to_int64(k, "k")));
            },
            "arr"_a.none(), "k"_a.none() = 0, row.doc_from);
    }
    m.def(
        "diag_indices",
        [](nb::handle n, nb::handle ndim) { return to_tuple(diag_indices(to_int64(n, "n"), to_int64(ndim, "ndim"))); },
        "n"_a.none(), "ndim"_a.none() = 2,
        "`ndim` times arange(n): the indices of the main diagonal of an n x ... x n array (numpy.diag_indices).");
    m.def(
        "diag_indices_from", [](nb::handle arr) { return to_tuple(diag_indices_from(to_array(arr, "arr"))); },
        "arr"_a.none(),
        "The indices of the main diagonal of `arr`, whose extents are equal (numpy.diag_indices_from).");
    m.def(
        "squeeze",
        [](nb::handle a, nb::handle axis) {
            const Array& array = to_array(a, "a");
            return axis.is_none() ? squeeze(array) : squeeze(array, to_axes(axis, "axis"));
        },
        "a"_a.none(), "axis"_a.none() = nb::none(),
        "`a` without dimensions of extent 1 (all, or those of `axis`): a view.");
    m.def(
        "expand_dims",
        [](nb::handle a, nb::handle axis) { return expand_dims(to_array(a, "a"), to_axes(axis, "axis")); },
        "a"_a.none(), "axis"_a.none(), "`a` with new dimensions of extent 1 at `axis`: a view.");
    m.def(
        "swapaxes",
        [](nb::handle a, nb::handle axis1, nb::handle axis2) {
            return swapaxes(to_array(a, "a"), to_int64(axis1, "axis1"), to_int64(axis2, "axis2"));
        },
        "a"_a.none(), "axis1"_a.none(), "axis2"_a.none(), "`a` with two axes interchanged: a view.");
    m.def(
        "matrix_transpose", [](nb::handle x) { return matrix_transpose(to_array(x, "x")); }, "x"_a.none(),
        "The matrices of the last two axes transposed (the Array API's matrix_transpose): a view.");
    m.def(
        "unstack",
        [](nb::handle x, nb::handle axis) { return to_tuple(unstack(to_array(x, "x"), to_int64(axis, "axis"))); },
        "x"_a.none(), nb::kw_only(), "axis"_a.none() = 0,
        "The views x[i] along `axis`, one per index, as a tuple (the Array API's unstack).");
    m.def(
        "moveaxis",
        [](nb::handle a, nb::handle source, nb::handle destination) {
            return moveaxis(to_array(a, "a"), to_axes(source, "source"), to_axes(destination, "destination"));
        },
        "a"_a.none(), "source"_a.none(), "destination"_a.none(),
        "`a` with the axes at `source` moved to `destination`, the others in their order: a view.");
    m.def(
        "transpose",
        [](nb::handle a, nb::handle axes) {
            const Array& array = to_array(a, "a");
            return axes.is_none() ? array.transpose() : array.transpose(to_axes(axes, "axes"));
        },
        "a"_a.none(), "axes"_a.none() = nb::none(), "`a` with its axes permuted (reversed by default): a view.");
    m.def(
        "broadcast_to",
        [](nb::handle a, nb::handle shape) { return broadcast_to(to_array(a, "array"), to_shape(shape)); },
        "array"_a.none(), "shape"_a.none(), "`array` repeated (stride 0) to `shape`: a view.");
    m.def(
        "broadcast_arrays",
        [](const nb::args& args) {
            std::vector<Array> arrays;
            for (std::size_t k = 0; k < args.size(); ++k)
                arrays.push_back(to_array(args[k], "args[" + std::to_string(k) + "]"));
            return to_tuple(broadcast_arrays(arrays));
        },
        "The arrays broadcast to their common shape: views.");
    m.def(
        "atleast_1d", [](const nb::args& arys) { return one_or_list(arys, &atleast_1d); },
        "Each array with at least 1 dimension (views).");
    m.def(
        "atleast_2d", [](const nb::args& arys) { return one_or_list(arys, &atleast_2d); },
        "Each array with at least 2 dimensions (views).");
    m.def(
        "atleast_3d", [](const nb::args& arys) { return one_or_list(arys, &atleast_3d); },
        "Each array with at least 3 dimensions (views).");
    m.def(
        "flip",
        [](nb::handle a, nb::handle axis) {
            const Array& array = to_array(a, "m");
            return axis.is_none() ? flip(array) : flip(array, to_axes(axis, "axis"));
        },
        "m"_a.none(), "axis"_a.none() = nb::none(), "`m` reversed along `axis` (every axis by default): a view.");
    m.def(
        "rot90",
        [](nb::handle a, nb::handle k, nb::handle axes) {
            const std::vector<std::int64_t> pair = to_shape(axes, "axes");
            if (pair.size() != 2) raise_value_error("len(axes) must be 2.");
            return rot90(to_array(a, "m"), to_int64(k, "k"), {pair[0], pair[1]});
        },
        "m"_a.none(), "k"_a.none() = 1, "axes"_a.none() = nb::make_tuple(0, 1),
        "`m` rotated by 90 degrees k times from the first axis toward the second: a view.");
    m.def(
        "diagonal",
        [](nb::handle a, nb::handle offset, nb::handle axis1, nb::handle axis2) {
            return diagonal(to_array(a, "a"), to_int64(offset, "offset"), to_int64(axis1, "axis1"),
                            to_int64(axis2, "axis2"));
        },
        "a"_a.none(), "offset"_a.none() = 0, "axis1"_a.none() = 0, "axis2"_a.none() = 1,
        "The diagonal at `offset` of the matrices in (axis1, axis2), as the last axis: a view.");
    m.def(
        "real", [](nb::handle a) { return real(to_array(a, "val")); }, "val"_a.none(),
        "The real part: a view of a complex array's memory, the array itself otherwise.");
    m.def(
        "imag", [](nb::handle a) { return imag(to_array(a, "val")); }, "val"_a.none(),
        "The imaginary part: a view of a complex array's memory, zeros (a new array) otherwise.");
    m.def(
        "flatten", [](nb::handle a, nb::handle order) { return flatten(to_array(a, "a"), to_order(order, Order::C)); },
        "a"_a.none(), "order"_a.none() = "C", "A 1-D copy in `order`.");
    m.def(
        "concatenate",
        [](nb::handle arrays, nb::handle axis, nb::handle out, nb::handle dtype, nb::handle casting) {
            const std::vector<Array> pieces = to_arrays(arrays, "arrays");
            const JoinOptions options = join_options(out, dtype, casting);
            const std::optional<std::int64_t> along = to_optional_axis(axis, "axis");
            GilRelease unlocked;
            return concatenate(pieces, along, options);
        },
        "arrays"_a.none(), "axis"_a.none() = 0, "out"_a.none() = nb::none(), nb::kw_only(),
        "dtype"_a.none() = nb::none(), "casting"_a.none() = "same_kind",
        "The arrays joined along `axis` (flattened first for None), into `out` or a new array.");
    m.def(
        "stack",
        [](nb::handle arrays, nb::handle axis, nb::handle out, nb::handle dtype, nb::handle casting) {
            const std::vector<Array> pieces = to_arrays(arrays, "arrays");
            const JoinOptions options = join_options(out, dtype, casting);
            const std::int64_t along = to_int64(axis, "axis");
            GilRelease unlocked;
            return stack(pieces, along, options);
        },
        "arrays"_a.none(), "axis"_a.none() = 0, "out"_a.none() = nb::none(), nb::kw_only(),
        "dtype"_a.none() = nb::none(), "casting"_a.none() = "same_kind", "The arrays joined along a new axis.");
    using Joiner = Array (*)(std::span<const Array>, const JoinOptions&);
    struct JoinerRow {
        const char* name;
        Joiner joiner;
        const char* doc;
    };
    for (const JoinerRow& row :
         {JoinerRow{"vstack", &vstack, "The arrays stacked as rows (axis 0)."},
          JoinerRow{"hstack", &hstack, "The arrays stacked as columns (axis 1; 0 for 1-D arrays)."},
          JoinerRow{"dstack", &dstack, "The arrays stacked in depth (axis 2)."}}) {
        const Joiner joiner = row.joiner;
        m.def(
            row.name,
            [joiner](nb::handle tup, nb::handle dtype, nb::handle casting) {
                const std::vector<Array> pieces = to_arrays(tup, "tup");
                const JoinOptions options = join_options(nb::none(), dtype, casting);
                GilRelease unlocked;
                return joiner(pieces, options);
            },
            "tup"_a.none(), nb::kw_only(), "dtype"_a.none() = nb::none(), "casting"_a.none() = "same_kind", row.doc);
    }
    m.def(
        "column_stack",
        [](nb::handle tup) {
            const std::vector<Array> pieces = to_arrays(tup, "tup");
            GilRelease unlocked;
            return column_stack(pieces);
        },
        "tup"_a.none(), "1-D arrays as columns of a 2-D array (2-D arrays as they are), joined along axis 1.");
    m.def(
        "split",
        [](nb::handle a, nb::handle indices_or_sections, nb::handle axis) {
            return to_list(split_by(to_array(a, "ary"), indices_or_sections, axis, true));
        },
        "ary"_a.none(), "indices_or_sections"_a.none(), "axis"_a.none() = 0,
        "Views of `ary` in equal sections, or between indices, along `axis`.");
    m.def(
        "array_split",
        [](nb::handle a, nb::handle indices_or_sections, nb::handle axis) {
            return to_list(split_by(to_array(a, "ary"), indices_or_sections, axis, false));
        },
        "ary"_a.none(), "indices_or_sections"_a.none(), "axis"_a.none() = 0,
        "As split, but sections may differ by one element.");
    m.def(
        "tile",
        [](nb::handle a, nb::handle reps) {
            const Array& array = to_array(a, "A");
            const std::vector<std::int64_t> counts = to_axes(reps, "reps");
            GilRelease unlocked;
            return tile(array, counts);
        },
        "A"_a.none(), "reps"_a.none(), "`A` repeated `reps` times along each axis.");
    m.def(
        "repeat",
        [](nb::handle a, nb::handle repeats, nb::handle axis) {
            const Array& array = to_array(a, "a");
            std::vector<std::int64_t> counts;
            if (nb::isinstance<Array>(repeats)) {  // counts on the device: the result's shape needs them here
                const Array& on_device = *nb::inst_ptr<Array>(repeats);
                const char kind = kind_char(on_device.dtype());
                if (on_device.ndim() > 1 || (kind != 'i' && kind != 'u'))
                    raise_type_error("repeats must be an int or a 1-D array of integers, not an array of shape " +
                                     format_shape(on_device.shape()) + " and dtype " +
                                     std::string(to_string(on_device.dtype())));
                GilRelease unlocked;
                counts = on_device.astype(DType::int64).to_vector<std::int64_t>();
            } else {
                counts = to_axes(repeats, "repeats");
            }
            const std::optional<std::int64_t> along = to_optional_axis(axis, "axis");
            GilRelease unlocked;
            return repeat(array, counts, along);
        },
        "a"_a.none(), "repeats"_a.none(), "axis"_a.none() = nb::none(),
        "Each element repeated (one count, or one per element) along `axis`, or over the flattened array.");
    m.def(
        "pad_pairs",
        [](nb::handle a, const std::vector<std::pair<std::int64_t, std::int64_t>>& widths, const std::string& mode,
           nb::handle constants, nb::handle stat_length, bool odd) {
            const Array& array = to_array(a, "array");
            static const std::pair<const char*, PadMode> modes[] = {
                {"constant", PadMode::constant},       {"edge", PadMode::edge},  {"reflect", PadMode::reflect},
                {"symmetric", PadMode::symmetric},     {"wrap", PadMode::wrap},  {"maximum", PadMode::maximum},
                {"minimum", PadMode::minimum},         {"mean", PadMode::mean},  {"median", PadMode::median},
                {"linear_ramp", PadMode::linear_ramp}, {"empty", PadMode::empty}};
            PadOptions options;
            const auto* found =
                std::find_if(std::begin(modes), std::end(modes), [&](const auto& row) { return mode == row.first; });
            if (found == std::end(modes)) raise_value_error("mode '" + mode + "' is not supported");
            options.mode = found->second;
            options.odd = odd;
            if (!constants.is_none())
                for (nb::handle pair : constants)
                    options.constants.emplace_back(to_scalar(pair[0], "constant_values"),
                                                   to_scalar(pair[1], "constant_values"));
            if (!stat_length.is_none())
                for (nb::handle pair : stat_length)
                    options.stat_length.emplace_back(to_int64(pair[0], "stat_length"),
                                                     to_int64(pair[1], "stat_length"));
            GilRelease unlocked;
            return pad(array, widths, options);
        },
        "array"_a.none(), "widths"_a, "mode"_a, "constants"_a.none(), "stat_length"_a.none() = nb::none(),
        "odd"_a = false,
        "pad with one (before, after) pair per axis (gpukit.pad normalises NumPy's forms into these).");
    m.def(
        "roll",
        [](nb::handle a, nb::handle shift, nb::handle axis) {
            const Array& array = to_array(a, "a");
            const std::vector<std::int64_t> shifts = to_axes(shift, "shift");
            const std::vector<std::int64_t> axes = axis.is_none() ? std::vector<std::int64_t>{} : to_axes(axis, "axis");
            GilRelease unlocked;
            return roll(array, shifts, axes);
        },
        "a"_a.none(), "shift"_a.none(), "axis"_a.none() = nb::none(),
        "Elements shifted along `axis` (the flattened array by default), wrapping around.");
    m.def(
        "tril", [](nb::handle a, nb::handle k) { return tril(to_array(a, "m"), to_int64(k, "k")); }, "m"_a.none(),
        "k"_a.none() = 0, "The lower triangle of the last two dimensions from diagonal k, zeros above.");
    m.def(
        "triu", [](nb::handle a, nb::handle k) { return triu(to_array(a, "m"), to_int64(k, "k")); }, "m"_a.none(),
        "k"_a.none() = 0, "The upper triangle of the last two dimensions from diagonal k, zeros below.");
    using Diagonal = Array (*)(const Array&, std::int64_t);
    const struct {
        const char* name;
        Diagonal function;
        const char* signature;
        const char* doc;
    } diagonal_rows[] = {
        {"diag", &diag, "def diag(v: ndarray, k: int = 0) -> ndarray",
         "Of a 1-D array, the square matrix with it on diagonal ``k`` and zeros elsewhere; of a 2-D array, a copy "
         "of its diagonal ``k`` (numpy.diag)."},
        {"diagflat", &diagflat, "def diagflat(v: ndarray, k: int = 0) -> ndarray",
         "The flattened array on diagonal ``k`` of a new square matrix, zeros elsewhere (numpy.diagflat)."},
    };
    for (const auto& row : diagonal_rows) {
        m.def(
            row.name,
            [function = row.function](nb::handle v, nb::handle k) {
                const Array& array = to_array(v, "v");
                const std::int64_t offset = to_int64(k, "k");
                GilRelease unlocked;
                return function(array, offset);
            },
            "v"_a.none(), "k"_a.none() = 0, nb::sig(row.signature), row.doc);
    }
    using Test = Array (*)(const Array&);
    const struct {
        const char* name;
        Test function;
        const char* signature;
        const char* doc;
    } test_rows[] = {
        {"iscomplex", &iscomplex, "def iscomplex(x: ndarray) -> ndarray",
         "Whether each element has a nonzero imaginary part (false for real dtypes), as numpy.iscomplex."},
        {"isreal", &isreal, "def isreal(x: ndarray) -> ndarray",
         "Whether each element has a zero imaginary part (true for real dtypes), as numpy.isreal."},
    };
    for (const auto& row : test_rows) {
        m.def(
            row.name,
            [function = row.function](nb::handle x) {
                const Array& array = to_array(x, "x");
                GilRelease unlocked;
                return function(array);
            },
            "x"_a.none(), nb::sig(row.signature), row.doc);
    }
    m.def(
        "iscomplexobj",
        [](nb::handle x) -> bool {
            if (const Array* array = as_array(x.ptr())) return kind(array->dtype()) == DTypeKind::complex;
            return nb::cast<bool>(numpy_module().attr("iscomplexobj")(x));
        },
        "x"_a.none(), nb::sig("def iscomplexobj(x: object) -> bool"),
        "Whether x's dtype is complex, whatever its values (numpy.iscomplexobj).");
    m.def(
        "isrealobj",
        [](nb::handle x) -> bool {
            if (const Array* array = as_array(x.ptr())) return kind(array->dtype()) != DTypeKind::complex;
            return nb::cast<bool>(numpy_module().attr("isrealobj")(x));
        },
        "x"_a.none(), nb::sig("def isrealobj(x: object) -> bool"),
        "Whether x's dtype is not complex, whatever its values (numpy.isrealobj).");
    m.def(
        "isscalar",
        [](nb::handle element) -> bool {
            if (as_array(element.ptr())) return false;  // an array, 0-d ones included, as NumPy's
            return nb::cast<bool>(numpy_module().attr("isscalar")(element));
        },
        "element"_a.none(), nb::sig("def isscalar(element: object) -> bool"),
        "Whether ``element`` is a scalar (a Python or NumPy number, str, bytes): arrays are not (numpy.isscalar).");
    m.def(
        "shape",
        [](nb::handle a) -> nb::object {
            if (as_array(a.ptr())) return a.attr("shape");
            return numpy_module().attr("shape")(a);  // host data: its shape, without a copy to the device
        },
        "a"_a.none(), nb::sig("def shape(a: object) -> tuple[int, ...]"), "The shape of an array (numpy.shape).");
    m.def(
        "ndim",
        [](nb::handle a) -> nb::object {
            if (const Array* array = as_array(a.ptr())) return nb::int_(array->ndim());
            return numpy_module().attr("ndim")(a);
        },
        "a"_a.none(), nb::sig("def ndim(a: object) -> int"), "The number of dimensions (numpy.ndim).");
    m.def(
        "size",
        [](nb::handle a, nb::handle axis) -> nb::object {
            const Array* array = as_array(a.ptr());
            if (!array) return numpy_module().attr("size")(a, axis);
            if (axis.is_none()) return nb::int_(array->size());
            std::int64_t count = 1;
            for (const std::int64_t each : to_axes(axis, "axis"))
                count *= array->shape()[normalize_axis(each, array->ndim())];
            return nb::int_(count);
        },
        "a"_a.none(), "axis"_a.none() = nb::none(),
        nb::sig("def size(a: object, axis: int | tuple[int, ...] | None = None) -> int"),
        "The number of elements, along ``axis`` where given (numpy.size).");
    m.def(
        "meshgrid",
        [](const nb::args& xi, const nb::kwargs& kwargs) {
            MeshgridOptions options;
            for (auto [key, value] : kwargs) {
                const std::string name = nb::cast<std::string>(key);
                if (name == "copy")
                    options.copy = to_bool(value, "copy");
                else if (name == "sparse")
                    options.sparse = to_bool(value, "sparse");
                else if (name == "indexing") {
                    const std::string indexing = to_str(value, "indexing");
                    if (indexing != "xy" && indexing != "ij")
                        raise_value_error("Valid values for `indexing` are 'xy' and 'ij'.");
                    options.matrix_indexing = indexing == "ij";
                } else {
                    raise_type_error("meshgrid() got an unexpected keyword argument '" + name + "'");
                }
            }
            std::vector<Array> coordinates;
            for (std::size_t k = 0; k < xi.size(); ++k)
                coordinates.push_back(to_array(xi[k], "xi[" + std::to_string(k) + "]"));
            return to_tuple(meshgrid(coordinates, options));
        },
        "Coordinate arrays from coordinate vectors (indexing 'xy' or 'ij', sparse, copy).");
    m.def(
        "indices",
        [](nb::handle dimensions, nb::handle dtype, bool sparse) -> nb::object {
            const std::vector<std::int64_t> dims = to_shape(dimensions, "dimensions");
            const DType chosen = dtype.is_none() ? DType::int64 : to_dtype(dtype);
            if (sparse) return to_tuple(sparse_indices(dims, chosen));
            return nb::cast(indices(dims, chosen));
        },
        "dimensions"_a.none(), "dtype"_a.none() = nb::handle(reinterpret_cast<PyObject*>(&PyLong_Type)),
        "sparse"_a = false,
        "The grid's coordinates: an array of shape (len(dimensions), *dimensions), or one "
        "array per dimension when sparse.");
    m.def(
        "copyto",
        [](nb::handle dst, nb::handle src, nb::handle casting, nb::handle where) {
            const Array& target = to_array(dst, "dst");
            const Casting rule = to_casting(casting);
            std::optional<Array> mask;
            if (!(PyBool_Check(where.ptr()) && where.ptr() == Py_True)) mask = to_array(where, "where");
            if (nb::isinstance<Array>(src)) {
                const Array& source = *nb::inst_ptr<Array>(src);
                GilRelease unlocked;
                return copyto(target, source, rule, mask);
            }
            // A number: a weak one takes dst's dtype when its kind allows, as NumPy 2's copyto.
            const Scalar value = to_scalar(src, "src");
            const std::optional<PythonScalar> python = value.weak_kind();
            const DType value_dtype = python ? result_type({target.dtype()}, {*python}) : value.dtype();
            const Array source = full({}, value, value_dtype, Order::C, target.device());
            GilRelease unlocked;
            copyto(target, source, rule, mask);
        },
        "dst"_a.none(), "src"_a.none(), "casting"_a.none() = "same_kind", "where"_a.none() = true,
        "dst[...] = src, broadcast and cast under `casting`, where `where` is True.");
}

}  // namespace gpukit::python
