// python/src/reductions.cpp: the reductions (gpukit/reductions.hpp) as NumPy's functions and
// ndarray methods, with NumPy's arguments: axis (an int, a tuple or None), dtype, out, keepdims,
// initial, where, ddof. Arguments in, the core's array out.
#include <nanobind/stl/pair.h>
#include <tuple>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/advanced_indexing.hpp"
#include "gpukit/reductions.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

using Reduce = Array (*)(const Array&, const ReduceOptions&);
using Deviation = Array (*)(const Array&, const ReduceOptions&, double);
using ArgReduce = Array (*)(const Array&, const ArgOptions&);

// NumPy's arguments, None where not given (where=True: every element).
struct Given {
    nb::handle axis = nb::none(), dtype = nb::none(), out = nb::none(), keepdims = nb::bool_(false),
               initial = nb::none(), where = nb::bool_(true);
};

ReduceOptions options_of(const Given& given) {
    ReduceOptions options;
    if (!given.axis.is_none()) options.axis = to_axes(given.axis, "axis");
    options.dtype = to_optional_dtype(given.dtype);
    if (!given.out.is_none()) options.out = to_array(given.out, "out");
    options.keepdims = to_bool(given.keepdims, "keepdims");
    if (!given.initial.is_none()) options.initial = to_scalar(given.initial, "initial");
    if (!(nb::isinstance<nb::bool_>(given.where) && nb::cast<bool>(given.where)))
        options.where = to_array(given.where, "where");
    return options;
}

Array run(Reduce reduce, const Array& a, const ReduceOptions& options) {
    GilRelease unlocked;
    return reduce(a, options);
}

double ddof_of(nb::handle ddof, nb::handle correction) {
    if (!correction.is_none()) {
        if (!ddof.is_none() && nb::cast<double>(ddof) != 0)
            throw InvalidArgumentError("ddof and correction can't be provided simultaneously.");
        return nb::cast<double>(correction);
    }
    return ddof.is_none() ? 0.0 : nb::cast<double>(ddof);
}

// Families of NumPy signatures.
enum class Family { sum, extreme, logical, mean, plain };

struct Row {
    const char* name;
    Reduce reduce;
    Family family;
    bool method;  // an ndarray method too
    const char* doc;
};

const Row rows[] = {
    {"sum", &sum, Family::sum, true, "The sum of the elements over `axis` (all when None), as numpy.sum."},
    {"prod", &prod, Family::sum, true, "The product of the elements over `axis` (all when None), as numpy.prod."},
    {"nansum", &nansum, Family::sum, false, "The sum over `axis`, a nan counting as zero, as numpy.nansum."},
    {"nanprod", &nanprod, Family::sum, false, "The product over `axis`, a nan counting as one, as numpy.nanprod."},
    {"max", &max, Family::extreme, true, "The largest element over `axis` (a nan wins), as numpy.max."},
    {"amax", &amax, Family::extreme, false, "The largest element over `axis` (a nan wins), as numpy.amax."},
    {"min", &min, Family::extreme, true, "The smallest element over `axis` (a nan wins), as numpy.min."},
    {"amin", &amin, Family::extreme, false, "The smallest element over `axis` (a nan wins), as numpy.amin."},
    {"nanmax", &nanmax, Family::extreme, false, "The largest element over `axis`, skipping nans, as numpy.nanmax."},
    {"nanmin", &nanmin, Family::extreme, false, "The smallest element over `axis`, skipping nans, as numpy.nanmin."},
    {"any", &any, Family::logical, true, "Whether any element over `axis` is true (nonzero), as numpy.any."},
    {"all", &all, Family::logical, true, "Whether every element over `axis` is true (nonzero), as numpy.all."},
    {"mean", &mean, Family::mean, true, "The arithmetic mean over `axis`, as numpy.mean (integers in float64)."},
    {"nanmean", &nanmean, Family::mean, false, "The mean over `axis` of the elements that are no nan, as numpy.nanmean."},
    {"ptp", &ptp, Family::plain, true, "The range (max - min) over `axis`, as numpy.ptp."},
};

