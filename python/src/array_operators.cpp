// python/src/array_operators.cpp: gpukit.ndarray's operators and the methods that are ufunc calls.
//
// Each operator is its ufunc, looked up by name in the table once when the extension loads: an
// operator whose row does not exist yet returns NotImplemented (Python then raises TypeError) and
// works once the row lands. As NumPy's: reflected forms are the same ufunc with the operands
// swapped, in-place forms write into the left operand (out=self, casting='same_kind', so
// `int_array += 1.5` raises), and an operand of unknown type gives NotImplemented, so that
// `x == None` is False and the other operand's own operator gets its turn. Host arrays raise
// TypeError naming gpukit.asarray, in either position: NumPy's own operators hand `numpy_array +
// x` to __array_ufunc__, which runs gpukit's ufunc, which refuses the NumPy array.
#include "array_operators.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <optional>
#include <string>

#include "arguments.hpp"
#include "bindings.hpp"
#include "errors.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/linalg.hpp"
#include "numpy_bridge.hpp"
#include "operands.hpp"
#include "python_refs.hpp"
#include "ufunc.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

// The rows operators run, found when the extension loads (null: no such row yet).
struct OperatorUfuncs {
    const detail::Ufunc *add, *subtract, *multiply, *true_divide, *floor_divide, *remainder, *power, *divmod,
        *bitwise_and, *bitwise_or, *bitwise_xor, *bitwise_not, *left_shift, *right_shift, *negative, *positive,
        *absolute, *equal, *not_equal, *less, *less_equal, *greater, *greater_equal, *conjugate, *clip, *maximum,
        *minimum;
};
OperatorUfuncs ufuncs{};

void find_operator_ufuncs() {
    const auto f = [](const char* name) { return find_ufunc(name); };
    ufuncs = {f("add"),         f("subtract"),    f("multiply"),      f("true_divide"), f("floor_divide"),
              f("remainder"),   f("power"),       f("divmod"),        f("bitwise_and"), f("bitwise_or"),
              f("bitwise_xor"), f("bitwise_not"), f("left_shift"),    f("right_shift"), f("negative"),
              f("positive"),    f("absolute"),    f("equal"),         f("not_equal"),   f("less"),
              f("less_equal"),  f("greater"),     f("greater_equal"), f("conjugate"),   f("clip"),
              f("maximum"),     f("minimum")};
}

PyObject* not_implemented() noexcept { return Py_NewRef(Py_NotImplemented); }

PyObject* binary(const detail::Ufunc* ufunc, PyObject* a, PyObject* b) noexcept {
    if (!ufunc) return not_implemented();
    UfuncArguments arguments;
    arguments.inputs[0] = a;
    arguments.inputs[1] = b;
    arguments.is_operator = true;
    return call_ufunc(*ufunc, arguments);
}

// self op= other: the result written into self (which Python passes first).
PyObject* in_place(const detail::Ufunc* ufunc, PyObject* self, PyObject* other) noexcept {
    if (!ufunc) return not_implemented();
    UfuncArguments arguments;
    arguments.inputs[0] = self;
    arguments.inputs[1] = other;
    arguments.outputs[0] = self;
    arguments.is_operator = true;
    return call_ufunc(*ufunc, arguments);
}

PyObject* unary(const detail::Ufunc* ufunc, PyObject* a) noexcept {
    if (!ufunc) return not_implemented();
    UfuncArguments arguments;
    arguments.inputs[0] = a;
    arguments.is_operator = true;
    return call_ufunc(*ufunc, arguments);
}

PyObject* add(PyObject* a, PyObject* b) noexcept { return binary(ufuncs.add, a, b); }
PyObject* subtract(PyObject* a, PyObject* b) noexcept { return binary(ufuncs.subtract, a, b); }
PyObject* multiply(PyObject* a, PyObject* b) noexcept { return binary(ufuncs.multiply, a, b); }
PyObject* true_divide(PyObject* a, PyObject* b) noexcept { return binary(ufuncs.true_divide, a, b); }
PyObject* floor_divide(PyObject* a, PyObject* b) noexcept { return binary(ufuncs.floor_divide, a, b); }
PyObject* remainder(PyObject* a, PyObject* b) noexcept { return binary(ufuncs.remainder, a, b); }
PyObject* bitwise_and(PyObject* a, PyObject* b) noexcept { return binary(ufuncs.bitwise_and, a, b); }
PyObject* bitwise_or(PyObject* a, PyObject* b) noexcept { return binary(ufuncs.bitwise_or, a, b); }
PyObject* bitwise_xor(PyObject* a, PyObject* b) noexcept { return binary(ufuncs.bitwise_xor, a, b); }
PyObject* left_shift(PyObject* a, PyObject* b) noexcept { return binary(ufuncs.left_shift, a, b); }
PyObject* right_shift(PyObject* a, PyObject* b) noexcept { return binary(ufuncs.right_shift, a, b); }
PyObject* power(PyObject* a, PyObject* b, PyObject* modulo) noexcept {
    return modulo == Py_None ? binary(ufuncs.power, a, b) : not_implemented();
}

