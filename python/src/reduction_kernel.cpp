// python/src/reduction_kernel.cpp: gpukit.ReductionKernel, CuPy's, over the C++ one
// (gpukit/reduction_kernel.hpp): arguments translated as ElementwiseKernel's, the call made without
// the GIL.
#include <nanobind/stl/string.h>

#include <optional>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/reduction_kernel.hpp"
#include "python_stream.hpp"
#include "user_kernel_arguments.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

ReductionKernel construct(nb::handle in_params, nb::handle out_params, nb::handle map_expr, nb::handle reduce_expr,
                          nb::handle post_map_expr, nb::handle identity, nb::handle name, nb::handle reduce_type,
                          nb::handle reduce_dims, nb::handle preamble, nb::handle options) {
    ReductionKernelOptions settings;
    if (!reduce_type.is_none()) settings.reduce_type = to_str(reduce_type, "reduce_type");
    settings.preamble = to_str(preamble, "preamble");
    settings.options = to_compile_options(options);
    settings.reduce_dims = to_bool(reduce_dims, "reduce_dims");
    std::optional<std::string> identity_code;
    if (!identity.is_none()) identity_code = PyUnicode_Check(identity.ptr()) ? to_str(identity, "identity")
                                                                             : str_of(identity);
    return ReductionKernel(to_str(in_params, "in_params"), to_str(out_params, "out_params"),
                           to_str(map_expr, "map_expr"), to_str(reduce_expr, "reduce_expr"),
                           to_str(post_map_expr, "post_map_expr"), std::move(identity_code), to_str(name, "name"),
                           std::move(settings));
}

Array call(const ReductionKernel& kernel, const nb::args& args, nb::handle out, nb::handle axis, nb::handle keepdims,
           nb::handle stream) {
    if (args.size() != kernel.nin())
        raise_type_error("Wrong number of arguments for '" + kernel.name() + "'. It must be " +
                         std::to_string(kernel.nin()) + ", but given " + std::to_string(args.size()) + ".");
    std::vector<ElementwiseArgument> arguments;
    arguments.reserve(args.size());
    for (std::size_t k = 0; k < args.size(); ++k) arguments.push_back(to_kernel_argument(args[k], k));
    ReductionCall settings;
    if (!axis.is_none()) settings.axis = to_axes(axis, "axis");
    settings.keepdims = to_bool(keepdims, "keepdims");
    if (!out.is_none()) settings.out = to_array(out, "out");
    Device device = Device::current();
    for (const ElementwiseArgument& argument : arguments)
        if (argument.array()) {
            device = argument.array()->device();
            break;
        }
    StreamArgumentScope scope(stream, device);
    nb::gil_scoped_release release;
    return kernel(arguments, settings);
}

constexpr const char* class_doc = R"doc(A user-defined reduction, as CuPy's ReductionKernel.

    l1_norm = gpukit.ReductionKernel("T x", "T y", "abs(x)", "a + b", "y = a", "0", "l1_norm")
    total = l1_norm(x)              # every element: a 0-d array
    rows = l1_norm(x, axis=1)       # one per row

map_expr maps an element of each input (by its parameter's name) to a value of reduce_type (the
output's type by default); reduce_expr combines two values, a and b, and must be associative (the
order is a tree); post_map_expr sets the output from a; identity is the value of no elements (None:
an empty reduction is an error). Inputs broadcast together; arrays must have their parameter's
dtype exactly; Python numbers take their parameter's type. Kernels compile on first use per
argument dtypes and layout class and are cached in the process and on disk.)doc";

}  // namespace

void bind_reduction_kernel(nb::module_& m) {
    nb::class_<ReductionKernel>(m, "ReductionKernel", class_doc)
        .def(
            "__init__",
            [](ReductionKernel* self, nb::handle in_params, nb::handle out_params, nb::handle map_expr,
               nb::handle reduce_expr, nb::handle post_map_expr, nb::handle identity, nb::handle name,
               nb::handle reduce_type, nb::handle reduce_dims, nb::handle preamble, nb::handle options) {
                new (self) ReductionKernel(construct(in_params, out_params, map_expr, reduce_expr, post_map_expr,
                                                     identity, name, reduce_type, reduce_dims, preamble, options));
            },
            "in_params"_a, "out_params"_a, "map_expr"_a, "reduce_expr"_a, "post_map_expr"_a, "identity"_a.none(),
            "name"_a = "reduce_kernel", "reduce_type"_a.none() = nb::none(), "reduce_dims"_a = true,
            "preamble"_a = "", "options"_a = nb::tuple(),
            "Reads the parameter lists and checks the name (a C identifier) and the compile options; the "
            "kernel compiles at its first call.")
        .def("__call__", &call, "args"_a, "out"_a.none() = nb::none(), "axis"_a.none() = nb::none(),
             "keepdims"_a = false, "stream"_a = nb::none(),
             "Reduces the inputs over `axis` (all when None) on the current stream (or stream=), without waiting, "
             "and returns the result (out= when given).")
        .def_prop_ro("name", &ReductionKernel::name, "The kernel's name.")
        .def_prop_ro("nin", &ReductionKernel::nin, "The number of inputs.")
        .def("__repr__", [](const ReductionKernel& self) { return "<gpukit.ReductionKernel '" + self.name() + "'>"; });
}

}  // namespace gpukit::python
