// python/src/numpy_bridge.cpp: see numpy_bridge.hpp.
#include "numpy_bridge.hpp"

#include <nanobind/stl/string.h>

#include "arguments.hpp"
#include "gpukit/error.hpp"
#include "python_refs.hpp"

#include <array>
#include <climits>
#include <string>

namespace nb = nanobind;

namespace gpukit::python {

namespace {

// Borrowed for the life of the process, like the modules they come from.
PyObject* numpy = nullptr;
std::array<PyObject*, std::size(dtype_table)> numpy_dtypes{};  // null where NumPy has none
bool numpy_dtypes_made = false;

void make_numpy_dtypes() {
    if (numpy_dtypes_made) return;
    nb::handle dtype = numpy_module().attr("dtype");
    for (const DTypeInfo& row : dtype_table) {
        nb::object made;
        if (row.dtype == DType::bfloat16) {
            nb::object ml_dtypes = nb::steal(PyImport_ImportModule("ml_dtypes"));
            if (!ml_dtypes.is_valid()) {
                PyErr_Clear();
                continue;
            }
            made = dtype(ml_dtypes.attr("bfloat16"));
        } else {
            made = dtype(nb::str(row.name.data(), row.name.size()));
        }
        numpy_dtypes[static_cast<std::size_t>(row.dtype)] = made.release().ptr();
    }
    numpy_dtypes_made = true;
}

}  // namespace

nb::handle numpy_module() {
    if (!numpy) numpy = nb::module_::import_("numpy").release().ptr();
    return numpy;
}

bool numpy_holds(DType dtype) {
    make_numpy_dtypes();
    return numpy_dtypes[static_cast<std::size_t>(dtype)] != nullptr;
}

nb::object numpy_dtype(DType dtype) {
    make_numpy_dtypes();
    if (PyObject* made = numpy_dtypes[static_cast<std::size_t>(dtype)]) return nb::borrow(made);
    throw nb::type_error(
        "bfloat16 arrays need the ml_dtypes package, which gives NumPy a bfloat16 dtype "
        "(pip install ml_dtypes)");
}

DType to_dtype(nb::handle dtype_like) {
    make_numpy_dtypes();
    for (const DTypeInfo& row : dtype_table)  // the common case: one of ours, or its type
        if (dtype_like.ptr() == numpy_dtypes[static_cast<std::size_t>(row.dtype)]) return row.dtype;
    if (PyUnicode_Check(dtype_like.ptr()) && nb::cast<std::string>(dtype_like) == "bfloat16")
        numpy_dtype(DType::bfloat16);  // NumPy knows no such name: say what would give it one
    nb::object resolved;
    try {
        resolved = numpy_module().attr("dtype")(dtype_like);
    } catch (nb::python_error& failure) {
        if (!failure.matches(PyExc_TypeError)) throw;
        raise_type_error("dtype must be a numpy.dtype, a type or a name such as 'float32', not " +
                         describe_value(dtype_like));
    }
    if (auto dtype = dtype_named(nb::cast<std::string>(resolved.attr("name"))))
        if (numpy_holds(*dtype)) return *dtype;
    return parse_dtype(nb::cast<std::string>(nb::str(resolved)));  // throws, naming what arrays hold
}

std::optional<DType> held_dtype(nb::handle numpy_dtype) {
    make_numpy_dtypes();
    for (const DTypeInfo& row : dtype_table)
        if (numpy_dtype.ptr() == numpy_dtypes[static_cast<std::size_t>(row.dtype)]) return row.dtype;
    const auto dtype = dtype_named(nb::cast<std::string>(numpy_dtype.attr("name")));
    if (dtype && numpy_holds(*dtype)) return dtype;
    return std::nullopt;
}

nb::object as_numpy(nb::handle value) {
    nb::object array = numpy_module().attr("asarray")(value);
    nb::object dtype = array.attr("dtype");
    if (!nb::cast<bool>(dtype.attr("isnative"))) array = array.attr("astype")(dtype.attr("newbyteorder")("="));
    return array;
}

nb::object numpy_empty(const Shape& shape, DType dtype) {
    nb::list extents;
    for (std::int64_t extent : shape) extents.append(extent);
    return numpy_module().attr("empty")(nb::tuple(extents), numpy_dtype(dtype));
}

nb::object to_numpy(const Array& array) {
    nb::object host = numpy_empty(array.shape(), array.dtype());
    const NumpyHost out(host, true);
    {
        GilRelease unlocked;
        array.copy_to_host(out.view());
    }
    return host;
}

NumpyHost::NumpyHost(nb::handle array, bool writable) {
    const DType dtype = to_dtype(array.attr("dtype"));
    nb::object exported = nb::borrow(array);
    if (dtype == DType::bfloat16) exported = array.attr("view")(numpy_dtype(DType::uint16));  // no buffer format for it
    if (PyObject_GetBuffer(exported.ptr(), &buffer_, PyBUF_STRIDES | (writable ? PyBUF_WRITABLE : 0)) != 0)
        nb::raise_python_error();
    Shape shape(buffer_.shape, buffer_.shape + buffer_.ndim);
    Strides strides(buffer_.strides, buffer_.strides + buffer_.ndim);
    view_ = HostView(static_cast<std::byte*>(buffer_.buf), dtype, std::move(shape), std::move(strides));
}

std::int64_t to_clamped_int64(nb::handle value) {
    const Py_ssize_t n = PyNumber_AsSsize_t(value.ptr(), nullptr);  // clamps
    if (n == -1 && PyErr_Occurred()) nb::raise_python_error();
    return static_cast<std::int64_t>(n);
}

Shape to_shape(nb::handle shape, std::string_view name) {
    const auto refuse = [&] {
        raise_type_error(std::string(name) + " must be an int or a tuple of ints, not " + describe_value(shape));
    };
    if (shape.is_none() || PyBool_Check(shape.ptr()) || PyUnicode_Check(shape.ptr()) || PyBytes_Check(shape.ptr()))
        refuse();
    if (PyIndex_Check(shape.ptr())) return {to_int64(shape, name)};
    if (!PySequence_Check(shape.ptr())) refuse();
    nb::object items = nb::steal(PySequence_Fast(shape.ptr(), ""));
    if (!items.is_valid()) {
        PyErr_Clear();
        refuse();
    }
    Shape extents;
    const Py_ssize_t count = PySequence_Fast_GET_SIZE(items.ptr());
    for (Py_ssize_t i = 0; i < count; ++i) {
        nb::handle extent = PySequence_Fast_GET_ITEM(items.ptr(), i);
        extents.push_back(to_int64(extent, std::string(name) + "[" + std::to_string(i) + "]"));
    }
    return extents;
}

std::vector<std::int64_t> to_extents(nb::handle args, std::string_view name) {
    nb::tuple items = nb::borrow<nb::tuple>(args);
    if (nb::len(items) == 1 && !PyIndex_Check(items[0].ptr())) return to_shape(items[0], name);
    return to_shape(items, name);
}

}  // namespace gpukit::python
