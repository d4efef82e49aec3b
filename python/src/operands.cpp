// python/src/operands.cpp: see operands.hpp.
#include "operands.hpp"

#include <nanobind/stl/string.h>

#include <climits>
#include <complex>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "arguments.hpp"
#include "gpukit/error.hpp"
#include "numpy_bridge.hpp"

namespace nb = nanobind;

namespace gpukit::python {
namespace {

// NumPy's types, found once: the scalar type and dtype object of each DType NumPy holds, and the
// classes a value is checked against. Borrowed for the life of the process, like NumPy itself.
struct NumpyTypes {
    std::array<PyTypeObject*, std::size(dtype_table)> scalar{};  // numpy.float32 ...; null where NumPy has none
    std::array<PyObject*, std::size(dtype_table)> dtype{};       // numpy.dtype('float32') ...
    PyTypeObject* generic = nullptr;                             // numpy.generic
    PyTypeObject* ndarray = nullptr;                             // numpy.ndarray
};

const NumpyTypes& numpy_types() {
    static const NumpyTypes types = [] {
        NumpyTypes made;
        for (const DTypeInfo& row : dtype_table) {
            if (!numpy_holds(row.dtype)) continue;
            nb::object dtype = numpy_dtype(row.dtype);
            const auto k = static_cast<std::size_t>(row.dtype);
            made.scalar[k] = reinterpret_cast<PyTypeObject*>(nb::object(dtype.attr("type")).release().ptr());
            made.dtype[k] = dtype.release().ptr();
        }
        made.generic = reinterpret_cast<PyTypeObject*>(nb::object(numpy_module().attr("generic")).release().ptr());
        made.ndarray = reinterpret_cast<PyTypeObject*>(nb::object(numpy_module().attr("ndarray")).release().ptr());
        return made;
    }();
    return types;
}

std::string type_name(PyObject* value) {
    PyTypeObject* type = Py_TYPE(value);
    nb::object module = nb::steal(PyObject_GetAttrString(reinterpret_cast<PyObject*>(type), "__module__"));
    if (!module.is_valid()) PyErr_Clear();
    std::string name = type->tp_name;
    if (!module.is_valid() || !PyUnicode_Check(module.ptr()) || name.find('.') != std::string::npos) return name;
    const std::string prefix = nb::cast<std::string>(module);
    return prefix == "builtins" ? name : prefix + "." + name;
}

[[noreturn]] void refuse_host_data(PyObject* value) {
    raise_type_error("Unsupported type " + type_name(value) +
                     ": gpukit operations take gpukit arrays and numbers, and never copy host data to the device "
                     "behind your back (as CuPy); copy it first with gpukit.asarray(value)");
}

// A NumPy scalar's element, read through its buffer (NumPy's scalars export one), else through a
// NumPy array of it (a scalar type of another package, such as ml_dtypes' bfloat16).
Scalar typed_scalar(PyObject* value, DType dtype) {
    std::array<std::byte, 16> bytes{};
    const std::size_t size = itemsize(dtype);
    Py_buffer view;
    if (PyObject_GetBuffer(value, &view, PyBUF_SIMPLE) == 0) {
        const bool fits = static_cast<std::size_t>(view.len) == size;
        if (fits) std::memcpy(bytes.data(), view.buf, size);
        PyBuffer_Release(&view);
        if (fits) return Scalar::typed(dtype, bytes.data());
    } else {
        PyErr_Clear();
    }
    nb::bytes raw = nb::borrow<nb::bytes>(numpy_module().attr("asarray")(nb::handle(value)).attr("tobytes")());
    if (raw.size() != size) raise_type_error("Unsupported type " + type_name(value) + ": not one element");
    std::memcpy(bytes.data(), raw.c_str(), size);
    return Scalar::typed(dtype, bytes.data());
}

Scalar weak_int(PyObject* value) {
    int overflow = 0;
    const long long n = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow == 0) {
        if (n == -1 && PyErr_Occurred()) throw nb::python_error();
        return Scalar(static_cast<std::int64_t>(n));
    }
    if (overflow > 0) {
        const unsigned long long u = PyLong_AsUnsignedLongLong(value);
        if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred()))
            return Scalar::weak_unsigned(static_cast<std::uint64_t>(u));
        PyErr_Clear();
    }
    throw ScalarOverflowError("Python integer " + str_of(value) +
                              " out of bounds for int64 and uint64: gpukit operations take Python ints from -2**63 "
                              "to 2**64 - 1 (use a float for larger magnitudes)");
}

// The DType of a NumPy scalar's exact type, or nullopt.
std::optional<DType> numpy_scalar_dtype(PyTypeObject* type) noexcept {
    const NumpyTypes& numpy = numpy_types();
    for (std::size_t k = 0; k < numpy.scalar.size(); ++k)
        if (numpy.scalar[k] == type) return static_cast<DType>(k);
    return std::nullopt;
}

bool has_attribute(PyObject* value, const char* name) {
    const int found = PyObject_HasAttrString(value, name);
    return found == 1;
}

// Another library's array in memory this device addresses, as gpukit._interop finds it (None for
// host memory; TypeError for CUDA memory on the simulator).
std::optional<Array> device_array_of(PyObject* value) {
    nb::object found = nb::module_::import_("gpukit._interop").attr("_device_memory_of")(nb::handle(value));
    if (found.is_none() || !as_array(found.ptr())) return std::nullopt;
    return *as_array(found.ptr());
}

}  // namespace

const Array& HeldArrays::hold(Array array) {
    if (count_ == arrays_.size()) throw std::logic_error("HeldArrays: more arrays than a call has operands");
    return arrays_[count_++].emplace(std::move(array));
}