PyObject* add_in_place(PyObject* a, PyObject* b) noexcept { return in_place(ufuncs.add, a, b); }
PyObject* subtract_in_place(PyObject* a, PyObject* b) noexcept { return in_place(ufuncs.subtract, a, b); }
PyObject* multiply_in_place(PyObject* a, PyObject* b) noexcept { return in_place(ufuncs.multiply, a, b); }
PyObject* true_divide_in_place(PyObject* a, PyObject* b) noexcept { return in_place(ufuncs.true_divide, a, b); }
PyObject* floor_divide_in_place(PyObject* a, PyObject* b) noexcept { return in_place(ufuncs.floor_divide, a, b); }
PyObject* remainder_in_place(PyObject* a, PyObject* b) noexcept { return in_place(ufuncs.remainder, a, b); }
PyObject* bitwise_and_in_place(PyObject* a, PyObject* b) noexcept { return in_place(ufuncs.bitwise_and, a, b); }
PyObject* bitwise_or_in_place(PyObject* a, PyObject* b) noexcept { return in_place(ufuncs.bitwise_or, a, b); }
PyObject* bitwise_xor_in_place(PyObject* a, PyObject* b) noexcept { return in_place(ufuncs.bitwise_xor, a, b); }
PyObject* left_shift_in_place(PyObject* a, PyObject* b) noexcept { return in_place(ufuncs.left_shift, a, b); }
PyObject* right_shift_in_place(PyObject* a, PyObject* b) noexcept { return in_place(ufuncs.right_shift, a, b); }
PyObject* power_in_place(PyObject* a, PyObject* b, PyObject* modulo) noexcept {
    return modulo == Py_None ? in_place(ufuncs.power, a, b) : not_implemented();
}

PyObject* negative(PyObject* a) noexcept { return unary(ufuncs.negative, a); }
PyObject* positive(PyObject* a) noexcept { return unary(ufuncs.positive, a); }
PyObject* absolute(PyObject* a) noexcept { return unary(ufuncs.absolute, a); }
PyObject* invert(PyObject* a) noexcept { return unary(ufuncs.bitwise_not, a); }

// divmod(a, b): the divmod row, else floor_divide and remainder (what NumPy's divmod computes).
PyObject* divmod(PyObject* a, PyObject* b) noexcept {
    if (ufuncs.divmod) return binary(ufuncs.divmod, a, b);
    if (!ufuncs.floor_divide || !ufuncs.remainder) return not_implemented();
    PyObject* quotient = binary(ufuncs.floor_divide, a, b);
    if (!quotient || quotient == Py_NotImplemented) return quotient;
    PyObject* rest = binary(ufuncs.remainder, a, b);
    if (!rest) {
        Py_DECREF(quotient);
        return nullptr;
    }
    PyObject* pair = PyTuple_Pack(2, quotient, rest);
    Py_DECREF(quotient);
    Py_DECREF(rest);
    return pair;
}

