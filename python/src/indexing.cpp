// python/src/indexing.cpp: keys with index arrays, and gpukit.take, put, take_along_axis,
// put_along_axis, compress, nonzero, argwhere, flatnonzero (gpukit/advanced_indexing.hpp does the
// work; this file translates arguments and releases the GIL while the device is waited for).
#include "indexing.hpp"

#include <nanobind/stl/string.h>

#include <string>

#include "arguments.hpp"
#include "bindings.hpp"
#include "gpukit/shape_ops.hpp"
#include "numpy_bridge.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

const char* const not_an_index =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are "
    "valid indices";

std::optional<std::int64_t> slice_bound(PyObject* bound) {
    if (bound == Py_None) return std::nullopt;
    if (!PyIndex_Check(bound)) raise_type_error("slice indices must be ints or None, not " + describe_value(bound));
    return to_clamped_int64(bound);  // as Python's slices do, bounds beyond any extent clamp
}

bool is_numpy_bool(nb::handle value) {
    const std::string_view type = Py_TYPE(value.ptr())->tp_name;
    return type == "numpy.bool" || type == "numpy.bool_";
}

bool is_numpy_array(nb::handle value) {
    static PyObject* const ndarray =
        nb::object(numpy_module().attr("ndarray")).release().ptr();  // kept for the process
    return PyObject_TypeCheck(value.ptr(), reinterpret_cast<PyTypeObject*>(ndarray)) != 0;
}

// A host index (a NumPy array or a list): an index array, or a bool for a 0-d boolean one.
KeyItem host_index(nb::handle item, const Device& device) {
    nb::object host;
    try {
        host = as_numpy(item);
    } catch (nb::python_error&) {
        throw IndexError(not_an_index);  // a ragged list, say
    }
    const char kind = str_of(host.attr("dtype").attr("kind")).at(0);
    const bool empty = nb::cast<std::int64_t>(host.attr("size")) == 0;
    if (kind == 'b' && nb::cast<int>(host.attr("ndim")) == 0) return nb::cast<bool>(host.attr("item")());
    if (kind != 'b' && kind != 'i' && kind != 'u') {
        if (!(empty && !is_numpy_array(item)))  // [] means no indices
            throw IndexError(kind == 'f' || kind == 'c' ? "arrays used as indices must be of integer (or boolean) type"
                                                        : not_an_index);
        host = host.attr("astype")("int64");
    }
    return to_device_array(host, device, "index", true);
}

std::int64_t index_value(PyObject* object) {
    nb::object index = nb::steal(PyNumber_Index(object));
    if (!index.is_valid()) nb::raise_python_error();
    int overflow = 0;
    const long long n = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (overflow != 0)
        throw IndexError("index " + str_of(index) + " is out of bounds for any axis (an index is a 64-bit integer)");
    return static_cast<std::int64_t>(n);
}

// The common items (ints, slices) are tried first: x[1:3] costs a few hundred nanoseconds in all.
KeyItem to_key_item(nb::handle item, const Device& device) {
    PyObject* object = item.ptr();
    if (PySlice_Check(object)) {
        auto* slice = reinterpret_cast<PySliceObject*>(object);
        return Slice{slice_bound(slice->start), slice_bound(slice->stop), slice_bound(slice->step)};
    }
    if (PyLong_CheckExact(object)) return index_value(object);
    if (object == Py_Ellipsis) return ellipsis;
    if (object == Py_None) return newaxis;
    if (PyBool_Check(object)) return object == Py_True;
    if (nb::isinstance<Array>(item)) return *nb::inst_ptr<Array>(item);
    // NumPy arrays have __index__ (for their 0-d integer ones): they are index arrays first.
    if (PyList_Check(object) || PyTuple_Check(object) || is_numpy_array(item)) return host_index(item, device);
    if (is_numpy_bool(item)) return PyObject_IsTrue(object) == 1;
    if (PyIndex_Check(object)) return index_value(object);
    throw IndexError(std::string(not_an_index) + " (not " + Py_TYPE(object)->tp_name + ")");
}

const Array& array_argument(nb::handle value, std::string_view name) {
    return to_instance<Array>(value, name, "gpukit.ndarray (gpukit.asarray copies host data to the device)");
}

std::optional<std::int64_t> to_axis(nb::handle axis) {
    if (axis.is_none()) return std::nullopt;
    return to_int64(axis, "axis");
}

IndexMode to_mode(nb::handle mode) { return parse_index_mode(to_str(mode, "mode")); }

}  // namespace

