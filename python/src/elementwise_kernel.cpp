// python/src/elementwise_kernel.cpp: gpukit.ElementwiseKernel, CuPy's, over the C++ one
// (gpukit/elementwise_kernel.hpp): arguments translated (gpukit arrays; Python numbers as weak
// scalars; NumPy scalars and 0-d arrays as typed ones), the call made without the GIL, and the
// outputs returned as CuPy returns them (no_return, return_tuple).
#include <nanobind/stl/string.h>

#include <optional>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "bindings.hpp"
#include "gpukit/elementwise_kernel.hpp"
#include "gpukit/error.hpp"
#include "numpy_bridge.hpp"
#include "python_stream.hpp"
#include "user_kernel_arguments.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

struct PythonElementwiseKernel {
    ElementwiseKernel kernel;
    bool no_return = false;
    bool return_tuple = false;
};

}  // namespace

std::vector<std::string> to_compile_options(nb::handle options) {
    if (PyUnicode_Check(options.ptr())) return {to_str(options, "options")};
    if (!PyTuple_Check(options.ptr()) && !PyList_Check(options.ptr()))
        raise_type_error("options must be a str or a tuple of str, not " + describe_value(options));
    std::vector<std::string> result;
    for (nb::handle option : nb::borrow<nb::sequence>(options)) result.push_back(to_str(option, "options[]"));
    return result;
}

namespace {

PythonElementwiseKernel construct(nb::handle in_params, nb::handle out_params, nb::handle operation, nb::handle name,
                                  nb::handle reduce_dims, nb::handle preamble, nb::handle no_return,
                                  nb::handle return_tuple, nb::handle options, nb::handle loop_prep,
                                  nb::handle after_loop) {
    ElementwiseKernelOptions settings;
    settings.preamble = to_str(preamble, "preamble");
    settings.options = to_compile_options(options);
    settings.reduce_dims = to_bool(reduce_dims, "reduce_dims");
    settings.loop_prep = to_str(loop_prep, "loop_prep");
    settings.after_loop = to_str(after_loop, "after_loop");
    return {ElementwiseKernel(to_str(in_params, "in_params"), to_str(out_params, "out_params"),
                              to_str(operation, "operation"), to_str(name, "name"), std::move(settings)),
            to_bool(no_return, "no_return"), to_bool(return_tuple, "return_tuple")};
}

// A NumPy scalar (or 0-d array) as a typed scalar of its dtype.
Scalar numpy_scalar(nb::handle value, std::size_t index) {
    const std::optional<DType> dtype = held_dtype(value.attr("dtype"));
    if (!dtype)
        raise_type_error("argument " + std::to_string(index) + " is a NumPy " + str_of(value.attr("dtype")) +
                         " scalar, a type gpukit arrays do not hold");
    nb::object native = as_numpy(value);  // native byte order
    const nb::bytes bytes = nb::borrow<nb::bytes>(native.attr("tobytes")());
    return Scalar::typed(*dtype, bytes.c_str());
}

Scalar python_int(nb::handle value) {
    int overflow = 0;
    const long long n = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow == 0) return Scalar(static_cast<std::int64_t>(n));
    if (overflow > 0) {
        const unsigned long long u = PyLong_AsUnsignedLongLong(value.ptr());
        if (!PyErr_Occurred()) return Scalar::weak_unsigned(u);
        PyErr_Clear();
    }
    throw ScalarOverflowError("Python integer " + str_of(value) + " out of bounds for every integer dtype");
}

}  // namespace

ElementwiseArgument to_kernel_argument(nb::handle value, std::size_t index) {
    if (nb::isinstance<Array>(value)) return nb::cast<const Array&>(value);
    // NumPy's scalar and array types, looked up once (NumPy stays imported for the process).
    static PyObject* const numpy_generic = nb::object(numpy_module().attr("generic")).release().ptr();
    static PyObject* const numpy_ndarray = nb::object(numpy_module().attr("ndarray")).release().ptr();
    if (PyObject_IsInstance(value.ptr(), numpy_generic) == 1) return numpy_scalar(value, index);
    if (PyBool_Check(value.ptr())) return Scalar(value.ptr() == Py_True);
    if (PyLong_Check(value.ptr())) return python_int(value);
    if (PyFloat_Check(value.ptr())) return Scalar(PyFloat_AsDouble(value.ptr()));
    if (PyComplex_Check(value.ptr()))
        return Scalar(std::complex<double>(PyComplex_RealAsDouble(value.ptr()), PyComplex_ImagAsDouble(value.ptr())));
    if (PyObject_IsInstance(value.ptr(), numpy_ndarray) == 1) {
        if (nb::cast<int>(value.attr("ndim")) == 0) return numpy_scalar(value, index);
        raise_type_error("argument " + std::to_string(index) +
                         " is a NumPy array, which is in host memory: copy it to the device with gpukit.asarray");
    }
    raise_type_error("argument " + std::to_string(index) + " must be a gpukit.ndarray or a scalar, not " +
                     describe_value(value));
}

