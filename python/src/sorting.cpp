// python/src/sorting.cpp: sorting, searching and the set routines (gpukit/sorting.hpp) as NumPy's
// functions and ndarray methods: sort, argsort, lexsort, partition, argpartition, searchsorted,
// unique, isin, in1d, intersect1d, union1d, setdiff1d, setxor1d. Arguments in, the core's arrays out.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/sorting.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

// kind=, stable= and order= as NumPy checks them (every gpukit sort is stable).
void check_kind(nb::handle kind, nb::handle stable, nb::handle order) {
    std::optional<std::string> kind_name;
    if (!kind.is_none()) kind_name = to_str(kind, "kind");
    std::optional<bool> is_stable;
    if (!stable.is_none()) is_stable = to_bool(stable, "stable");
    check_sort_arguments(kind_name, is_stable, !order.is_none());
}

// An array, or a number as a 0-d array on `device` (searchsorted's v, isin's element).
Array array_or_scalar(nb::handle value, std::string_view name, const Device& device) {
    if (is_scalar(value) || nb::isinstance<nb::int_>(value) || nb::isinstance<nb::float_>(value) ||
        nb::isinstance<nb::bool_>(value) || PyComplex_Check(value.ptr()))
        return full({}, to_scalar(value, name), std::nullopt, Order::C, device);
    return to_array(value, name);
}

std::vector<std::int64_t> kth_of(nb::handle kth) {
    if (nb::isinstance<nb::float_>(kth)) throw nb::type_error("Partition index must be integer");
    return to_axes(kth, "kth");
}

// lexsort's keys: a sequence of arrays, or one array whose first axis enumerates them.
std::vector<Array> keys_of(nb::handle keys) {
    if (nb::isinstance<Array>(keys)) {
        const Array& stacked = to_array(keys, "keys");
        if (stacked.ndim() == 0) throw nb::type_error("need sequence of keys with len > 0 in lexsort");
        std::vector<Array> rows;
        for (std::int64_t k = 0; k < stacked.shape()[0]; ++k) rows.push_back(stacked.index({Index(k)}));
        return rows;
    }
    return to_arrays(keys, "keys");
}

nb::object unique_result(UniqueResult&& result, const UniqueOptions& options) {
    if (!options.return_index && !options.return_inverse && !options.return_counts) return nb::cast(result.values);
    nb::list parts;
    parts.append(nb::cast(result.values));
    if (result.index) parts.append(nb::cast(*result.index));
    if (result.inverse) parts.append(nb::cast(*result.inverse));
    if (result.counts) parts.append(nb::cast(*result.counts));
    return nb::tuple(parts);
}

// NumPy 2's (the Array API's) unique_all, unique_counts, unique_inverse and unique_values: unique of
// the flattened array with each NaN its own value, the parts as named tuples of NumPy's field names
// (the inverse in the input's shape).
void bind_unique_family(nb::module_& m) {
    const nb::object namedtuple = nb::module_::import_("collections").attr("namedtuple");
    struct Member {
        const char* name;
        UniqueOptions parts;  // which parts beside the values; the family counts each NaN apart (below)
        const char* type;     // the named tuple's; none: the values alone
        const char* fields;   // the named tuple's, as namedtuple takes them
        const char* doc;
    };
    const Member members[] = {
        {"unique_all",
         {.return_index = true, .return_inverse = true, .return_counts = true},
         "UniqueAllResult",
         "values indices inverse_indices counts",
         "The unique elements with their first indices, the inverse and the counts, as numpy.unique_all."},
        {"unique_counts",
         {.return_counts = true},
         "UniqueCountsResult",
         "values counts",
         "The unique elements and how often each occurs, as numpy.unique_counts."},
        {"unique_inverse",
         {.return_inverse = true},
         "UniqueInverseResult",
         "values inverse_indices",
         "The unique elements and the indices into them that rebuild x, as numpy.unique_inverse."},
        {"unique_values", {}, nullptr, nullptr, "The unique elements (each NaN its own), as numpy.unique_values."},
    };
    for (const Member& member : members) {
        nb::object type = nb::none();
        if (member.type) {
            type = namedtuple(member.type, member.fields, "module"_a = m.attr("__name__"));
            m.attr(member.type) = type;
        }
        UniqueOptions options = member.parts;
        options.equal_nan = false;
        m.def(
            member.name,
            [type, options](nb::handle x) -> nb::object {
                const Array& array = to_array(x, "x");
                UniqueResult result = [&] {
                    GilRelease unlocked;
                    return unique(array, options);
                }();
                nb::object parts = unique_result(std::move(result), options);
                return type.is_none() ? parts : type(*parts);
            },
            "x"_a.none(), member.doc);
    }
}

// numpy.sort and numpy.argsort: the same arguments, checked alike.
// descending= is the Array API's (largest first, stable).
template <Array (*Sorting)(const Array&, std::optional<std::int64_t>),
          Array (*Descending)(const Array&, std::optional<std::int64_t>)>