nb::object take_binding(nb::handle a_like, nb::handle indices_like, nb::handle axis_like, nb::handle out_like,
                        nb::handle mode_like) {
    const Array& a = array_argument(a_like, "a");
    const Array indices = to_device_array(indices_like, a.device(), "indices", true);
    const auto axis = to_axis(axis_like);
    const IndexMode mode = to_mode(mode_like);
    if (!out_like.is_none()) {
        const Array& out = array_argument(out_like, "out");
        {
            GilRelease unlocked;
            take(a, indices, axis, out, mode);
        }
        return nb::borrow(out_like);
    }
    std::optional<Array> result;
    {
        GilRelease unlocked;
        result = take(a, indices, axis, mode);
    }
    return nb::cast(std::move(*result));
}

namespace {

// Host values for `target`, in its dtype (NumPy converts them, as NumPy's assignment does).
Array values_for(nb::handle values, const Array& target, std::string_view name) {
    if (nb::isinstance<Array>(values)) return *nb::inst_ptr<Array>(values);
    if (values.is_none()) raise_type_error(std::string(name) + " must be an array or a number, not None");
    nb::object host = numpy_module().attr("asarray")(values, numpy_dtype(target.dtype()));
    return to_device_array(host, target.device(), name, false);
}

nb::tuple rows_of(std::vector<Array> rows) {
    nb::list items;
    for (Array& row : rows) items.append(nb::cast(std::move(row)));
    return nb::tuple(items);
}

}  // namespace

std::vector<KeyItem> to_key(nb::handle key, const Device& device) {
    std::vector<KeyItem> items;
    if (!PyTuple_Check(key.ptr())) {
        items.push_back(to_key_item(key, device));
        return items;
    }
    for (nb::handle item : nb::borrow<nb::tuple>(key)) items.push_back(to_key_item(item, device));
    return items;
}

std::optional<std::vector<Index>> to_basic_key(nb::handle key) {
    const auto basic = [](nb::handle item) -> std::optional<Index> {
        PyObject* object = item.ptr();
        if (PySlice_Check(object)) {
            auto* slice = reinterpret_cast<PySliceObject*>(object);
            return Slice{slice_bound(slice->start), slice_bound(slice->stop), slice_bound(slice->step)};
        }
        if (PyLong_CheckExact(object)) return index_value(object);
        if (object == Py_Ellipsis) return ellipsis;
        if (object == Py_None) return newaxis;
        return std::nullopt;
    };
    std::vector<Index> items;
    if (!PyTuple_Check(key.ptr())) {
        auto item = basic(key);
        if (!item) return std::nullopt;
        items.push_back(*item);
        return items;
    }
    const nb::tuple tuple = nb::borrow<nb::tuple>(key);
    items.reserve(tuple.size());
    for (nb::handle element : tuple) {
        auto item = basic(element);
        if (!item) return std::nullopt;
        items.push_back(*item);
    }
    return items;
}

std::optional<std::vector<Index>> basic_indices(const std::vector<KeyItem>& key) {
    std::vector<Index> basic;
    basic.reserve(key.size());
    for (const KeyItem& item : key) {
        if (const auto* integer = std::get_if<std::int64_t>(&item)) {
            basic.emplace_back(*integer);
        } else if (const auto* slice = std::get_if<Slice>(&item)) {
            basic.emplace_back(*slice);
        } else if (std::holds_alternative<NewAxis>(item)) {
            basic.emplace_back(newaxis);
        } else if (std::holds_alternative<Ellipsis>(item)) {
            basic.emplace_back(ellipsis);
        } else {
            return std::nullopt;
        }
    }
    return basic;
}

Array to_device_array(nb::handle value, const Device& device, std::string_view name, bool index) {
    if (nb::isinstance<Array>(value)) return *nb::inst_ptr<Array>(value);
    if (value.is_none()) raise_type_error(std::string(name) + " must be an array, a list or a number, not None");
    nb::object host = as_numpy(value);
    if (index && nb::cast<std::int64_t>(host.attr("size")) == 0 && str_of(host.attr("dtype").attr("kind")) == "f")
        host = host.attr("astype")("int64");  // [] is no indices, not no floats
    if (!held_dtype(host.attr("dtype")))
        raise_type_error(std::string(name) + " must be numbers, not " + describe_value(value) +
                         ", which NumPy makes a " + str_of(host.attr("dtype")) + " array of");
    const NumpyHost view(host, false);
    GilRelease unlocked;
    return Array::from_host(view.view(), device);
}

