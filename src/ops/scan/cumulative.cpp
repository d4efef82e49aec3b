// src/ops/scan/cumulative.cpp: cumulative_sum and cumulative_prod (include/gpukit/scans.hpp), the
// Array API's scans, made of cumsum and cumprod as NumPy 2 makes them: with include_initial the
// scan writes every slice along the axis but the first, which the identity fills.
#include <string_view>

#include "array/along_axis.hpp"
#include "gpukit/error.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/scans.hpp"
#include "ops/scan/generator.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace {

using ScanFunction = Array (*)(const Array&, const ScanOptions&);

Array cumulative(std::string_view name, ScanFunction scan, int identity, const Array& x,
                 const CumulativeOptions& options) {
    const Array input = x.ndim() == 0 ? x.reshape({1}) : x;
    if (!options.axis && input.ndim() > 1)
        throw InvalidArgumentError(detail::concat(name, " of an array of ", input.ndim(),
                                                  " dimensions needs axis=: arrays of more than one dimension must "
                                                  "name the axis they scan"));
    const std::size_t axis = normalize_axis(options.axis.value_or(0), input.ndim());
    Shape shape = input.shape();
    if (options.include_initial) shape[axis] += 1;
    if (options.out && options.out->shape() != shape)
        throw InvalidArgumentError(detail::concat("out= of ", name, " has shape ", format_shape(options.out->shape()),
                                                  ", not the result's shape ", format_shape(shape)));
    ScanOptions scanned{.axis = static_cast<std::int64_t>(axis), .dtype = options.dtype, .out = options.out};
    if (!options.include_initial) return scan(input, scanned);
    Array result = options.out ? *options.out
                               : Array::empty(shape, detail::scan_dtypes(x.dtype(), options.dtype).output, x.device());
    scanned.out = detail::along_axis(result, axis, Slice{1, std::nullopt, std::nullopt});
    scan(input, scanned);  // checks out='s device and dtype before anything is written
    detail::along_axis(result, axis, Slice{0, 1, std::nullopt}).fill(identity);
    return result;
}

}  // namespace

Array cumulative_sum(const Array& x, const CumulativeOptions& options) {
    return cumulative("cumulative_sum", &cumsum, 0, x, options);
}

Array cumulative_prod(const Array& x, const CumulativeOptions& options) {
    return cumulative("cumulative_prod", &cumprod, 1, x, options);
}

}  // namespace gpukit
