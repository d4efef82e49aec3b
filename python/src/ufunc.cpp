// python/src/ufunc.cpp: gpukit.ufunc, its instances (one per row of the table, with NumPy's
// aliases) and the call every ufunc and operator runs through.
#include "ufunc.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <new>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "errors.hpp"
#include "indexing.hpp"
#include "numpy_bridge.hpp"
#include "operands.hpp"
#include "ops/ufunc_methods.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

// What a Python ufunc object holds: its row.
struct PythonUfunc {
    const detail::Ufunc* row;
};

// NumPy's other names for ufuncs (numpy.divide is numpy.true_divide, ...), made where the row exists.
constexpr std::pair<std::string_view, std::string_view> aliases[] = {
    {"divide", "true_divide"},
    {"mod", "remainder"},
    {"abs", "absolute"},
    {"conj", "conjugate"},
    {"invert", "bitwise_not"},
    {"bitwise_invert", "bitwise_not"},
    {"degrees", "rad2deg"},
    {"radians", "deg2rad"},
    {"bitwise_left_shift", "left_shift"},
    {"bitwise_right_shift", "right_shift"},
    {"pow", "power"},
    {"acos", "arccos"},
    {"asin", "arcsin"},
    {"atan", "arctan"},
    {"atan2", "arctan2"},
    {"acosh", "arccosh"},
    {"asinh", "arcsinh"},
    {"atanh", "arctanh"},
};

// NumPy's ufunc.identity where it has one (None elsewhere): the C++ table's, as a Python number.
nb::object identity_of(const detail::Ufunc& ufunc) {
    const std::optional<Scalar> identity = detail::ufunc_identity(ufunc);
    if (!identity) return nb::none();
    const auto value = [&]<class T>(DType dtype) {
        T number{};
        std::memcpy(&number, identity->as(dtype).data(), sizeof number);
        return number;
    };
    switch (identity->dtype()) {
        case DType::bool_: return nb::bool_(value.operator()<bool>(DType::bool_));
        case DType::float64: return nb::float_(value.operator()<double>(DType::float64));
        default: return nb::int_(value.operator()<std::int64_t>(DType::int64));
    }
}

std::vector<std::string> types_of(const detail::Ufunc& ufunc) {
    std::vector<std::string> types;
    types.reserve(ufunc.loops.size());
    for (const detail::UfuncLoop& loop : ufunc.loops) {
        std::string text;
        for (std::size_t k = 0; k < ufunc.nin; ++k) text += detail::type_letter(loop.dtypes[k]);
        text += "->";
        for (std::size_t k = 0; k < ufunc.nout; ++k) text += detail::type_letter(loop.dtypes[ufunc.nin + k]);
        types.push_back(std::move(text));
    }
    return types;
}

// The Python object of each row, by UfuncId; never destroyed (the module holds them too).
std::vector<nb::object>& ufunc_objects() {
    static auto* objects = new std::vector<nb::object>;
    return *objects;
}

// The keyword names and casting words, interned once: a call compares pointers.
struct Words {
    PyObject* out;
    PyObject* where;
    PyObject* casting;
    PyObject* dtype;
    std::array<PyObject*, 5> castings;  // in Casting's order: no, equiv, safe, same_kind, unsafe
};
const Words& words() {
    static const Words made = [] {
        const auto intern = [](const char* text) { return PyUnicode_InternFromString(text); };
        return Words{intern("out"),
                     intern("where"),
                     intern("casting"),
                     intern("dtype"),
                     {intern("no"), intern("equiv"), intern("safe"), intern("same_kind"), intern("unsafe")}};
    }();
    return made;
}

bool is_word(PyObject* key, PyObject* word) {
    return key == word || (PyUnicode_Check(key) && PyUnicode_Compare(key, word) == 0);
}

