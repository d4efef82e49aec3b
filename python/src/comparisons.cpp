// python/src/comparisons.cpp: gpukit/comparisons.hpp (isclose, allclose, array_equal, array_equiv)
// and gpukit/promotion.hpp (result_type, can_cast, promote_types) with NumPy's arguments.
#include <string>
#include <vector>

#include <nanobind/stl/string.h>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/comparisons.hpp"
#include "gpukit/promotion.hpp"
#include "numpy_bridge.hpp"
#include "operands.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

CloseOptions close_options(double rtol, double atol, bool equal_nan) { return {rtol, atol, equal_nan}; }

// One argument of result_type: arrays and dtypes are strong, Python numbers weak (NEP 50).
void add_to_promotion(nb::handle value, std::vector<DType>& strong, std::vector<PythonScalar>& weak) {
    if (const Array* array = as_array(value.ptr())) {
        strong.push_back(array->dtype());
        return;
    }
    if (PyBool_Check(value.ptr())) {
        weak.push_back(PythonScalar::boolean);
    } else if (PyLong_CheckExact(value.ptr())) {
        weak.push_back(PythonScalar::integer);
    } else if (PyFloat_CheckExact(value.ptr())) {
        weak.push_back(PythonScalar::floating);
    } else if (PyComplex_CheckExact(value.ptr())) {
        weak.push_back(PythonScalar::complex);
    } else if (nb::hasattr(value, "dtype") && !nb::isinstance<nb::type_object>(value)) {
        strong.push_back(to_dtype(value.attr("dtype")));  // NumPy arrays and scalars, other device arrays
    } else {
        strong.push_back(to_dtype(value));  // a dtype, a scalar type, a name
    }
}

}  // namespace

void bind_comparisons(nb::module_& m) {
    using Close = Array (*)(const Array&, const Array&, const CloseOptions&);
    const struct {
        const char* name;
        Close function;
        const char* signature;
        const char* doc;
    } close_rows[] = {
        {"isclose", &gpukit::isclose,
         "def isclose(a: object, b: object, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> "
         "ndarray",
         "Whether each element of ``a`` is within ``atol + rtol * |b|`` of ``b``'s, as numpy.isclose (an infinity "
         "close only to itself, nan to nan only with ``equal_nan``)."},
        {"allclose", &gpukit::allclose,
         "def allclose(a: object, b: object, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> "
         "ndarray",
         "Whether every element is close (isclose), as a 0-d bool array (CuPy's form: ``bool()`` of it waits)."},
    };
    for (const auto& row : close_rows) {
        m.def(
            row.name,
            [function = row.function, name = row.name](nb::handle a, nb::handle b, double rtol, double atol,
                                                       bool equal_nan) {
                HeldArrays held;
                const Array x = array_operand(a, held, name, 0), y = array_operand(b, held, name, 1);
                GilRelease unlocked;
                return function(x, y, close_options(rtol, atol, equal_nan));
            },
            "a"_a, "b"_a, "rtol"_a = 1e-5, "atol"_a = 1e-8, "equal_nan"_a = false, nb::sig(row.signature), row.doc);
    }
    m.def(
        "array_equal",
        [](nb::handle a1, nb::handle a2, bool equal_nan) {
            HeldArrays held;
            const Array x = array_operand(a1, held, "array_equal", 0), y = array_operand(a2, held, "array_equal", 1);
            GilRelease unlocked;
            return gpukit::array_equal(x, y, equal_nan);
        },
        "a1"_a, "a2"_a, "equal_nan"_a = false,
        nb::sig("def array_equal(a1: object, a2: object, equal_nan: bool = False) -> ndarray"),
        "Whether the arrays have one shape and equal elements, as a 0-d bool array (numpy.array_equal).");
    m.def(
        "array_equiv",
        [](nb::handle a1, nb::handle a2) {
            HeldArrays held;
            const Array x = array_operand(a1, held, "array_equiv", 0), y = array_operand(a2, held, "array_equiv", 1);
            GilRelease unlocked;
            return gpukit::array_equiv(x, y);
        },
        "a1"_a, "a2"_a, nb::sig("def array_equiv(a1: object, a2: object) -> ndarray"),
        "Whether the arrays broadcast to one shape and are equal there, as a 0-d bool array (numpy.array_equiv).");
    m.def(
        "result_type",
        [](const nb::args& arrays_and_dtypes) {
            std::vector<DType> strong;
            std::vector<PythonScalar> weak;
            for (nb::handle value : arrays_and_dtypes) add_to_promotion(value, strong, weak);
            if (strong.empty() && weak.empty()) raise_value_error("at least one array or dtype is required");
            return numpy_dtype(gpukit::result_type(strong, weak));
        },
        nb::sig("def result_type(*arrays_and_dtypes: object) -> object"),
        "The dtype an operation on these arrays, dtypes and numbers gives, as numpy.result_type (NumPy 2's rules: "
        "Python numbers are weak).");
    m.def(
        "can_cast",
        [](nb::handle from, nb::handle to, const std::string& casting) {
            if (PyLong_Check(from.ptr()) || PyFloat_Check(from.ptr()) || PyComplex_Check(from.ptr()))
                throw nb::type_error(
                    "can_cast() does not support Python ints, floats, and complex because the result used to "
                    "depend on the value.");
            const Array* array = as_array(from.ptr());
            const DType source = array ? array->dtype() : to_dtype(from);
            return gpukit::can_cast(source, to_dtype(to), parse_casting(casting));
        },
        "from_"_a, "to"_a, "casting"_a = "safe",
        nb::sig("def can_cast(from_: object, to: object, casting: str = 'safe') -> bool"),
        "Whether a cast from ``from_`` (a dtype or an array) to ``to`` is allowed under ``casting``, as "
        "numpy.can_cast.");
    m.def(
        "promote_types",
        [](nb::handle type1, nb::handle type2) {
            return numpy_dtype(gpukit::promote_types(to_dtype(type1), to_dtype(type2)));
        },
        "type1"_a, "type2"_a, nb::sig("def promote_types(type1: object, type2: object) -> object"),
        "The smallest dtype both convert to safely, as numpy.promote_types.");
}

}  // namespace gpukit::python
