// python/src/quantiles.cpp: quantile, percentile, median and their nan forms
// (gpukit/quantiles.hpp) with NumPy's arguments: q a number or a sequence (any shape; a gpukit
// array is read to the host: quantiles are few), axis, out, overwrite_input (accepted: the input is
// never changed), method (interpolation=, its old name, too), keepdims.
#include <nanobind/stl/string.h>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/quantiles.hpp"
#include "numpy_bridge.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

using Quantiles = Array (*)(const Array&, std::span<const double>, const Shape&, const QuantileOptions&);
using Median = Array (*)(const Array&, const QuantileOptions&);

QuantileOptions options_of(nb::handle axis, nb::handle out, nb::handle keepdims, nb::handle method,
                           nb::handle interpolation) {
    QuantileOptions options;
    if (!axis.is_none()) options.axis = to_axes(axis, "axis");
    if (!out.is_none()) options.out = to_array(out, "out");
    options.keepdims = to_bool(keepdims, "keepdims");
    if (!interpolation.is_none()) {
        if (to_str(method, "method") != "linear")
            throw InvalidArgumentError("give method= or interpolation= (its deprecated name), not both");
        method = interpolation;
    }
    options.method = parse_quantile_method(to_str(method, "method"));
    return options;
}

// q as float64 host values and their shape.
std::pair<std::vector<double>, Shape> quantiles_of(nb::handle q) {
    nb::object values = nb::isinstance<Array>(q) ? nb::cast(nb::cast<const Array&>(q)).attr("get")() : nb::borrow(q);
    // numpy.array keeps a 0-d q 0-d (ascontiguousarray would make it 1-d).
    nb::object host = numpy_module().attr("array")(values, "dtype"_a = "float64", "order"_a = "C");
    Shape shape;
    for (nb::handle extent : nb::borrow<nb::tuple>(host.attr("shape"))) shape.push_back(nb::cast<std::int64_t>(extent));
    const nb::bytes bytes = nb::borrow<nb::bytes>(host.attr("tobytes")());
    std::vector<double> result(static_cast<std::size_t>(element_count(shape)));
    std::memcpy(result.data(), bytes.c_str(), result.size() * sizeof(double));
    return {std::move(result), std::move(shape)};
}

}  // namespace

void bind_quantiles(nb::module_& m) {
    const struct {
        const char* name;
        Quantiles function;
        const char* doc;
    } quantile_rows[] = {
        {"quantile", &quantile, "The q-th quantiles (q in [0, 1]) over `axis`, as numpy.quantile."},
        {"nanquantile", &nanquantile, "The q-th quantiles over `axis`, skipping nans, as numpy.nanquantile."},
        {"percentile", &percentile, "The q-th percentiles (q in [0, 100]) over `axis`, as numpy.percentile."},
        {"nanpercentile", &nanpercentile, "The q-th percentiles over `axis`, skipping nans, as numpy.nanpercentile."},
    };
    for (const auto& row : quantile_rows) {
        const Quantiles function = row.function;
        m.def(
            row.name,
            [function](nb::handle a, nb::handle q, nb::handle axis, nb::handle out, nb::handle overwrite_input,
                       nb::handle method, nb::handle keepdims, nb::handle interpolation) {
                (void)to_bool(overwrite_input, "overwrite_input");
                const Array& array = to_array(a, "a");
                const auto [values, shape] = quantiles_of(q);
                const QuantileOptions options = options_of(axis, out, keepdims, method, interpolation);
                GilRelease unlocked;
                return function(array, values, shape, options);
            },
            "a"_a.none(), "q"_a.none(), "axis"_a.none() = nb::none(), "out"_a.none() = nb::none(),
            "overwrite_input"_a = false, "method"_a = "linear", "keepdims"_a = false, nb::kw_only(),
            "interpolation"_a.none() = nb::none(), row.doc);
    }
    const struct {
        const char* name;
        Median function;
        const char* doc;
    } median_rows[] = {
        {"median", &median, "The median over `axis`, as numpy.median."},
        {"nanmedian", &nanmedian, "The median over `axis`, skipping nans, as numpy.nanmedian."},
    };
    for (const auto& row : median_rows) {
        const Median function = row.function;
        m.def(
            row.name,
            [function](nb::handle a, nb::handle axis, nb::handle out, nb::handle overwrite_input, nb::handle keepdims) {
                (void)to_bool(overwrite_input, "overwrite_input");
                const Array& array = to_array(a, "a");
                const QuantileOptions options = options_of(axis, out, keepdims, nb::str("linear"), nb::none());
                GilRelease unlocked;
                return function(array, options);
            },
            "a"_a.none(), "axis"_a.none() = nb::none(), "out"_a.none() = nb::none(), "overwrite_input"_a = false,
            "keepdims"_a = false, row.doc);
    }
}

}  // namespace gpukit::python
