// python/src/reductions.cpp: the reductions (gpukit/reductions.hpp) as NumPy's functions and
// ndarray methods: sum, prod, max/amax, min/amin, any, all, mean, with axis (an int, a tuple or
// None), dtype, out and keepdims. Arguments in, the core's array out.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/reductions.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

using Reduce = Array (*)(const Array&, const ReduceOptions&);

ReduceOptions options_of(nb::handle axis, nb::handle dtype, nb::handle out, nb::handle keepdims) {
    ReduceOptions options;
    if (!axis.is_none()) options.axis = to_axes(axis, "axis");
    options.dtype = to_optional_dtype(dtype);
    if (!out.is_none()) options.out = to_array(out, "out");
    options.keepdims = to_bool(keepdims, "keepdims");
    return options;
}

Array run(Reduce reduce, const Array& a, const ReduceOptions& options) {
    GilRelease unlocked;
    return reduce(a, options);
}

struct Row {
    const char* name;
    Reduce reduce;
    bool takes_dtype;  // NumPy's sum, prod and mean take dtype=; max, min, any and all do not
    const char* doc;
};

const Row rows[] = {
    {"sum", &sum, true, "The sum of the elements over `axis` (all when None), as numpy.sum."},
    {"prod", &prod, true, "The product of the elements over `axis` (all when None), as numpy.prod."},
    {"max", &max, false, "The largest element over `axis` (a nan wins), as numpy.max."},
    {"amax", &amax, false, "The largest element over `axis` (a nan wins), as numpy.amax."},
    {"min", &min, false, "The smallest element over `axis` (a nan wins), as numpy.min."},
    {"amin", &amin, false, "The smallest element over `axis` (a nan wins), as numpy.amin."},
    {"any", &any, false, "Whether any element over `axis` is true (nonzero), as numpy.any."},
    {"all", &all, false, "Whether every element over `axis` is true (nonzero), as numpy.all."},
    {"mean", &mean, true, "The arithmetic mean over `axis`, as numpy.mean (integers in float64)."},
};

}  // namespace

void bind_reductions(nb::module_& m) {
    nb::handle cls = nb::type<Array>();
    for (const Row& row : rows) {
        const Reduce reduce = row.reduce;
        if (row.takes_dtype) {
            m.def(
                row.name,
                [reduce](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle keepdims) {
                    return run(reduce, to_array(a, "a"), options_of(axis, dtype, out, keepdims));
                },
                "a"_a.none(), "axis"_a.none() = nb::none(), "dtype"_a.none() = nb::none(), "out"_a.none() = nb::none(),
                "keepdims"_a = false, row.doc);
            add_method(
                cls, row.name,
                [reduce](const Array& self, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle keepdims) {
                    return run(reduce, self, options_of(axis, dtype, out, keepdims));
                },
                "axis"_a.none() = nb::none(), "dtype"_a.none() = nb::none(), "out"_a.none() = nb::none(),
                "keepdims"_a = false, row.doc);
        } else {
            m.def(
                row.name,
                [reduce](nb::handle a, nb::handle axis, nb::handle out, nb::handle keepdims) {
                    return run(reduce, to_array(a, "a"), options_of(axis, nb::none(), out, keepdims));
                },
                "a"_a.none(), "axis"_a.none() = nb::none(), "out"_a.none() = nb::none(), "keepdims"_a = false, row.doc);
            add_method(
                cls, row.name,
                [reduce](const Array& self, nb::handle axis, nb::handle out, nb::handle keepdims) {
                    return run(reduce, self, options_of(axis, nb::none(), out, keepdims));
                },
                "axis"_a.none() = nb::none(), "out"_a.none() = nb::none(), "keepdims"_a = false, row.doc);
        }
    }
}

}  // namespace gpukit::python