Casting to_casting(PyObject* value) {
    const Words& w = words();
    for (std::size_t k = 0; k < w.castings.size(); ++k)
        if (value == w.castings[k]) return static_cast<Casting>(k);
    if (!PyUnicode_Check(value))
        raise_type_error("casting must be one of 'no', 'equiv', 'safe', 'same_kind' or 'unsafe', not " +
                         describe_value(value));
    return parse_casting(nb::cast<std::string>(nb::handle(value)));
}

// out=: one array (one output), or a tuple with an entry (an array or None) per output.
void take_out(const detail::Ufunc& ufunc, PyObject* value, UfuncArguments& arguments, bool positional) {
    if (value == Py_None) return;
    if (positional) raise_type_error("cannot specify 'out' as both a positional and keyword argument");
    if (PyTuple_Check(value)) {
        if (PyTuple_GET_SIZE(value) != ufunc.nout)
            raise_value_error("The 'out' tuple must have exactly one entry per ufunc output (" +
                              std::to_string(ufunc.nout) + " for " + std::string(ufunc.name) + ")");
        for (std::size_t k = 0; k < ufunc.nout; ++k) {
            PyObject* item = PyTuple_GET_ITEM(value, static_cast<Py_ssize_t>(k));
            arguments.outputs[k] = item == Py_None ? nullptr : item;
        }
        return;
    }
    if (ufunc.nout != 1)
        raise_type_error("'out' must be a tuple of arrays (" + std::string(ufunc.name) + " has " +
                         std::to_string(ufunc.nout) + " outputs)");
    arguments.outputs[0] = value;
}

void take_keywords(const detail::Ufunc& ufunc, PyObject* keywords, UfuncArguments& arguments, bool positional_out) {
    const Words& w = words();
    Py_ssize_t position = 0;
    PyObject* key = nullptr;
    PyObject* value = nullptr;
    while (PyDict_Next(keywords, &position, &key, &value)) {
        if (is_word(key, w.out)) {
            take_out(ufunc, value, arguments, positional_out);
        } else if (is_word(key, w.where)) {
            arguments.where = value == Py_True ? nullptr : value;
        } else if (is_word(key, w.casting)) {
            arguments.options.casting = to_casting(value);
        } else if (is_word(key, w.dtype)) {
            if (value == Py_None) {
                arguments.options.dtype.reset();
            } else if (const std::optional<DType> known = known_dtype(value)) {
                arguments.options.dtype = known;
            } else {
                arguments.options.dtype = to_dtype(value);
            }
        } else {
            raise_type_error(std::string(ufunc.name) + "() got an unexpected keyword argument '" + str_of(key) +
                             "' (gpukit's ufuncs take out=, where=, casting= and dtype=)");
        }
    }
}

// where=: a bool gpukit array, or False (no element is written).
const Array* where_mask(PyObject* value, HeldArrays& held) {
    if (const Array* mask = as_array(value)) return mask;
    const int truth = PyBool_Check(value) || known_dtype(reinterpret_cast<PyObject*>(Py_TYPE(value))) == DType::bool_
                          ? PyObject_IsTrue(value)
                          : -1;
    if (truth == 1) return nullptr;
    if (truth == 0) return &held.hold(scalar_as_array(Scalar(false)));
    ElementwiseOperand ignored{Scalar(false)};
    (void)to_operand(value, ignored, held);                  // raises for host arrays, naming gpukit.asarray
    if (const Array* array = ignored.array()) return array;  // another library's device array
    raise_type_error("where must be True, False or a bool gpukit array, not " + describe_value(value));
}