// a @ b: gpukit::matmul (not a ufunc row: a product of whole matrices); a @= b writes into a
// (NumPy's out=a, same_kind). A number is a 0-d operand, which matmul refuses as NumPy does; an
// operand of unknown type gives NotImplemented.
PyObject* matmul_of(PyObject* a, PyObject* b, bool in_place_form) noexcept {
    try {
        HeldArrays held;
        ElementwiseOperand ignored{Scalar(false)};
        for (PyObject* operand : {a, b})
            if (to_operand(operand, ignored, held) == Operand::foreign) return not_implemented();
        for (const auto& [index, operand] : {std::pair{0, a}, std::pair{1, b}})
            if (!nb::isinstance<Array>(nb::handle(operand)))
                throw InvalidArgumentError(std::string("matmul: Input operand ") + std::to_string(index) +
                                           " does not have enough dimensions (has 0, gufunc core with signature "
                                           "(n?,k),(k,m?)->(n?,m?) requires 1)");
        const Array& left = nb::cast<const Array&>(nb::handle(a));
        const Array& right = nb::cast<const Array&>(nb::handle(b));
        MatmulOptions options;
        if (in_place_form) options.out = left;
        Array result = [&] {
            GilRelease unlocked;
            return gpukit::matmul(left, right, options);
        }();
        if (in_place_form) return Py_NewRef(a);
        return nb::cast(std::move(result)).release().ptr();
    } catch (...) {
        set_python_error_from_exception();
    }
    return nullptr;
}
PyObject* matmul(PyObject* a, PyObject* b) noexcept { return matmul_of(a, b, false); }
PyObject* matmul_in_place(PyObject* a, PyObject* b) noexcept { return matmul_of(a, b, true); }

PyObject* compare(PyObject* self, PyObject* other, int operation) noexcept {
    switch (operation) {
        case Py_EQ: return binary(ufuncs.equal, self, other);
        case Py_NE: return binary(ufuncs.not_equal, self, other);
        case Py_LT: return binary(ufuncs.less, self, other);
        case Py_LE: return binary(ufuncs.less_equal, self, other);
        case Py_GT: return binary(ufuncs.greater, self, other);
        case Py_GE: return binary(ufuncs.greater_equal, self, other);
        default: return not_implemented();
    }
}

// ---- one element as a Python number, as NumPy converts (its rules and messages)

const Array& self_array(PyObject* self) { return *nb::inst_ptr<Array>(self); }

// The element of a 0-d array, as a 0-d NumPy array (a host copy) that converts as NumPy's do.
nb::object only_element(const Array& array) {
    if (array.ndim() != 0) raise_type_error("only 0-dimensional arrays can be converted to Python scalars");
    return to_numpy(array);
}