PyTypeObject* array_type() noexcept {
    static PyTypeObject* const type = reinterpret_cast<PyTypeObject*>(nb::type<Array>().ptr());
    return type;
}

Operand to_operand(PyObject* value, ElementwiseOperand& operand, HeldArrays& held) {
    PyTypeObject* type = Py_TYPE(value);
    if (type == array_type()) {
        operand = ElementwiseOperand(*nb::inst_ptr<Array>(value));
        return Operand::taken;
    }
    if (type == &PyFloat_Type) {
        operand = ElementwiseOperand(Scalar(PyFloat_AS_DOUBLE(value)));
        return Operand::taken;
    }
    if (type == &PyLong_Type) {
        operand = ElementwiseOperand(weak_int(value));
        return Operand::taken;
    }
    if (type == &PyBool_Type) {
        operand = ElementwiseOperand(Scalar(value == Py_True));
        return Operand::taken;
    }
    if (type == &PyComplex_Type) {
        const Py_complex c = PyComplex_AsCComplex(value);
        operand = ElementwiseOperand(Scalar(std::complex<double>(c.real, c.imag)));
        return Operand::taken;
    }
    if (const auto dtype = numpy_scalar_dtype(type)) {
        operand = ElementwiseOperand(typed_scalar(value, *dtype));
        return Operand::taken;
    }
    if (const Array* array = as_array(value)) {  // a subclass
        operand = ElementwiseOperand(*array);
        return Operand::taken;
    }
    // What operators meet most besides numbers (x == None), refused before the attribute probes below.
    if (value == Py_None || PyUnicode_Check(value) || PyBytes_Check(value) || PyType_Check(value) ||
        PyDict_Check(value) || PyAnySet_Check(value) || value == Py_Ellipsis)
        return Operand::foreign;
    const NumpyTypes& numpy = numpy_types();
    if (PyObject_TypeCheck(value, numpy.generic)) {  // a NumPy scalar of a type of its own (numpy.longlong)
        const std::optional<DType> dtype = held_dtype(nb::handle(value).attr("dtype"));
        if (!dtype) raise_type_error("Unsupported type " + type_name(value) + ": gpukit arrays hold numbers only");
        operand = ElementwiseOperand(typed_scalar(value, *dtype));
        return Operand::taken;
    }
    if (PyLong_Check(value)) {  // int subclasses (IntEnum) and the rest, as Python's own
        operand = ElementwiseOperand(weak_int(value));
        return Operand::taken;
    }
    if (PyFloat_Check(value)) {
        operand = ElementwiseOperand(Scalar(PyFloat_AsDouble(value)));
        return Operand::taken;
    }
    if (PyComplex_Check(value)) {
        const Py_complex c = PyComplex_AsCComplex(value);
        operand = ElementwiseOperand(Scalar(std::complex<double>(c.real, c.imag)));
        return Operand::taken;
    }
    if (PyObject_TypeCheck(value, numpy.ndarray) || PyList_Check(value) || PyTuple_Check(value))
        refuse_host_data(value);
    if (has_attribute(value, "__cuda_array_interface__") || has_attribute(value, "__dlpack__")) {
        if (std::optional<Array> array = device_array_of(value)) {
            operand = ElementwiseOperand(held.hold(std::move(*array)));
            return Operand::taken;
        }
        refuse_host_data(value);
    }
    if (has_attribute(value, "__array__") || has_attribute(value, "__array_interface__")) refuse_host_data(value);
    return Operand::foreign;
}

const Array& to_output(PyObject* value, HeldArrays& held, const char* what) {
    if (const Array* array = as_array(value)) return *array;
    if (!PyObject_TypeCheck(value, numpy_types().ndarray) &&
        (has_attribute(value, "__cuda_array_interface__") || has_attribute(value, "__dlpack__")))
        if (std::optional<Array> array = device_array_of(value)) return held.hold(std::move(*array));
    raise_type_error(std::string(what) + " must be a gpukit array (or None), not " + describe_value(value) +
                     (PyObject_TypeCheck(value, numpy_types().ndarray)
                          ? ": results stay on the device; copy them to a NumPy array with .get(out=...)"
                          : ""));
}

void refuse_operand(PyObject* value, std::string_view call, std::size_t position) {
    raise_type_error(std::string(call) + ": input " + std::to_string(position) +
                     " must be a gpukit array or a number (a Python or NumPy scalar), not " + describe_value(value));
}

Array scalar_as_array(const Scalar& scalar) {
    Array array = Array::empty({}, scalar.dtype(), Device::current());
    const std::array<std::byte, 16> element = scalar.as(scalar.dtype());
    array.fill_bytes(std::span<const std::byte>(element.data(), itemsize(scalar.dtype())));
    return array;
}

std::optional<DType> known_dtype(PyObject* dtype_like) noexcept {
    const NumpyTypes& numpy = numpy_types();
    for (std::size_t k = 0; k < numpy.dtype.size(); ++k)
        if (numpy.dtype[k] == dtype_like ||
            (numpy.scalar[k] && reinterpret_cast<PyObject*>(numpy.scalar[k]) == dtype_like))
            return static_cast<DType>(k);
    return std::nullopt;
}

Array array_operand(nanobind::handle value, HeldArrays& held, std::string_view call, std::size_t position) {
    ElementwiseOperand operand{Scalar(false)};
    if (to_operand(value.ptr(), operand, held) == Operand::foreign) refuse_operand(value.ptr(), call, position);
    return operand.array() ? *operand.array() : scalar_as_array(*operand.scalar());
}

}  // namespace gpukit::python