namespace {

nb::object call(const PythonElementwiseKernel& self, const nb::args& args, nb::handle size, nb::handle block_size,
                nb::handle stream) {
    const ElementwiseKernel& kernel = self.kernel;
    const std::size_t nargs = kernel.nin() + kernel.nout();
    if (args.size() != kernel.nin() && args.size() != nargs)
        raise_type_error("Wrong number of arguments for '" + kernel.name() + "'. It must be either " +
                         std::to_string(kernel.nin()) + " or " + std::to_string(nargs) + " (with outputs), but given " +
                         std::to_string(args.size()) + ".");
    std::vector<ElementwiseArgument> arguments;
    arguments.reserve(args.size());
    for (std::size_t k = 0; k < args.size(); ++k) arguments.push_back(to_kernel_argument(args[k], k));
    ElementwiseCall settings;
    if (!size.is_none()) settings.size = to_int64(size, "size", 0);
    if (!block_size.is_none())
        settings.block_size = static_cast<std::uint32_t>(to_int64(block_size, "block_size", 1, 0xffffffff));
    Device device = Device::current();
    for (const ElementwiseArgument& argument : arguments)
        if (argument.array()) {
            device = argument.array()->device();
            break;
        }
    std::vector<Array> outputs;
    {
        StreamArgumentScope scope(stream, device);
        nb::gil_scoped_release release;
        outputs = kernel(arguments, settings);
    }
    if (self.no_return) return nb::none();
    if (outputs.size() == 1 && !self.return_tuple) return nb::cast(std::move(outputs[0]));
    nb::list results;
    for (Array& output : outputs) results.append(nb::cast(std::move(output)));
    return nb::tuple(results);
}

constexpr const char* class_doc = R"doc(A user-defined elementwise kernel, as CuPy's ElementwiseKernel.

    squared_diff = gpukit.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")
    z = squared_diff(x, y)          # broadcast; z allocated
    squared_diff(x, 5.0, z)         # a scalar; z given

Parameters are "float32 x, T y, raw T z": a dtype name or a one-letter type placeholder (decided by
the arrays' dtypes; a typedef the operation may use), optionally after ``raw``. Non-raw arrays
broadcast together and the operation sees element ``i`` of each by name (outputs as references);
a raw array is indexed by the operation (``y[_ind.size() - i - 1]``). Arrays must have their
parameter's dtype exactly; Python numbers take their parameter's type. float16 and bfloat16 compute
in float. ``options`` are compile options, checked as RawModule's. Kernels compile on first use per
argument dtypes and layout class and are cached in the process and on disk.)doc";

}  // namespace

void bind_elementwise_kernel(nb::module_& m) {
    nb::class_<PythonElementwiseKernel>(m, "ElementwiseKernel", class_doc)
        .def(
            "__init__",
            [](PythonElementwiseKernel* self, nb::handle in_params, nb::handle out_params, nb::handle operation,
               nb::handle name, nb::handle reduce_dims, nb::handle preamble, nb::handle no_return,
               nb::handle return_tuple, nb::handle options, nb::handle loop_prep, nb::handle after_loop) {
                new (self)
                    PythonElementwiseKernel(construct(in_params, out_params, operation, name, reduce_dims, preamble,
                                                      no_return, return_tuple, options, loop_prep, after_loop));
            },
            "in_params"_a, "out_params"_a, "operation"_a, "name"_a = "kernel", "reduce_dims"_a = true,
            "preamble"_a = "", "no_return"_a = false, "return_tuple"_a = false, nb::kw_only(),
            "options"_a = nb::tuple(), "loop_prep"_a = "", "after_loop"_a = "",
            "Reads the parameter lists and checks the name (a C identifier) and the compile options; the "
            "kernel compiles at its first call.")
        .def("__call__", &call, "args"_a, "size"_a = nb::none(), "block_size"_a = nb::none(), "stream"_a = nb::none(),
             "Runs the kernel on the inputs (then, optionally, every output) on the current stream (or stream=), "
             "without waiting. size= sets the loop's length when every array is raw; block_size= the threads per "
             "block. Returns the output, a tuple of them, or None as the kernel was made to.")
        .def_prop_ro(
            "name", [](const PythonElementwiseKernel& self) { return self.kernel.name(); },
            "The kernel's name (its symbol in the compiled code).")
        .def_prop_ro(
            "operation", [](const PythonElementwiseKernel& self) { return self.kernel.operation(); },
            "The operation's CUDA C.")
        .def_prop_ro(
            "preamble", [](const PythonElementwiseKernel& self) { return self.kernel.options().preamble; },
            "The code before the kernel.")
        .def_prop_ro(
            "nin", [](const PythonElementwiseKernel& self) { return self.kernel.nin(); }, "The number of inputs.")
        .def_prop_ro(
            "nout", [](const PythonElementwiseKernel& self) { return self.kernel.nout(); }, "The number of outputs.")
        .def_prop_ro(
            "nargs", [](const PythonElementwiseKernel& self) { return self.kernel.nin() + self.kernel.nout(); },
            "The number of inputs and outputs.")
        .def_prop_ro(
            "reduce_dims", [](const PythonElementwiseKernel& self) { return self.kernel.options().reduce_dims; },
            "Whether the loop's dimensions are merged where the arrays allow.")
        .def_prop_ro(
            "no_return", [](const PythonElementwiseKernel& self) { return self.no_return; },
            "Whether a call returns None.")
        .def_prop_ro(
            "return_tuple", [](const PythonElementwiseKernel& self) { return self.return_tuple; },
            "Whether a call returns a tuple even for one output.")
        .def("__repr__", [](const PythonElementwiseKernel& self) {
            return "<gpukit.ElementwiseKernel '" + self.kernel.name() + "'>";
        });
}

}  // namespace gpukit::python