int truth(PyObject* self) noexcept {
    try {
        const Array& array = self_array(self);
        if (array.size() == 0)
            raise_value_error(
                "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not "
                "empty.");
        if (array.size() != 1)
            raise_value_error(
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
        return PyObject_IsTrue(to_numpy(array).ptr());
    } catch (...) {
        set_python_error_from_exception();
        return -1;
    }
}

PyObject* to_int(PyObject* self) noexcept {
    try {
        return PyNumber_Long(only_element(self_array(self)).ptr());
    } catch (...) {
        set_python_error_from_exception();
        return nullptr;
    }
}

PyObject* to_float(PyObject* self) noexcept {
    try {
        return PyNumber_Float(only_element(self_array(self)).ptr());
    } catch (...) {
        set_python_error_from_exception();
        return nullptr;
    }
}

PyObject* to_index(PyObject* self) noexcept {
    try {
        const Array& array = self_array(self);
        const DTypeKind k = kind(array.dtype());
        if (array.ndim() != 0 || !(k == DTypeKind::signed_integer || k == DTypeKind::unsigned_integer))
            raise_type_error("only integer scalar arrays can be converted to a scalar index");
        return PyNumber_Index(to_numpy(array).ptr());
    } catch (...) {
        set_python_error_from_exception();
        return nullptr;
    }
}

const PyType_Slot slots[] = {
    {Py_nb_add, reinterpret_cast<void*>(&add)},
    {Py_nb_subtract, reinterpret_cast<void*>(&subtract)},
    {Py_nb_multiply, reinterpret_cast<void*>(&multiply)},
    {Py_nb_true_divide, reinterpret_cast<void*>(&true_divide)},
    {Py_nb_floor_divide, reinterpret_cast<void*>(&floor_divide)},
    {Py_nb_remainder, reinterpret_cast<void*>(&remainder)},
    {Py_nb_power, reinterpret_cast<void*>(&power)},
    {Py_nb_divmod, reinterpret_cast<void*>(&divmod)},
    {Py_nb_matrix_multiply, reinterpret_cast<void*>(&matmul)},
    {Py_nb_and, reinterpret_cast<void*>(&bitwise_and)},
    {Py_nb_or, reinterpret_cast<void*>(&bitwise_or)},
    {Py_nb_xor, reinterpret_cast<void*>(&bitwise_xor)},
    {Py_nb_lshift, reinterpret_cast<void*>(&left_shift)},
    {Py_nb_rshift, reinterpret_cast<void*>(&right_shift)},
    {Py_nb_inplace_add, reinterpret_cast<void*>(&add_in_place)},
    {Py_nb_inplace_subtract, reinterpret_cast<void*>(&subtract_in_place)},
    {Py_nb_inplace_multiply, reinterpret_cast<void*>(&multiply_in_place)},
    {Py_nb_inplace_true_divide, reinterpret_cast<void*>(&true_divide_in_place)},
    {Py_nb_inplace_floor_divide, reinterpret_cast<void*>(&floor_divide_in_place)},
    {Py_nb_inplace_remainder, reinterpret_cast<void*>(&remainder_in_place)},
    {Py_nb_inplace_power, reinterpret_cast<void*>(&power_in_place)},
    {Py_nb_inplace_matrix_multiply, reinterpret_cast<void*>(&matmul_in_place)},
    {Py_nb_inplace_and, reinterpret_cast<void*>(&bitwise_and_in_place)},
    {Py_nb_inplace_or, reinterpret_cast<void*>(&bitwise_or_in_place)},
    {Py_nb_inplace_xor, reinterpret_cast<void*>(&bitwise_xor_in_place)},
    {Py_nb_inplace_lshift, reinterpret_cast<void*>(&left_shift_in_place)},
    {Py_nb_inplace_rshift, reinterpret_cast<void*>(&right_shift_in_place)},
    {Py_nb_negative, reinterpret_cast<void*>(&negative)},
    {Py_nb_positive, reinterpret_cast<void*>(&positive)},
    {Py_nb_absolute, reinterpret_cast<void*>(&absolute)},
    {Py_nb_invert, reinterpret_cast<void*>(&invert)},
    {Py_nb_bool, reinterpret_cast<void*>(&truth)},
    {Py_nb_int, reinterpret_cast<void*>(&to_int)},
    {Py_nb_float, reinterpret_cast<void*>(&to_float)},
    {Py_nb_index, reinterpret_cast<void*>(&to_index)},
    {Py_tp_richcompare, reinterpret_cast<void*>(&compare)},
    // As NumPy's: arrays compare elementwise, so they are not hashable.
    {Py_tp_hash, reinterpret_cast<void*>(&PyObject_HashNotImplemented)},
    {0, nullptr},
};

// ---- methods that are ufunc calls

nb::object call(const detail::Ufunc* ufunc, const char* name, UfuncArguments& arguments) {
    if (!ufunc)
        throw nb::attribute_error(
            (std::string("ndarray.") + name + " needs the ufunc of that name, which gpukit does not have yet").c_str());
    PyObject* result = call_ufunc(*ufunc, arguments);
    if (!result) throw nb::python_error();
    return nb::steal(result);
}

nb::object conjugate(nb::handle self) {
    UfuncArguments arguments;
    arguments.inputs[0] = self.ptr();
    return call(ufuncs.conjugate, "conjugate", arguments);
}

// a.clip(min, max, out=None): the clip row, else maximum then minimum (NumPy's definition); a
// bound of None leaves that side open.
// With neither bound the result is a copy (of a's values, into out when given), as NumPy 2's.
nb::object clip(nb::handle self, nb::handle low, nb::handle high, nb::handle out, const nb::kwargs& keywords) {
    PyObject* out_object = out.is_none() ? nullptr : out.ptr();
    if (low.is_none() && high.is_none()) {
        if (out.is_none()) return nb::borrow(self).attr("copy")();
        out.attr("__setitem__")(nb::ellipsis(), self);
        return nb::borrow(out);
    }
    const auto with_keywords = [&](UfuncArguments& arguments, const detail::Ufunc* ufunc, const char* name) {
        for (auto [key, value] : keywords) {
            const std::string word = nb::cast<std::string>(key);
            if (word == "casting")
                arguments.options.casting = parse_casting(nb::cast<std::string>(value));
            else if (word == "dtype")
                arguments.options.dtype = to_dtype(value);
            else
                raise_type_error("clip() got an unexpected keyword argument '" + word +
                                 "' (it takes min, max, out, casting and dtype)");
        }
        return call(ufunc, name, arguments);
    };
    if (ufuncs.clip && !low.is_none() && !high.is_none()) {
        UfuncArguments arguments;
        arguments.inputs = {self.ptr(), low.ptr(), high.ptr(), nullptr};
        arguments.outputs[0] = out_object;
        return with_keywords(arguments, ufuncs.clip, "clip");
    }
    nb::object result = nb::borrow(self);
    if (!low.is_none()) {
        UfuncArguments arguments;
        arguments.inputs[0] = result.ptr();
        arguments.inputs[1] = low.ptr();
        arguments.outputs[0] = out_object;
        result = with_keywords(arguments, ufuncs.maximum, "maximum");
    }
    if (!high.is_none()) {
        UfuncArguments arguments;
        arguments.inputs[0] = result.ptr();
        arguments.inputs[1] = high.ptr();
        arguments.outputs[0] = out_object;
        result = with_keywords(arguments, ufuncs.minimum, "minimum");
    }
    return result;
}

// a.round(decimals=0, out=None): gpukit::round (NumPy's rounding, rint for decimals 0).
nb::object round_method(const Array& array, nb::handle decimals, nb::handle out) {
    const auto places = static_cast<int>(to_int64(decimals, "decimals", -1000, 1000));
    HeldArrays held;
    std::optional<Array> target;  // a handle of out's memory: assign writes through it
    if (!out.is_none()) target = to_output(out.ptr(), held, "out");
    std::optional<Array> rounded;
    {
        GilRelease unlocked;
        rounded = gpukit::round(array, places);
        if (target) target->assign(*rounded);
    }
    if (target) return nb::borrow(out);
    return nb::cast(std::move(*rounded));
}

// NumPy hands its ufuncs to us when an operand is a gpukit array (numpy.sqrt(x), numpy_array + x):
// gpukit's ufunc of that name runs, which refuses NumPy arrays naming gpukit.asarray (0-d ones
// are scalars here: NumPy makes them of the scalars it compares). NotImplemented
// for a ufunc gpukit lacks, or when another operand has an __array_ufunc__ of its own to decide.
nb::object array_ufunc(nb::handle, nb::handle numpy_ufunc, nb::handle method, const nb::args& inputs,
                       const nb::kwargs& keywords) {
    nb::object not_implemented = nb::borrow(Py_NotImplemented);
    const std::string name = nb::cast<std::string>(numpy_ufunc.attr("__name__"));
    const detail::Ufunc* row = find_ufunc(name);
    if (!row) {
        // NumPy's ufuncs with core dimensions (matmul, vecdot, ...) are gpukit functions of the name.
        nb::object gpukit = nb::module_::import_("gpukit");
        if (nb::cast<std::string>(method) != "__call__" || !nb::hasattr(gpukit, name.c_str())) return not_implemented;
        return gpukit.attr(name.c_str())(*inputs, **keywords);
    }
    nb::handle numpy_array = numpy_module().attr("ndarray");
    const auto defers = [&](nb::handle value) {
        return !as_array(value.ptr()) && !nb::isinstance(value, numpy_array) && nb::hasattr(value, "__array_ufunc__") &&
               !value.attr("__array_ufunc__").is_none();
    };
    for (nb::handle input : inputs)
        if (defers(input)) return not_implemented;
    if (keywords.contains("out"))
        for (nb::handle output : nb::borrow<nb::tuple>(keywords["out"]))
            if (defers(output)) return not_implemented;
    // NumPy hands a NumPy scalar it compares with (numpy.float32(1) < x) over as a 0-d array: a
    // scalar again here. A 0-d array the caller made is taken as NumPy's own scalar too.
    nb::list operands;
    for (nb::handle input : inputs)
        operands.append(nb::isinstance(input, numpy_array) && nb::cast<int>(input.attr("ndim")) == 0
                            ? nb::object(input[nb::tuple()])
                            : nb::borrow(input));
    nb::object ufunc = ufunc_object(*row);
    const std::string called = nb::cast<std::string>(method);
    if (called == "__call__") return ufunc(*operands, **keywords);
    return ufunc.attr(method)(*operands, **keywords);
}

}  // namespace