Array sorted_by(nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable,
                nb::handle descending) {
    check_kind(kind, stable, order);
    const Array& array = to_array(a, "a");
    const auto sorted_axis = to_optional_axis(axis, "axis");
    const bool largest_first = to_bool(descending, "descending");
    GilRelease unlocked;
    return largest_first ? Descending(array, sorted_axis) : Sorting(array, sorted_axis);
}

}  // namespace

void bind_sorting(nb::module_& m) {
    nb::handle cls = nb::type<Array>();
    const char* sort_doc = "A sorted copy along `axis` (None: flattened), as numpy.sort; always stable, NaN last.";
    const char* argsort_doc = "The indices that sort along `axis` (None: flattened), as numpy.argsort(kind='stable').";
    m.def("sort", &sorted_by<&sort, &sort_descending>, "a"_a.none(), "axis"_a.none() = -1, "kind"_a.none() = nb::none(),
          "order"_a.none() = nb::none(), nb::kw_only(), "stable"_a.none() = nb::none(), "descending"_a = false,
          sort_doc);
    m.def("argsort", &sorted_by<&argsort, &argsort_descending>, "a"_a.none(), "axis"_a.none() = -1,
          "kind"_a.none() = nb::none(), "order"_a.none() = nb::none(), nb::kw_only(), "stable"_a.none() = nb::none(),
          "descending"_a = false, argsort_doc);
    add_method(
        cls, "sort",
        [](const Array& self, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable) {
            check_kind(kind, stable, order);
            const std::int64_t sorted_axis = to_int64(axis, "axis");
            GilRelease unlocked;
            sort_in_place(self, sorted_axis);
        },
        "axis"_a = -1, "kind"_a.none() = nb::none(), "order"_a.none() = nb::none(), nb::kw_only(),
        "stable"_a.none() = nb::none(), "Sorts the array in place along `axis`, as ndarray.sort.");
    add_method(
        cls, "argsort",
        [](const Array& self, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable) {
            check_kind(kind, stable, order);
            const auto sorted_axis = to_optional_axis(axis, "axis");
            GilRelease unlocked;
            return argsort(self, sorted_axis);
        },
        "axis"_a.none() = -1, "kind"_a.none() = nb::none(), "order"_a.none() = nb::none(), nb::kw_only(),
        "stable"_a.none() = nb::none(), argsort_doc);

    m.def(
        "lexsort",
        [](nb::handle keys, std::int64_t axis) {
            const std::vector<Array> arrays = keys_of(keys);
            GilRelease unlocked;
            return lexsort(arrays, axis);
        },
        "keys"_a, "axis"_a = -1, "The indices that sort by several keys, the last one primary, as numpy.lexsort.");

    for (const bool indices : {false, true}) {
        const char* name = indices ? "argpartition" : "partition";
        const char* doc = indices ? "Indices that partition around each kth, as numpy.argpartition (a stable sort)."
                                  : "A copy partitioned around each kth, as numpy.partition (a stable sort).";
        m.def(
            name,
            [indices](nb::handle a, nb::handle kth, nb::handle axis, nb::handle kind, nb::handle order) {
                check_partition_arguments(to_str(kind, "kind"), !order.is_none());
                const Array& array = to_array(a, "a");
                const std::vector<std::int64_t> k = kth_of(kth);
                const auto sorted_axis = to_optional_axis(axis, "axis");
                GilRelease unlocked;
                return indices ? argpartition(array, k, sorted_axis) : partition(array, k, sorted_axis);
            },
            "a"_a.none(), "kth"_a, "axis"_a.none() = -1, "kind"_a = "introselect", "order"_a.none() = nb::none(), doc);
    }
    add_method(
        cls, "partition",
        [](const Array& self, nb::handle kth, std::int64_t axis, nb::handle kind, nb::handle order) {
            check_partition_arguments(to_str(kind, "kind"), !order.is_none());
            const std::vector<std::int64_t> k = kth_of(kth);
            GilRelease unlocked;
            (void)partition(self, k, axis);  // checks kth
            sort_in_place(self, axis);
        },
        "kth"_a, "axis"_a = -1, "kind"_a = "introselect", "order"_a.none() = nb::none(),
        "Partitions the array in place around each kth, as ndarray.partition (a stable sort).");
    add_method(
        cls, "argpartition",
        [](const Array& self, nb::handle kth, nb::handle axis, nb::handle kind, nb::handle order) {
            check_partition_arguments(to_str(kind, "kind"), !order.is_none());
            const std::vector<std::int64_t> k = kth_of(kth);
            const auto sorted_axis = to_optional_axis(axis, "axis");
            GilRelease unlocked;
            return argpartition(self, k, sorted_axis);
        },
        "kth"_a, "axis"_a.none() = -1, "kind"_a = "introselect", "order"_a.none() = nb::none(),
        "Indices that partition around each kth, as ndarray.argpartition (a stable sort).");

    const char* search_doc = "Where each v would go in the sorted 1-D array, as numpy.searchsorted.";
    m.def(
        "searchsorted",
        [](nb::handle a, nb::handle v, nb::handle side, nb::handle sorter) {
            const Array& array = to_array(a, "a");
            const Array needles = array_or_scalar(v, "v", array.device());
            const Side where = parse_side(to_str(side, "side"));
            std::optional<Array> order;
            if (!sorter.is_none()) order = to_array(sorter, "sorter");
            GilRelease unlocked;
            return searchsorted(array, needles, where, order);
        },
        "a"_a.none(), "v"_a.none(), "side"_a = "left", "sorter"_a.none() = nb::none(), search_doc);
    add_method(
        cls, "searchsorted",
        [](const Array& self, nb::handle v, nb::handle side, nb::handle sorter) {
            const Array needles = array_or_scalar(v, "v", self.device());
            const Side where = parse_side(to_str(side, "side"));
            std::optional<Array> order;
            if (!sorter.is_none()) order = to_array(sorter, "sorter");
            GilRelease unlocked;
            return searchsorted(self, needles, where, order);
        },
        "v"_a.none(), "side"_a = "left", "sorter"_a.none() = nb::none(), search_doc);

    m.def(
        "unique",
        [](nb::handle ar, bool return_index, bool return_inverse, bool return_counts, nb::handle axis, bool equal_nan,
           bool sorted) {
            (void)sorted;  // NumPy's sorted=False allows sorted results: they always are here
            const Array& array = to_array(ar, "ar");
            const UniqueOptions options{return_index, return_inverse, return_counts, to_optional_axis(axis, "axis"),
                                        equal_nan};
            UniqueResult result = [&] {
                GilRelease unlocked;
                return unique(array, options);
            }();
            return unique_result(std::move(result), options);
        },
        "ar"_a.none(), "return_index"_a = false, "return_inverse"_a = false, "return_counts"_a = false,
        "axis"_a.none() = nb::none(), nb::kw_only(), "equal_nan"_a = true, "sorted"_a = true,
        "The sorted unique elements or subarrays along `axis` (and first indices, inverse, counts), as numpy.unique.");
    bind_unique_family(m);
    m.def(
        "isin",
        [](nb::handle element, nb::handle test_elements, bool assume_unique, bool invert, nb::handle kind) {
            (void)kind;
            const Array& tests = to_array(test_elements, "test_elements");
            const Array elements = array_or_scalar(element, "element", tests.device());
            GilRelease unlocked;
            return isin(elements, tests, assume_unique, invert);
        },
        "element"_a.none(), "test_elements"_a.none(), "assume_unique"_a = false, "invert"_a = false, nb::kw_only(),
        "kind"_a.none() = nb::none(), "Whether each element is in test_elements (NaN never is), as numpy.isin.");
    m.def(
        "in1d",
        [](nb::handle ar1, nb::handle ar2, bool assume_unique, bool invert, nb::handle kind) {
            (void)kind;
            const Array& first = to_array(ar1, "ar1");
            const Array& second = to_array(ar2, "ar2");
            GilRelease unlocked;
            return in1d(first, second, assume_unique, invert);
        },
        "ar1"_a.none(), "ar2"_a.none(), "assume_unique"_a = false, "invert"_a = false, nb::kw_only(),
        "kind"_a.none() = nb::none(), "Whether each element of the flattened ar1 is in ar2, as NumPy 1's in1d.");
    m.def(
        "intersect1d",
        [](nb::handle ar1, nb::handle ar2, bool assume_unique, bool return_indices) -> nb::object {
            const Array& first = to_array(ar1, "ar1");
            const Array& second = to_array(ar2, "ar2");
            Intersection result = [&] {
                GilRelease unlocked;
                return intersect1d(first, second, assume_unique, return_indices);
            }();
            if (!return_indices) return nb::cast(result.values);
            return nb::make_tuple(result.values, *result.indices1, *result.indices2);
        },
        "ar1"_a.none(), "ar2"_a.none(), "assume_unique"_a = false, "return_indices"_a = false,
        "The sorted unique values in both arrays, as numpy.intersect1d.");
    m.def(
        "union1d",
        [](nb::handle ar1, nb::handle ar2) {
            const Array& first = to_array(ar1, "ar1");
            const Array& second = to_array(ar2, "ar2");
            GilRelease unlocked;
            return union1d(first, second);
        },
        "ar1"_a.none(), "ar2"_a.none(), "The sorted unique values in either array, as numpy.union1d.");
    m.def(
        "setdiff1d",
        [](nb::handle ar1, nb::handle ar2, bool assume_unique) {
            const Array& first = to_array(ar1, "ar1");
            const Array& second = to_array(ar2, "ar2");
            GilRelease unlocked;
            return setdiff1d(first, second, assume_unique);
        },
        "ar1"_a.none(), "ar2"_a.none(), "assume_unique"_a = false,
        "The unique values of ar1 that are not in ar2, as numpy.setdiff1d.");
    m.def(
        "setxor1d",
        [](nb::handle ar1, nb::handle ar2, bool assume_unique) {
            const Array& first = to_array(ar1, "ar1");
            const Array& second = to_array(ar2, "ar2");
            GilRelease unlocked;
            return setxor1d(first, second, assume_unique);
        },
        "ar1"_a.none(), "ar2"_a.none(), "assume_unique"_a = false,
        "The sorted values in exactly one of the arrays, as numpy.setxor1d.");
}

}  // namespace gpukit::python