PyObject* call_slot(PyObject* self, PyObject* args, PyObject* keywords) noexcept {
    try {
        const detail::Ufunc& ufunc = *nb::inst_ptr<PythonUfunc>(self)->row;
        const Py_ssize_t count = PyTuple_GET_SIZE(args);
        const auto nin = static_cast<Py_ssize_t>(ufunc.nin);
        const auto nargs = nin + static_cast<Py_ssize_t>(ufunc.nout);
        if (count < nin || count > nargs)
            raise_type_error(std::string(ufunc.name) + "() takes from " + std::to_string(nin) + " to " +
                             std::to_string(nargs) + " positional arguments but " + std::to_string(count) +
                             (count == 1 ? " was given" : " were given"));
        UfuncArguments arguments;
        for (Py_ssize_t k = 0; k < nin; ++k) arguments.inputs[k] = PyTuple_GET_ITEM(args, k);
        for (Py_ssize_t k = nin; k < count; ++k) {
            PyObject* item = PyTuple_GET_ITEM(args, k);
            arguments.outputs[k - nin] = item == Py_None ? nullptr : item;
        }
        if (keywords) take_keywords(ufunc, keywords, arguments, count > nin);
        return call_ufunc(ufunc, arguments);
    } catch (...) {
        set_python_error_from_exception();
        return nullptr;
    }
}

