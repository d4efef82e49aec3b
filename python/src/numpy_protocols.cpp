// python/src/numpy_protocols.cpp: how NumPy meets gpukit arrays. NumPy's functions called on them
// run gpukit's (__array_function__; its ufuncs: __array_ufunc__ in array_operators.cpp); an
// implicit copy to the host (numpy.asarray(x), __array__) is refused unless the program allows it
// (set_host_conversion), as CuPy refuses it; get_array_module picks numpy or gpukit for code
// written for both.
#include <atomic>
#include <string>

#include <nanobind/stl/string.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "numpy_bridge.hpp"
#include "operands.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

std::atomic<bool> host_conversion{false};

// numpy.asarray(x), numpy.array(x) and every NumPy function that reads x as host data.
nb::object array_protocol(const Array& a, nb::handle dtype, nb::handle copy) {
    if (!host_conversion.load())
        throw nb::type_error(
            "Implicit conversion of a gpukit array to a NumPy array is not allowed: use .get() or "
            "gpukit.asnumpy(a) to copy it to the host, or allow it with gpukit.set_host_conversion(True)");
    if (copy.is_valid() && !copy.is_none() && !nb::cast<bool>(copy))
        throw nb::value_error(
            "A gpukit array cannot become a NumPy array without a copy (copy=False): its elements are in device "
            "memory");
    nb::object host = to_numpy(a);
    if (dtype.is_valid() && !dtype.is_none()) host = host.attr("astype")(dtype, "copy"_a = false);
    return host;
}

// The gpukit module that stands for NumPy module `name` ("numpy", "numpy.linalg", "numpy.fft"), or
// None where gpukit has no such module.
nb::object gpukit_counterpart(const std::string& name) {
    nb::object target = nb::module_::import_("gpukit");
    if (name == "numpy") return target;
    if (name.rfind("numpy.", 0) != 0) return nb::none();
    std::size_t begin = 6;
    while (begin <= name.size()) {
        const std::size_t end = std::min(name.find('.', begin), name.size());
        const std::string part = name.substr(begin, end - begin);
        if (part.empty() || part[0] == '_' || !nb::hasattr(target, part.c_str())) return nb::none();
        target = target.attr(part.c_str());
        begin = end + 1;
    }
    return target;
}

// NumPy hands its functions to us when an argument is a gpukit array (numpy.concatenate([x, y]),
// numpy.linalg.norm(x)): gpukit's function of the same name in the same submodule runs. One gpukit
// lacks is a TypeError naming it, never a silent copy to the host (unless set_host_conversion
// allowed copies: NumPy's own then runs on host copies). NotImplemented where another
// argument's type has an __array_function__ of its own to decide.
nb::object array_function(nb::handle, nb::handle function, nb::handle types, nb::handle args, nb::handle kwargs) {
    const nb::handle numpy_array = numpy_module().attr("ndarray");
    const nb::handle gpukit_array = reinterpret_cast<PyObject*>(array_type());
    for (nb::handle type : types)
        if (!type.is(gpukit_array) &&
            !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(type.ptr()),
                              reinterpret_cast<PyTypeObject*>(gpukit_array.ptr())) &&
            !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(type.ptr()),
                              reinterpret_cast<PyTypeObject*>(numpy_array.ptr())))
            return nb::borrow(Py_NotImplemented);
    const std::string module = nb::hasattr(function, "__module__") && !function.attr("__module__").is_none()
                                   ? nb::cast<std::string>(function.attr("__module__"))
                                   : std::string("numpy");
    const std::string name = nb::cast<std::string>(function.attr("__name__"));
    // NumPy names some functions' module by the file they live in (numpy.lib._function_base_impl):
    // gpukit mirrors the public namespaces only, numpy and its submodules.
    const bool private_module =
        module.find("._") != std::string::npos || module.rfind("numpy.lib", 0) == 0 || module.rfind("numpy._", 0) == 0;
    const nb::object counterpart = gpukit_counterpart(private_module ? std::string("numpy") : module);
    if (!counterpart.is_none() && nb::hasattr(counterpart, name.c_str())) {
        nb::object implementation = counterpart.attr(name.c_str());
        if (!implementation.is(function))
            return implementation(*nb::borrow<nb::tuple>(args), **nb::borrow<nb::dict>(kwargs));
    }
    // Allowed copies to the host: NumPy's own implementation runs on them (its results are NumPy's).
    if (host_conversion.load() && nb::hasattr(function, "_implementation"))
        return function.attr("_implementation")(*nb::borrow<nb::tuple>(args), **nb::borrow<nb::dict>(kwargs));
    const std::string shown = (private_module ? std::string("numpy") : module) + "." + name;
    const std::string gpukit_name = "gpukit" + shown.substr(5);
    throw nb::type_error((shown + " is not implemented for gpukit arrays (" + gpukit_name +
                          " does not exist): copy them to the host with .get() or gpukit.asnumpy to run NumPy's, or "
                          "allow that copy with gpukit.set_host_conversion(True)")
                             .c_str());
}

}  // namespace

void bind_numpy_protocols(nb::module_& m) {
    nb::handle cls = nb::type<Array>();
    add_method(cls, "__array__", &array_protocol, "dtype"_a.none() = nb::none(), "copy"_a.none() = nb::none(),
               nb::sig("def __array__(self, dtype: object = None, copy: bool | None = None) -> object"),
               "numpy.asarray(x): TypeError unless gpukit.set_host_conversion(True) allowed the copy to the host.");
    add_method(cls, "__array_function__", &array_function, "func"_a, "types"_a, "args"_a, "kwargs"_a,
               nb::sig("def __array_function__(self, func: object, types: object, args: tuple, kwargs: dict) "
                       "-> object"),
               "NumPy's functions on gpukit arrays (numpy.concatenate, numpy.linalg.norm, ...) run gpukit's of the "
               "same name; TypeError naming the function where gpukit has none.");
    add_method(
        cls, "__array_namespace__",
        [](const Array&, nb::handle api_version) -> nb::object {
            // The standard's versions whose functions gpukit's namespace holds.
            if (!api_version.is_none()) {
                const std::string version = to_str(api_version, "api_version");
                if (version != "2021.12" && version != "2022.12" && version != "2023.12" && version != "2024.12")
                    throw nb::value_error(("api_version must be None or one of the Array API standard's versions "
                                           "'2021.12', '2022.12', '2023.12', '2024.12', not '" +
                                           version + "'")
                                              .c_str());
            }
            return nb::module_::import_("gpukit");
        },
        nb::kw_only(), "api_version"_a.none() = nb::none(),
        nb::sig("def __array_namespace__(self, *, api_version: str | None = None) -> object"),
        "The Array API standard's namespace of this array: the gpukit module.");
    m.def(
        "set_host_conversion", [](bool allowed) { return host_conversion.exchange(allowed); }, "allowed"_a,
        "Whether gpukit arrays may become NumPy arrays implicitly (numpy.asarray(x), NumPy functions gpukit lacks "
        "reading them as host data), copying to the host each time: off by default, as in CuPy, so that no copy "
        "happens unseen. Returns the previous setting.");
    m.def(
        "get_array_module",
        [](const nb::args& args) -> nb::object {
            for (nb::handle value : args)
                if (as_array(value.ptr())) return nb::module_::import_("gpukit");
            return nb::borrow(numpy_module());
        },
        nb::sig("def get_array_module(*args: object) -> object"),
        "gpukit where any argument is a gpukit array, else numpy (CuPy's get_array_module): for code that runs "
        "on either, ``xp = gpukit.get_array_module(x)``.");
}

}  // namespace gpukit::python