struct DeviationRow {
    const char* name;
    Deviation function;
    bool method;
    const char* doc;
};
const DeviationRow deviation_rows[] = {
    {"var", &var, true, "The variance over `axis`: the mean of |x - x.mean()|**2 times n / (n - ddof), as numpy.var."},
    {"std", &std, true, "The standard deviation over `axis`: the square root of var, as numpy.std."},
    {"nanvar", &nanvar, false, "The variance over `axis` of the elements that are no nan, as numpy.nanvar."},
    {"nanstd", &nanstd, false, "The standard deviation over `axis`, skipping nans, as numpy.nanstd."},
};

struct ArgRow {
    const char* name;
    ArgReduce function;
    bool method;
    const char* doc;
};
const ArgRow arg_rows[] = {
    {"argmax", &argmax, true, "The index of the largest element over `axis` (its first; a nan's first), as numpy.argmax."},
    {"argmin", &argmin, true, "The index of the smallest element over `axis` (its first; a nan's first), as numpy.argmin."},
    {"nanargmax", &nanargmax, false, "The index of the largest element that is no nan, as numpy.nanargmax."},
    {"nanargmin", &nanargmin, false, "The index of the smallest element that is no nan, as numpy.nanargmin."},
};

// The parameters after the array of a binding lambda `(const Array&, Args...)`.
template <class Method>
struct after_array;
template <class Class, class Result, class... Args>
struct after_array<Result (Class::*)(const Array&, Args...) const> {
    using type = std::tuple<Args...>;
};

template <class Function, class... Args, class... Extra>
void bind_both_with(nb::module_& m, nb::handle cls, const char* name, bool method, const Function& function,
                    std::tuple<Args...>* /*deduces Args*/, const Extra&... extra) {
    m.def(
        name, [function](nb::handle a, Args... rest) { return function(to_array(a, "a"), rest...); }, "a"_a.none(),
        extra...);
    if (method)
        add_method(
            cls, name, [function](const Array& self, Args... rest) { return function(self, rest...); }, extra...);
}

// Binds `function(a, ...)` as gpukit.<name> and, where `method`, as ndarray.<name>(...).
template <class Function, class... Extra>
void bind_both(nb::module_& m, nb::handle cls, const char* name, bool method, const Function& function,
               const Extra&... extra) {
    using Rest = typename after_array<decltype(&Function::operator())>::type;
    bind_both_with(m, cls, name, method, function, static_cast<Rest*>(nullptr), extra...);
}

}  // namespace

