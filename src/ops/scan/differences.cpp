// src/ops/scan/differences.cpp: diff and ediff1d (include/gpukit/scans.hpp), made of views and
// elementwise operations as NumPy makes them: neighbours' differences are upper - lower of two
// overlapping slices, and prepend, append, to_begin and to_end are joined on with concatenate.
#include <vector>

#include "array/along_axis.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/scans.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace {

// `values` shaped to stand before or after `a` along `axis`: a scalar (0-d) broadcast to a's shape
// with that axis of extent 1; arrays as they are.
Array shaped_to_join(const Array& values, const Array& a, std::size_t axis) {
    if (values.ndim() != 0) return values;
    Shape shape = a.shape();
    shape[axis] = 1;
    return broadcast_to(values, shape);
}

}  // namespace

Array diff(const Array& a, const DiffOptions& options) {
    if (options.n < 0) throw InvalidArgumentError(detail::concat("order must be non-negative but got ", options.n));
    if (a.ndim() == 0) throw InvalidArgumentError("diff requires input that is at least one dimensional");
    const std::size_t axis = normalize_axis(options.axis, a.ndim());
    if (options.n == 0) return a;
    Array result = a;
    if (options.prepend || options.append) {
        std::vector<Array> parts;
        if (options.prepend) parts.push_back(shaped_to_join(*options.prepend, a, axis));
        parts.push_back(a);
        if (options.append) parts.push_back(shaped_to_join(*options.append, a, axis));
        result = concatenate(parts, static_cast<std::int64_t>(axis));
    }
    for (std::int64_t k = 0; k < options.n; ++k) {
        const Array upper = detail::along_axis(result, axis, Slice{1, std::nullopt, std::nullopt});
        const Array lower = detail::along_axis(result, axis, Slice{std::nullopt, -1, std::nullopt});
        result = result.dtype() == DType::bool_ ? not_equal(upper, lower) : subtract(upper, lower);
    }
    return result;
}

Array ediff1d(const Array& ary, const std::optional<Array>& to_end, const std::optional<Array>& to_begin) {
    const Array flat = ary.ravel();
    const DType dtype = flat.dtype();
    const auto edge = [&](const Array& values, const char* name) {
        if (!can_cast(values.dtype(), dtype, Casting::same_kind))
            throw DTypeError(detail::concat("dtype of `", name, "` must be compatible with input `ary` under the ",
                                            "`same_kind` rule."));
        return values.ravel().astype(dtype);
    };
    Array differences = subtract(flat.index({Slice{1, std::nullopt, std::nullopt}}),
                                 flat.index({Slice{std::nullopt, -1, std::nullopt}}));
    if (!to_begin && !to_end) return differences;
    std::vector<Array> parts;
    if (to_begin) parts.push_back(edge(*to_begin, "to_begin"));
    parts.push_back(differences);
    if (to_end) parts.push_back(edge(*to_end, "to_end"));
    return concatenate(parts, 0);
}

}  // namespace gpukit