nb::object choose_binding(nb::handle a_like, nb::handle choices_like, nb::handle out_like, nb::handle mode_like) {
    const Array& a = array_argument(a_like, "a");
    std::vector<Array> choices;
    if (nb::isinstance<Array>(choices_like)) {
        const Array& stacked = *nb::inst_ptr<Array>(choices_like);
        for (std::int64_t k = 0; stacked.ndim() > 0 && k < stacked.shape()[0]; ++k)
            choices.push_back(stacked.index({k}));
    } else {
        for (nb::handle choice : nb::iter(choices_like))
            choices.push_back(to_device_array(choice, a.device(), "choices", false));
    }
    const IndexMode mode = to_mode(mode_like);
    std::optional<Array> result;
    {
        GilRelease unlocked;
        result = choose(a, choices, mode);
    }
    if (out_like.is_none()) return nb::cast(std::move(*result));
    const Array& out = array_argument(out_like, "out");
    if (out.shape() != result->shape()) throw InvalidArgumentError("choose: out has the wrong shape");
    GilRelease unlocked;
    copyto(out, *result, Casting::unsafe);
    return nb::borrow(out_like);
}

void put_binding(nb::handle a_like, nb::handle indices_like, nb::handle values_like, nb::handle mode_like) {
    const Array& a = array_argument(a_like, "a");
    const Array indices = to_device_array(indices_like, a.device(), "ind", true);
    const Array values = values_for(values_like, a, "v");
    const IndexMode mode = to_mode(mode_like);
    GilRelease unlocked;
    put(a, indices, values, mode);
}

nb::object compress_binding(nb::handle condition_like, nb::handle a_like, nb::handle axis_like, nb::handle out_like) {
    const Array& a = array_argument(a_like, "a");
    const Array condition = to_device_array(condition_like, a.device(), "condition", false);
    const auto axis = to_axis(axis_like);
    if (out_like.is_none()) {
        std::optional<Array> result;
        {
            GilRelease unlocked;
            result = compress(condition, a, axis);
        }
        return nb::cast(std::move(*result));
    }
    const Array& out = array_argument(out_like, "out");
    {
        GilRelease unlocked;
        if (condition.ndim() != 1) throw InvalidArgumentError("condition must be a 1-d array");
        take(a, flatnonzero(condition), axis, out, IndexMode::raise);
    }
    return nb::borrow(out_like);
}

nb::tuple nonzero_binding(nb::handle a_like) {
    const Array& a = array_argument(a_like, "a");
    std::vector<Array> rows;
    {
        GilRelease unlocked;
        rows = nonzero(a);
    }
    return rows_of(std::move(rows));
}

