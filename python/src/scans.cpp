// python/src/scans.cpp: the scans and differences (gpukit/scans.hpp) as NumPy's functions:
// cumsum, cumprod, nancumsum, nancumprod (axis, dtype, out; cumsum and cumprod as ndarray methods
// too), cumulative_sum and cumulative_prod (NumPy 2's and the Array API's: axis, dtype, out,
// include_initial), diff (n, axis, prepend, append) and ediff1d (to_end, to_begin). Arguments in,
// the core's array out.
#include <nanobind/stl/string.h>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/scans.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

using ScanFunction = Array (*)(const Array&, const ScanOptions&);

ScanOptions options_of(nb::handle axis, nb::handle dtype, nb::handle out) {
    ScanOptions options;
    options.axis = to_optional_axis(axis, "axis");
    options.dtype = to_optional_dtype(dtype);
    if (!out.is_none()) options.out = to_array(out, "out");
    return options;
}

Array run(ScanFunction scan, const Array& a, const ScanOptions& options) {
    GilRelease unlocked;
    return scan(a, options);
}

// prepend, append, to_begin, to_end: a gpukit array, or a number as the 0-d array NumPy makes of it.
std::optional<Array> optional_values(nb::handle value, std::string_view name) {
    if (value.is_none()) return std::nullopt;
    if (is_scalar(value)) return full({}, to_scalar(value, name));
    return to_array(value, name);
}

struct Row {
    const char* name;
    ScanFunction scan;
    bool method;  // NumPy's ndarray has cumsum and cumprod
    const char* doc;
};

const Row rows[] = {
    {"cumsum", &cumsum, true, "The cumulative sum along `axis` (the flattened array when None), as numpy.cumsum."},
    {"cumprod", &cumprod, true,
     "The cumulative product along `axis` (the flattened array when None), as numpy.cumprod."},
    {"nancumsum", &nancumsum, false, "The cumulative sum taking nan as 0, as numpy.nancumsum."},
    {"nancumprod", &nancumprod, false, "The cumulative product taking nan as 1, as numpy.nancumprod."},
};

}  // namespace

void bind_scans(nb::module_& m) {
    nb::handle cls = nb::type<Array>();
    for (const Row& row : rows) {
        const ScanFunction scan = row.scan;
        m.def(
            row.name,
            [scan](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out) {
                return run(scan, to_array(a, "a"), options_of(axis, dtype, out));
            },
            "a"_a.none(), "axis"_a.none() = nb::none(), "dtype"_a.none() = nb::none(), "out"_a.none() = nb::none(),
            row.doc);
        if (row.method)
            add_method(
                cls, row.name,
                [scan](const Array& self, nb::handle axis, nb::handle dtype, nb::handle out) {
                    return run(scan, self, options_of(axis, dtype, out));
                },
                "axis"_a.none() = nb::none(), "dtype"_a.none() = nb::none(), "out"_a.none() = nb::none(), row.doc);
    }
    using CumulativeFunction = Array (*)(const Array&, const CumulativeOptions&);
    const auto bind_cumulative = [&](const char* name, CumulativeFunction scan, const char* doc) {
        m.def(
            name,
            [scan](nb::handle x, nb::handle axis, nb::handle dtype, nb::handle out, bool include_initial) {
                CumulativeOptions options;
                options.axis = to_optional_axis(axis, "axis");
                options.dtype = to_optional_dtype(dtype);
                if (!out.is_none()) options.out = to_array(out, "out");
                options.include_initial = include_initial;
                const Array& array = to_array(x, "x");
                GilRelease unlocked;
                return scan(array, options);
            },
            "x"_a.none(), nb::kw_only(), "axis"_a.none() = nb::none(), "dtype"_a.none() = nb::none(),
            "out"_a.none() = nb::none(), "include_initial"_a = false, doc);
    };
    bind_cumulative("cumulative_sum", &cumulative_sum,
                    "The cumulative sum along `axis` (which arrays of two or more dimensions must name), with 0 "
                    "first when include_initial, as numpy.cumulative_sum (the Array API's).");
    bind_cumulative("cumulative_prod", &cumulative_prod,
                    "The cumulative product along `axis` (which arrays of two or more dimensions must name), with 1 "
                    "first when include_initial, as numpy.cumulative_prod (the Array API's).");
    m.def(
        "diff",
        [](nb::handle a, nb::handle n, nb::handle axis, nb::handle prepend, nb::handle append) {
            DiffOptions options;
            options.n = to_int64(n, "n");
            options.axis = to_int64(axis, "axis");
            options.prepend = optional_values(prepend, "prepend");
            options.append = optional_values(append, "append");
            const Array& array = to_array(a, "a");
            GilRelease unlocked;
            return diff(array, options);
        },
        "a"_a.none(), "n"_a = 1, "axis"_a = -1, "prepend"_a.none() = nb::none(), "append"_a.none() = nb::none(),
        "The n-th differences of neighbours along `axis` (bools: whether they differ), as numpy.diff; prepend and "
        "append (arrays, or numbers repeated along the axis) are joined on first.");
    m.def(
        "ediff1d",
        [](nb::handle ary, nb::handle to_end, nb::handle to_begin) {
            const Array& array = to_array(ary, "ary");
            const std::optional<Array> end = optional_values(to_end, "to_end");
            const std::optional<Array> begin = optional_values(to_begin, "to_begin");
            GilRelease unlocked;
            return ediff1d(array, end, begin);
        },
        "ary"_a.none(), "to_end"_a.none() = nb::none(), "to_begin"_a.none() = nb::none(),
        "The differences of neighbours of the flattened array, with to_begin and to_end around them (cast to its "
        "dtype), as numpy.ediff1d.");
}

}  // namespace gpukit::python