void bind_reductions(nb::module_& m) {
    nb::handle cls = nb::type<Array>();
    const auto none = [] { return nb::none(); };
    for (const Row& row : rows) {
        const Reduce reduce = row.reduce;
        switch (row.family) {
            case Family::sum:
                bind_both(
                    m, cls, row.name, row.method,
                    [reduce](const Array& a, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle keepdims,
                             nb::handle initial, nb::handle where) {
                        return run(reduce, a, options_of({axis, dtype, out, keepdims, initial, where}));
                    },
                    "axis"_a.none() = none(), "dtype"_a.none() = none(), "out"_a.none() = none(),
                    "keepdims"_a = false, "initial"_a.none() = none(), "where"_a.none() = true, row.doc);
                break;
            case Family::extreme:
                bind_both(
                    m, cls, row.name, row.method,
                    [reduce](const Array& a, nb::handle axis, nb::handle out, nb::handle keepdims, nb::handle initial,
                             nb::handle where) {
                        return run(reduce, a, options_of({axis, nb::none(), out, keepdims, initial, where}));
                    },
                    "axis"_a.none() = none(), "out"_a.none() = none(), "keepdims"_a = false,
                    "initial"_a.none() = none(), "where"_a.none() = true, row.doc);
                break;
            case Family::logical:
                bind_both(
                    m, cls, row.name, row.method,
                    [reduce](const Array& a, nb::handle axis, nb::handle out, nb::handle keepdims, nb::handle where) {
                        return run(reduce, a, options_of({axis, nb::none(), out, keepdims, nb::none(), where}));
                    },
                    "axis"_a.none() = none(), "out"_a.none() = none(), "keepdims"_a = false, nb::kw_only(),
                    "where"_a.none() = true, row.doc);
                break;
            case Family::mean:
                bind_both(
                    m, cls, row.name, row.method,
                    [reduce](const Array& a, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle keepdims,
                             nb::handle where) {
                        return run(reduce, a, options_of({axis, dtype, out, keepdims, nb::none(), where}));
                    },
                    "axis"_a.none() = none(), "dtype"_a.none() = none(), "out"_a.none() = none(),
                    "keepdims"_a = false, nb::kw_only(), "where"_a.none() = true, row.doc);
                break;
            case Family::plain:
                bind_both(
                    m, cls, row.name, row.method,
                    [reduce](const Array& a, nb::handle axis, nb::handle out, nb::handle keepdims) {
                        return run(reduce, a, options_of({axis, nb::none(), out, keepdims}));
                    },
                    "axis"_a.none() = none(), "out"_a.none() = none(), "keepdims"_a = false, row.doc);
                break;
        }
    }
    for (const DeviationRow& row : deviation_rows) {
        const Deviation function = row.function;
        bind_both(
            m, cls, row.name, row.method,
            [function](const Array& a, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle ddof,
                       nb::handle keepdims, nb::handle where, nb::handle correction) {
                const ReduceOptions options = options_of({axis, dtype, out, keepdims, nb::none(), where});
                const double degrees = ddof_of(ddof, correction);
                GilRelease unlocked;
                return function(a, options, degrees);
            },
            "axis"_a.none() = none(), "dtype"_a.none() = none(), "out"_a.none() = none(), "ddof"_a.none() = 0,
            "keepdims"_a = false, nb::kw_only(), "where"_a.none() = true, "correction"_a.none() = none(), row.doc);
    }
    for (const ArgRow& row : arg_rows) {
        const ArgReduce function = row.function;
        bind_both(
            m, cls, row.name, row.method,
            [function](const Array& a, nb::handle axis, nb::handle out, nb::handle keepdims) {
                ArgOptions options;
                options.axis = to_optional_axis(axis, "axis");
                if (!out.is_none()) options.out = to_array(out, "out");
                options.keepdims = to_bool(keepdims, "keepdims");
                GilRelease unlocked;
                return function(a, options);
            },
            "axis"_a.none() = none(), "out"_a.none() = none(), nb::kw_only(), "keepdims"_a = false, row.doc);
    }
    m.def(
        "count_nonzero",
        [](nb::handle a, nb::handle axis, nb::handle keepdims) {
            return run(&count_nonzero, to_array(a, "a"), options_of({axis, nb::none(), nb::none(), keepdims}));
        },
        "a"_a.none(), "axis"_a.none() = none(), nb::kw_only(), "keepdims"_a = false,
        "The number of nonzero elements over `axis` (int64; a 0-d array for all of them, as CuPy's).");
    m.def(
        "average",
        [](nb::handle a, nb::handle axis, nb::handle weights, nb::handle returned, nb::handle keepdims) -> nb::object {
            AverageOptions options;
            if (!axis.is_none()) options.axis = to_axes(axis, "axis");
            if (!weights.is_none()) options.weights = to_array(weights, "weights");
            options.keepdims = to_bool(keepdims, "keepdims");
            const Array& array = to_array(a, "a");
            Average result = [&] {
                GilRelease unlocked;
                return average(array, options);
            }();
            if (to_bool(returned, "returned"))
                return nb::make_tuple(std::move(result.average), std::move(result.sum_of_weights));
            return nb::cast(std::move(result.average));
        },
        "a"_a.none(), "axis"_a.none() = none(), "weights"_a.none() = none(), "returned"_a = false, nb::kw_only(),
        "keepdims"_a = false,
        "The weighted average over `axis` (the mean without weights), as numpy.average; with returned=True "
        "also the sum of the weights.");
}

}  // namespace gpukit::python