void bind_indexing(nb::module_& m) {
    m.def("take", &take_binding, "a"_a.none(), "indices"_a.none(), "axis"_a.none() = nb::none(),
          "out"_a.none() = nb::none(), "mode"_a.none() = "raise",
          nb::sig("def take(a: ndarray, indices: object, axis: int | None = None, out: ndarray | None = None, "
                  "mode: str = 'raise') -> ndarray"),
          "The elements of `a` at `indices` along `axis` (of the flattened array without one), as numpy.take. "
          "mode: 'raise' (IndexError; waits for the device once to check), 'wrap' or 'clip' (never wait).");
    m.def("put", &put_binding, "a"_a.none(), "ind"_a.none(), "v"_a.none(), "mode"_a.none() = "raise",
          nb::sig("def put(a: ndarray, ind: object, v: object, mode: str = 'raise') -> None"),
          "a.flat[ind] = v, the values repeated when there are fewer than indices (numpy.put). In mode 'raise' "
          "every index is checked before any element is written.");
    m.def(
        "take_along_axis",
        [](nb::handle a_like, nb::handle indices_like, nb::handle axis_like) {
            const Array& a = array_argument(a_like, "arr");
            const Array indices = to_device_array(indices_like, a.device(), "indices", true);
            const auto axis = to_axis(axis_like);
            GilRelease unlocked;
            return take_along_axis(a, indices, axis);
        },
        "arr"_a.none(), "indices"_a.none(), "axis"_a.none() = -1,
        nb::sig("def take_along_axis(arr: ndarray, indices: object, axis: int | None = -1) -> ndarray"),
        "The elements of `arr` at `indices` along `axis`, which `indices` (of arr's number of dimensions) "
        "replaces (numpy.take_along_axis).");
    m.def(
        "put_along_axis",
        [](nb::handle a_like, nb::handle indices_like, nb::handle values_like, nb::handle axis_like) {
            const Array& a = array_argument(a_like, "arr");
            const Array indices = to_device_array(indices_like, a.device(), "indices", true);
            const Array values = values_for(values_like, a, "values");
            const auto axis = to_axis(axis_like);
            GilRelease unlocked;
            put_along_axis(a, indices, values, axis);
        },
        "arr"_a.none(), "indices"_a.none(), "values"_a.none(), "axis"_a.none(),
        nb::sig("def put_along_axis(arr: ndarray, indices: object, values: object, axis: int | None) -> None"),
        "arr's elements at `indices` along `axis` = values, broadcast (numpy.put_along_axis).");
    m.def("compress", &compress_binding, "condition"_a.none(), "a"_a.none(), "axis"_a.none() = nb::none(),
          "out"_a.none() = nb::none(),
          nb::sig("def compress(condition: object, a: ndarray, axis: int | None = None, out: ndarray | None = None) "
                  "-> ndarray"),
          "The slices of `a` along `axis` where the 1-D `condition` is nonzero (numpy.compress); waits for the "
          "count.");
    m.def("nonzero", &nonzero_binding, "a"_a.none(), nb::sig("def nonzero(a: ndarray) -> tuple[ndarray, ...]"),
          "The indices of the nonzero elements, one int64 array per dimension (numpy.nonzero); waits for the count.");
    m.def(
        "argwhere",
        [](nb::handle a_like) {
            const Array& a = array_argument(a_like, "a");
            GilRelease unlocked;
            return argwhere(a);
        },
        "a"_a.none(), nb::sig("def argwhere(a: ndarray) -> ndarray"),
        "The indices of the nonzero elements as one (count, ndim) int64 array; waits for the count.");
    m.def(
        "flatnonzero",
        [](nb::handle a_like) {
            const Array& a = array_argument(a_like, "a");
            GilRelease unlocked;
            return flatnonzero(a);
        },
        "a"_a.none(), nb::sig("def flatnonzero(a: ndarray) -> ndarray"),
        "The positions of the nonzero elements in the flattened array, int64; waits for the count.");
    m.def(
        "extract",
        [](nb::handle condition_like, nb::handle arr_like) {
            const Array& a = array_argument(arr_like, "arr");
            const Array condition = to_device_array(condition_like, a.device(), "condition", false);
            GilRelease unlocked;
            return extract(condition, a);
        },
        "condition"_a.none(), "arr"_a.none(), nb::sig("def extract(condition: object, arr: ndarray) -> ndarray"),
        "The elements of the flattened arr where the flattened condition is nonzero (numpy.extract); waits for "
        "the count.");
    m.def(
        "place",
        [](nb::handle arr_like, nb::handle mask_like, nb::handle vals_like) {
            const Array& a = array_argument(arr_like, "arr");
            const Array mask = to_device_array(mask_like, a.device(), "mask", false);
            const Array values = values_for(vals_like, a, "vals");
            GilRelease unlocked;
            place(a, mask, values);
        },
        "arr"_a.none(), "mask"_a.none(), "vals"_a.none(),
        nb::sig("def place(arr: ndarray, mask: object, vals: object) -> None"),
        "arr's elements where mask is nonzero = vals in order, repeated from the start when fewer (numpy.place).");
    m.def(
        "putmask",
        [](nb::handle a_like, nb::handle mask_like, nb::handle values_like) {
            const Array& a = array_argument(a_like, "a");
            const Array mask = to_device_array(mask_like, a.device(), "mask", false);
            const Array values = values_for(values_like, a, "values");
            GilRelease unlocked;
            putmask(a, mask, values);
        },
        "a"_a.none(), "mask"_a.none(), "values"_a.none(),
        nb::sig("def putmask(a: ndarray, mask: object, values: object) -> None"),
        "a.flat[n] = values.flat[n % values.size] where mask.flat[n] is true (numpy.putmask); never waits.");
    m.def(
        "fill_diagonal",
        [](nb::handle a_like, nb::handle val_like, nb::handle wrap) {
            const Array& a = array_argument(a_like, "a");
            const Array value = values_for(val_like, a, "val");
            const bool wraps = to_bool(wrap, "wrap");
            GilRelease unlocked;
            fill_diagonal(a, value, wraps);
        },
        "a"_a.none(), "val"_a.none(), "wrap"_a.none() = false,
        nb::sig("def fill_diagonal(a: ndarray, val: object, wrap: bool = False) -> None"),
        "a's main diagonal = val, repeated from its start when shorter (numpy.fill_diagonal; wrap: a tall "
        "matrix's diagonal starts again every columns + 1 rows).");
    m.def(
        "choose", &choose_binding, "a"_a.none(), "choices"_a.none(), "out"_a.none() = nb::none(),
        "mode"_a.none() = "raise",
        nb::sig("def choose(a: ndarray, choices: object, out: ndarray | None = None, mode: str = 'raise') -> ndarray"),
        "choices[a[i]][i], a and the choices broadcast together (numpy.choose); mode 'raise' (ValueError; waits "
        "once), 'wrap' or 'clip'.");
}

}  // namespace gpukit::python
