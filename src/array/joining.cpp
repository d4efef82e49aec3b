// src/array/joining.cpp: concatenate, stack, vstack, hstack, dstack, column_stack
// (gpukit/shape_ops.hpp). The result is made once and each array copied into its slice of it, on
// the device, converted to the result's dtype on the way.
#include <vector>

#include "array/along_axis.hpp"
#include "array/device_copy.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

namespace {

std::string numpy_dtype_name(DType dtype) { return concat("dtype('", to_string(dtype), "')"); }

void check_cast(DType from, DType to, Casting casting) {
    if (!can_cast(from, to, casting))
        throw DTypeError(concat("Cannot cast array data from ", numpy_dtype_name(from), " to ", numpy_dtype_name(to),
                                " according to the rule '", to_string(casting), "'"));
}

}  // namespace

Array concatenate(std::span<const Array> arrays, std::optional<std::int64_t> axis, const JoinOptions& options) {
    if (arrays.empty()) throw InvalidArgumentError("need at least one array to concatenate");
    if (options.out && options.dtype)
        throw InvalidArgumentError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.");
    std::vector<Array> pieces;
    for (const Array& array : arrays) pieces.push_back(axis ? array : array.ravel());
    const Array& first = pieces.front();
    if (first.ndim() == 0) throw InvalidArgumentError("zero-dimensional arrays cannot be concatenated");
    const std::size_t along = axis ? normalize_axis(*axis, first.ndim()) : 0;
    Shape shape = first.shape();
    shape[along] = 0;
    std::vector<DType> dtypes;
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        const Array& piece = pieces[k];
        if (piece.ndim() != first.ndim())
            throw InvalidArgumentError(concat(
                "all the input arrays must have same number of dimensions, but the array at index 0 has ", first.ndim(),
                " dimension(s) and the array at index ", k, " has ", piece.ndim(), " dimension(s)"));
        for (std::size_t d = 0; d < first.ndim(); ++d)
            if (d != along && piece.shape()[d] != first.shape()[d])
                throw InvalidArgumentError(
                    concat("all the input array dimensions except for the concatenation axis must match exactly, but "
                           "along dimension ",
                           d, ", the array at index 0 has size ", first.shape()[d], " and the array at index ", k,
                           " has size ", piece.shape()[d]));
        shape[along] += piece.shape()[along];
        dtypes.push_back(piece.dtype());
    }
    const DType dtype = options.out ? options.out->dtype() : options.dtype.value_or(result_type(dtypes));
    for (const Array& piece : pieces) check_cast(piece.dtype(), dtype, options.casting);
    if (options.out && options.out->shape() != shape)
        throw InvalidArgumentError(concat("Output array is the wrong shape: it is ", format_shape(options.out->shape()),
                                          ", the result ", format_shape(shape)));
    Array result = options.out ? *options.out : empty(shape, dtype, Order::C, first.device());
    std::int64_t offset = 0;
    for (const Array& piece : pieces) {
        const std::int64_t extent = piece.shape()[along];
        detail::copy_elements(piece, detail::along_axis(result, along, Slice{offset, offset + extent, 1}));
        offset += extent;
    }
    return result;
}

Array stack(std::span<const Array> arrays, std::int64_t axis, const JoinOptions& options) {
    if (arrays.empty()) throw InvalidArgumentError("need at least one array to stack");
    for (const Array& array : arrays)
        if (array.shape() != arrays.front().shape())
            throw InvalidArgumentError("all input arrays must have the same shape");
    const std::int64_t new_axis[] = {static_cast<std::int64_t>(normalize_axis(axis, arrays.front().ndim() + 1))};
    std::vector<Array> expanded;
    for (const Array& array : arrays) expanded.push_back(expand_dims(array, new_axis));
    return concatenate(expanded, new_axis[0], options);
}

Array vstack(std::span<const Array> arrays, const JoinOptions& options) {
    std::vector<Array> rows;
    for (const Array& array : arrays) rows.push_back(atleast_2d(array));
    return concatenate(rows, 0, options);
}

Array hstack(std::span<const Array> arrays, const JoinOptions& options) {
    std::vector<Array> columns;
    for (const Array& array : arrays) columns.push_back(atleast_1d(array));
    // 1-D arrays join end to end; others along their columns.
    const std::int64_t axis = !columns.empty() && columns.front().ndim() == 1 ? 0 : 1;
    return concatenate(columns, axis, options);
}

Array dstack(std::span<const Array> arrays, const JoinOptions& options) {
    std::vector<Array> layers;
    for (const Array& array : arrays) layers.push_back(atleast_3d(array));
    return concatenate(layers, 2, options);
}

Array column_stack(std::span<const Array> arrays) {
    std::vector<Array> columns;
    for (const Array& array : arrays) columns.push_back(array.ndim() < 2 ? atleast_2d(array).transpose() : array);
    return concatenate(columns, 1);
}

}  // namespace gpukit