const PyType_Slot* array_operator_slots() noexcept { return slots; }

void bind_array_operators(nb::module_& m) {
    find_operator_ufuncs();
    nb::handle cls = nb::type<Array>();
    add_method(cls, "conj", &conjugate, nb::sig("def conj(self) -> ndarray"),
               "The complex conjugate, elementwise (the array's values for real dtypes), as gpukit.conjugate.");
    add_method(cls, "conjugate", &conjugate, nb::sig("def conjugate(self) -> ndarray"),
               "The complex conjugate, elementwise (the array's values for real dtypes), as gpukit.conjugate.");
    add_method(cls, "clip", &clip, "min"_a.none() = nb::none(), "max"_a.none() = nb::none(),
               "out"_a.none() = nb::none(), "kwargs"_a,
               nb::sig("def clip(self, min: object = None, max: object = None, out: ndarray | None = None, "
                       "**kwargs: object) -> ndarray"),
               "The values limited to [min, max] (either may be None), as numpy.clip: ``minimum(maximum(a, min), "
               "max)``; ``out``, ``casting`` and ``dtype`` as a ufunc's.");
    add_method(cls, "round", &round_method, "decimals"_a.none() = 0, "out"_a.none() = nb::none(),
               nb::sig("def round(self, decimals: int = 0, out: ndarray | None = None) -> ndarray"),
               "The elements rounded to ``decimals`` decimal places as numpy.round rounds them (halves to even; "
               "integers unchanged for decimals >= 0); into ``out`` when given.");
    // numpy.clip and numpy.round as functions: the methods' work, the array first.
    // gpukit.clip replaces the clip ufunc's module attribute (gpukit.ufuncs() keeps the ufunc).
    nb::delattr(m, "clip");
    m.def(
        "clip",
        [](nb::handle a, nb::handle a_min, nb::handle a_max, nb::handle out, nb::handle min, nb::handle max,
           const nb::kwargs& keywords) {
            // numpy.clip names each bound twice (a_min or min, a_max or max): one of each at most.
            auto bound = [](nb::handle numpy_name, nb::handle name, const char* side, const char* both) {
                if (!numpy_name.is_none() && !name.is_none())
                    raise_type_error(std::string("clip() got the ") + side + " bound twice: as " + both);
                return numpy_name.is_none() ? name : numpy_name;
            };
            return clip(a, bound(a_min, min, "lower", "a_min and as min"),
                        bound(a_max, max, "upper", "a_max and as max"), out, keywords);
        },
        "a"_a, "a_min"_a.none() = nb::none(), "a_max"_a.none() = nb::none(), "out"_a.none() = nb::none(), nb::kw_only(),
        "min"_a.none() = nb::none(), "max"_a.none() = nb::none(), "kwargs"_a,
        nb::sig("def clip(a: ndarray, a_min: object = None, a_max: object = None, out: ndarray | None = None, *, "
                "min: object = None, max: object = None, **kwargs: object) -> ndarray"),
        "``a`` limited to [a_min, a_max] (either may be None), as numpy.clip: the clip ufunc, or maximum or minimum "
        "alone; ``out``, ``casting`` and ``dtype`` as a ufunc's.");
    const char* const round_doc =
        "``a`` rounded to ``decimals`` decimal places as numpy.round rounds (halves to even; integers unchanged for "
        "decimals >= 0); into ``out`` when given.";
    m.def("around", &round_method, "a"_a, "decimals"_a.none() = 0, "out"_a.none() = nb::none(),
          nb::sig("def around(a: ndarray, decimals: int = 0, out: ndarray | None = None) -> ndarray"), round_doc);
    m.def("round", &round_method, "a"_a, "decimals"_a.none() = 0, "out"_a.none() = nb::none(),
          nb::sig("def round(a: ndarray, decimals: int = 0, out: ndarray | None = None) -> ndarray"), round_doc);
    add_method(
        cls, "__complex__",
        [](const Array& a) {
            PyObject* value = PyObject_CallMethod(only_element(a).ptr(), "__complex__", nullptr);
            if (!value) throw nb::python_error();
            return nb::steal(value);
        },
        nb::sig("def __complex__(self) -> complex"), "The element of a 0-d array as a Python complex.");
    add_method(cls, "__array_ufunc__", &array_ufunc, "ufunc"_a, "method"_a, "inputs"_a, "kwargs"_a,
               nb::sig("def __array_ufunc__(self, ufunc: object, method: str, *inputs: object, **kwargs: object) "
                       "-> object"),
               "NumPy's ufuncs on gpukit arrays (numpy.sqrt(x)) run gpukit's; NumPy arrays among the operands raise "
               "TypeError naming gpukit.asarray.");
}

}  // namespace gpukit::python