// __name__ is a getset of the type's own: nanobind's properties are set on the class after it is
// made, and setting __name__ on a class renames the class.
PyObject* name_of(PyObject* self, void*) noexcept {
    const std::string_view name = nb::inst_ptr<PythonUfunc>(self)->row->name;
    return PyUnicode_FromStringAndSize(name.data(), static_cast<Py_ssize_t>(name.size()));
}
PyGetSetDef ufunc_getset[] = {
    {"__name__", &name_of, nullptr, "NumPy's name of the ufunc.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

const PyType_Slot ufunc_slots[] = {
    {Py_tp_call, reinterpret_cast<void*>(&call_slot)},
    {Py_tp_getset, static_cast<void*>(ufunc_getset)},
    {0, nullptr},
};

// ufunc.outer(a, b, **kwargs): a seen with b.ndim new axes at its end, so that the call broadcasts
// to a.shape + b.shape (a view: nothing is copied).
nb::object outer(const PythonUfunc& self, nb::handle a, nb::handle b, const nb::kwargs& keywords) {
    const detail::Ufunc& ufunc = *self.row;
    if (ufunc.nin != 2)
        raise_value_error("outer product only supported for binary functions (" + std::string(ufunc.name) + " takes " +
                          std::to_string(ufunc.nin) + " inputs)");
    HeldArrays held;
    ElementwiseOperand left{Scalar(false)};
    ElementwiseOperand right{Scalar(false)};
    const std::string call = std::string(ufunc.name) + ".outer";
    if (to_operand(a.ptr(), left, held) == Operand::foreign) refuse_operand(a.ptr(), call, 0);
    if (to_operand(b.ptr(), right, held) == Operand::foreign) refuse_operand(b.ptr(), call, 1);
    nb::object expanded = nb::borrow(a);
    if (const Array* array = left.array()) {
        std::vector<Index> key{ellipsis};
        key.insert(key.end(), right.array() ? right.array()->ndim() : 0, newaxis);
        expanded = nb::cast(array->index(key));
    }
    nb::object other = nb::borrow(b);
    if (right.array() && !as_array(b.ptr())) other = nb::cast(*right.array());  // another library's array
    UfuncArguments arguments;
    arguments.inputs[0] = expanded.ptr();
    arguments.inputs[1] = other.ptr();
    take_keywords(ufunc, keywords.ptr(), arguments, false);
    PyObject* result = call_ufunc(ufunc, arguments);
    if (!result) throw nb::python_error();
    return nb::steal(result);
}

// A new gpukit.ndarray holding `array` (nb::cast's instance, without its type lookup by typeid).
PyObject* new_array_object(Array&& array) {
    nb::object instance = nb::inst_alloc(nb::handle(reinterpret_cast<PyObject*>(array_type())));
    new (nb::inst_ptr<Array>(instance)) Array(std::move(array));
    nb::inst_mark_ready(instance);
    return instance.release().ptr();
}

// out=: an array, or a tuple of one (NumPy's form); None.
nb::handle single_out(nb::handle out) {
    if (nb::isinstance<nb::tuple>(out)) {
        const nb::tuple outs = nb::borrow<nb::tuple>(out);
        if (outs.size() != 1) raise_value_error("out: a tuple of one array (the method has one output)");
        return outs[0];
    }
    return out;
}

// What a method returns: `out` where given, else the new array.
nb::object method_result(Array&& result, nb::handle out) {
    if (!out.is_none()) return nb::borrow(out);
    return nb::steal(new_array_object(std::move(result)));
}

nb::object reduce_method(const PythonUfunc& self, nb::handle array, nb::handle axis, nb::handle dtype, nb::handle out,
                         nb::handle keepdims, nb::handle initial, nb::handle where) {
    const detail::Ufunc& ufunc = *self.row;
    HeldArrays held;
    const Array a = array_operand(array, held, std::string(ufunc.name) + ".reduce", 0);
    detail::UfuncReduceOptions options;
    if (axis.is_none())
        options.axis.reset();
    else
        options.axis = to_axes(axis, "axis");
    options.dtype = to_optional_dtype(dtype);
    const nb::handle given_out = single_out(out);
    if (!given_out.is_none()) options.out = to_output(given_out.ptr(), held, "out");
    options.keepdims = to_bool(keepdims, "keepdims");
    if (!initial.is_none()) options.initial = to_scalar(initial, "initial");
    if (!(nb::isinstance<nb::bool_>(where) && nb::cast<bool>(where))) options.where = to_array(where, "where");
    Array result = [&] {
        GilRelease unlocked;
        return detail::ufunc_reduce(ufunc, a, options);
    }();
    return method_result(std::move(result), given_out);
}

// What accumulate and reduceat take beside their array: axis, dtype and out, read once.
struct AlongAxis {
    std::int64_t axis;
    std::optional<DType> dtype;
    nb::handle given_out;  // None, or the array (out=(array,) unpacked)
    std::optional<Array> out;
};

AlongAxis along_axis(nb::handle axis, nb::handle dtype, nb::handle out, HeldArrays& held) {
    AlongAxis along{to_int64(axis, "axis"), to_optional_dtype(dtype), single_out(out), std::nullopt};
    if (!along.given_out.is_none()) along.out = to_output(along.given_out.ptr(), held, "out");
    return along;
}

nb::object accumulate_method(const PythonUfunc& self, nb::handle array, nb::handle axis, nb::handle dtype,
                             nb::handle out) {
    const detail::Ufunc& ufunc = *self.row;
    HeldArrays held;
    const Array a = array_operand(array, held, std::string(ufunc.name) + ".accumulate", 0);
    const AlongAxis along = along_axis(axis, dtype, out, held);
    Array result = [&] {
        GilRelease unlocked;
        return detail::ufunc_accumulate(ufunc, a, along.axis, along.dtype, along.out);
    }();
    return method_result(std::move(result), along.given_out);
}

nb::object reduceat_method(const PythonUfunc& self, nb::handle array, nb::handle indices, nb::handle axis,
                           nb::handle dtype, nb::handle out) {
    const detail::Ufunc& ufunc = *self.row;
    HeldArrays held;
    const Array a = array_operand(array, held, std::string(ufunc.name) + ".reduceat", 0);
    // The indices are a small list of segment starts, as often a Python list as an array.
    const nb::object starts =
        as_array(indices.ptr()) ? nb::borrow(indices) : nb::module_::import_("gpukit").attr("asarray")(indices);
    const Array& start_array = to_array(starts, "indices");
    const AlongAxis along = along_axis(axis, dtype, out, held);
    Array result = [&] {
        GilRelease unlocked;
        return detail::ufunc_reduceat(ufunc, a, start_array, along.axis, along.dtype, along.out);
    }();
    return method_result(std::move(result), along.given_out);
}

// The integer keys of ufunc.at on a 1-d array, where they are one array (gpukit's or NumPy's):
// they go to the kernel as they are. None for any other key (slices, tuples, masks, lists).
std::optional<Array> integer_keys(const Array& target, nb::handle indices) {
    if (target.ndim() != 1) return std::nullopt;
    const auto is_integer = [](DType dtype) {
        return kind(dtype) == DTypeKind::signed_integer || kind(dtype) == DTypeKind::unsigned_integer;
    };
    if (const Array* keys = as_array(indices.ptr()))
        return is_integer(keys->dtype()) ? std::optional<Array>(*keys) : std::nullopt;
    if (!nb::isinstance(indices, numpy_module().attr("ndarray"))) return std::nullopt;
    const std::optional<DType> dtype = held_dtype(indices.attr("dtype"));
    if (!dtype || !is_integer(*dtype)) return std::nullopt;
    return to_device_array(indices, target.device(), "indices", true);
}

void at_method(const PythonUfunc& self, nb::handle a, nb::handle indices, nb::handle b) {
    const detail::Ufunc& ufunc = *self.row;
    const Array* target = as_array(a.ptr());
    if (!target)
        throw nb::type_error((std::string(ufunc.name) + ".at: the array updated in place must be a gpukit array, not " +
                              describe_value(a))
                                 .c_str());
    HeldArrays held;
    std::optional<ElementwiseOperand> operand;
    const auto read_operand = [&] {
        if (b.is_none()) return;
        operand.emplace(Scalar(false));
        if (to_operand(b.ptr(), *operand, held) == Operand::foreign)
            refuse_operand(b.ptr(), std::string(ufunc.name) + ".at", 2);
    };
    if (const std::optional<Array> keys = integer_keys(*target, indices)) {
        read_operand();
        GilRelease unlocked;
        detail::ufunc_at_keys(ufunc, *target, *keys, operand);
        return;
    }
    // The elements a[indices] names, by their byte offsets: gpukit's indexing reads the key, whatever
    // form NumPy allows it (integers, slices, arrays, tuples of them), with its errors.
    Array offsets = [&] {
        GilRelease unlocked;
        return detail::element_offsets(*target);
    }();
    const nb::object offset_array = nb::steal(new_array_object(std::move(offsets)));
    const nb::object chosen = offset_array[indices];
    read_operand();
    const Array& chosen_offsets = to_array(chosen, "indices");
    GilRelease unlocked;
    detail::ufunc_at(ufunc, *target, chosen_offsets, operand);
}

}  // namespace

const detail::Ufunc* find_ufunc(std::string_view name) noexcept {
    for (const auto& [alias, target] : aliases)
        if (alias == name) name = target;
    for (const detail::Ufunc& row : detail::ufunc_table())
        if (row.name == name) return &row;
    return nullptr;
}

PyObject* call_ufunc(const detail::Ufunc& ufunc, const UfuncArguments& arguments) noexcept {
    try {
        HeldArrays held;
        std::array<ElementwiseOperand, 4> inputs{Scalar(false), Scalar(false), Scalar(false), Scalar(false)};
        const std::size_t nin = ufunc.nin;
        const std::size_t nout = ufunc.nout;
        bool has_array = false;
        for (std::size_t k = 0; k < nin; ++k) {
            if (to_operand(arguments.inputs[k], inputs[k], held) == Operand::foreign) {
                if (arguments.is_operator) return Py_NewRef(Py_NotImplemented);
                refuse_operand(arguments.inputs[k], ufunc.name, k);
            }
            has_array = has_array || inputs[k].array();
        }
        std::array<const Array*, 4> outputs{};
        bool has_output = false;
        for (std::size_t k = 0; k < nout; ++k) {
            if (!arguments.outputs[k]) continue;
            outputs[k] = &to_output(arguments.outputs[k], held, "out");
            has_output = true;
        }
        detail::UfuncOptions options = arguments.options;
        if (arguments.where) options.where = where_mask(arguments.where, held);
        if (!has_array && !has_output) {
            // Numbers only, as CuPy: a 0-d array of the first typed scalar (else the first), which
            // promotes as that scalar would.
            std::size_t first = 0;
            for (std::size_t k = 0; k < nin; ++k)
                if (!inputs[k].scalar()->weak_kind()) {
                    first = k;
                    break;
                }
            inputs[first] = ElementwiseOperand(held.hold(scalar_as_array(*inputs[first].scalar())));
        }
        std::vector<Array> results;
        {
            GilRelease unlocked;
            results = detail::call_ufunc(
                ufunc, std::span<const ElementwiseOperand>(inputs.data(), nin),
                has_output ? std::span<const Array* const>(outputs.data(), nout) : std::span<const Array* const>(),
                options);
        }
        const auto result = [&](std::size_t k) -> PyObject* {
            if (arguments.outputs[k]) return Py_NewRef(arguments.outputs[k]);
            return new_array_object(std::move(results[k]));
        };
        if (nout == 1) return result(0);
        nb::object tuple = nb::steal(PyTuple_New(static_cast<Py_ssize_t>(nout)));
        if (!tuple.is_valid()) throw nb::python_error();
        for (std::size_t k = 0; k < nout; ++k) PyTuple_SET_ITEM(tuple.ptr(), static_cast<Py_ssize_t>(k), result(k));
        return tuple.release().ptr();
    } catch (...) {
        set_python_error_from_exception();
        return nullptr;
    }
}

void bind_ufuncs(nb::module_& m) {
    nb::class_<PythonUfunc> cls(
        m, "ufunc", nb::type_slots(ufunc_slots),
        "A universal function: an operation applied element by element, with NumPy's broadcasting, type "
        "promotion (NumPy 2's rules: Python numbers are weak) and keywords.\n\n"
        "``ufunc(*inputs, out=None, where=True, casting='same_kind', dtype=None)``. Inputs are gpukit arrays, Python "
        "numbers and NumPy scalars (host arrays are refused: copy them with :func:`gpukit.asarray`). ``out``: an "
        "array, or a tuple of one per output, written in place and returned; ``where``: a bool array, results "
        "written only where it is true; ``casting``: how far inputs and outputs may be cast ('no', 'equiv', "
        "'safe', 'same_kind', 'unsafe'); ``dtype``: the dtype of the outputs, choosing the loop. The work runs on "
        "the current stream without waiting. ``ufunc.types`` lists the loops (NumPy's letters; ``E`` is "
        "bfloat16).");
    cls.def_prop_ro(
           "nin", [](const PythonUfunc& u) { return int(u.row->nin); }, "The number of inputs.")
        .def_prop_ro(
            "nout", [](const PythonUfunc& u) { return int(u.row->nout); }, "The number of outputs.")
        .def_prop_ro(
            "nargs", [](const PythonUfunc& u) { return int(u.row->nin) + int(u.row->nout); },
            "The number of arguments: inputs and outputs.")
        .def_prop_ro(
            "ntypes", [](const PythonUfunc& u) { return u.row->loops.size(); }, "The number of loops.")
        .def_prop_ro(
            "types", [](const PythonUfunc& u) { return types_of(*u.row); },
            "The loops, as NumPy writes them ('ff->f'), in the order a call tries them (``E``: bfloat16).")
        .def_prop_ro(
            "identity", [](const PythonUfunc& u) { return identity_of(*u.row); },
            "The value that leaves the other operand unchanged (0 for add), or None, as NumPy's.")
        .def_prop_ro(
            "signature", [](const PythonUfunc&) { return nb::none(); },
            "None: gpukit's ufuncs are elementwise (no generalized core dimensions).")
        .def("__repr__", [](const PythonUfunc& u) { return "<ufunc '" + std::string(u.row->name) + "'>"; })
        .def("outer", &outer, "a"_a.none(), "b"_a.none(), "kwargs"_a,
             nb::sig("def outer(self, a: object, b: object, /, **kwargs: object) -> object"),
             "The ufunc of every pair: ``result[i..., j...] = ufunc(a[i...], b[j...])``, of shape ``a.shape + "
             "b.shape`` (two-input ufuncs; keywords as a call's).");
    cls.def("reduce", &reduce_method, "array"_a.none(), "axis"_a.none() = 0, "dtype"_a.none() = nb::none(),
            "out"_a.none() = nb::none(), "keepdims"_a.none() = false, "initial"_a.none() = nb::none(),
            "where"_a.none() = true,
            nb::sig("def reduce(self, array: object, axis: object = 0, dtype: object = None, out: object = None, "
                    "keepdims: bool = False, initial: object = None, where: object = True) -> object"),
            "The ufunc applied along `axis` (an int, a tuple, None for all), as numpy.ufunc.reduce: "
            "``add.reduce(x)`` sums over the first axis. ``initial`` starts it; ``where`` (bool, broadcast) "
            "chooses the elements that count. add, multiply, maximum, minimum, fmax, fmin, logical_and and "
            "logical_or run the parallel reductions (sum, prod, max, ...); the others apply the ufunc in NumPy's "
            "order, one thread per output element (fast for many outputs, slow for one long line).")
        .def("accumulate", &accumulate_method, "array"_a.none(), "axis"_a.none() = 0, "dtype"_a.none() = nb::none(),
             "out"_a.none() = nb::none(),
             nb::sig("def accumulate(self, array: object, axis: int = 0, dtype: object = None, out: object = None) "
                     "-> object"),
             "Every partial result along `axis`, as numpy.ufunc.accumulate (``add.accumulate`` is cumsum, "
             "``multiply.accumulate`` cumprod, both parallel scans; others apply the ufunc in order, one thread per "
             "line).")
        .def("reduceat", &reduceat_method, "array"_a.none(), "indices"_a.none(), "axis"_a.none() = 0,
             "dtype"_a.none() = nb::none(), "out"_a.none() = nb::none(),
             nb::sig("def reduceat(self, array: object, indices: object, axis: int = 0, dtype: object = None, "
                     "out: object = None) -> object"),
             "Reductions over the segments that `indices` start along `axis`, as numpy.ufunc.reduceat "
             "(``array[indices[i]]`` alone where a segment is empty or backwards).")
        .def("at", &at_method, "a"_a.none(), "indices"_a.none(), "b"_a.none() = nb::none(),
             nb::sig("def at(self, a: object, indices: object, b: object = None) -> None"),
             "In place and unbuffered, as numpy.ufunc.at: ``a[indices] = ufunc(a[indices], b)``, an index that "
             "repeats applying once per occurrence (``add.at(counts, idx, 1)`` counts). add on 32- and 64-bit "
             "integers, float32 and float64 runs every index at once with atomic additions (floats then add in "
             "another order than NumPy's); everything else runs in order on one thread.");

    nb::dict by_name;
    std::vector<nb::object>& objects = ufunc_objects();
    for (const detail::Ufunc& row : detail::ufunc_table()) {
        nb::object ufunc = nb::cast(PythonUfunc{&row});
        objects.push_back(ufunc);
        by_name[nb::str(row.name.data(), row.name.size())] = ufunc;
    }
    for (const auto& [alias, target] : aliases)
        if (const detail::Ufunc* row = find_ufunc(target))
            by_name[nb::str(alias.data(), alias.size())] = objects[static_cast<std::size_t>(row->id)];
    for (auto [name, ufunc] : by_name) m.attr(name) = ufunc;
    m.def(
        "ufuncs", [by_name]() -> nb::dict { return nb::borrow<nb::dict>(by_name.attr("copy")()); },
        "Every ufunc by its name and NumPy's aliases (divide, mod, abs, ...): what the gpukit package exports.");
    (void)words();  // interned now, not on the first call
}

nb::object ufunc_object(const detail::Ufunc& row) { return ufunc_objects()[static_cast<std::size_t>(row.id)]; }

}  // namespace gpukit::python
