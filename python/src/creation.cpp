// python/src/creation.cpp: gpukit's creation functions (gpukit/creation.hpp) with NumPy's
// signatures: Python shapes, dtypes, orders and numbers in, arrays out. The work is the core's.
#include <nanobind/stl/string.h>

#include <array>
#include <cctype>
#include <complex>
#include <cstring>
#include <utility>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/creation.hpp"
#include "numpy_bridge.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

nb::handle float_type() { return nb::handle(reinterpret_cast<PyObject*>(&PyFloat_Type)); }

// A NumPy scalar of the value, as NumPy's functions return them (linspace's retstep).
nb::object numpy_scalar(const Scalar& value) {
    const std::array<std::byte, 16> element = value.converted(value.dtype());
    nb::bytes raw(reinterpret_cast<const char*>(element.data()), itemsize(value.dtype()));
    return numpy_module().attr("frombuffer")(raw, numpy_dtype(value.dtype()))[0];
}

LikeOptions like_options(nb::handle dtype, nb::handle order, nb::handle shape, nb::handle device) {
    LikeOptions options;
    if (!device.is_none()) options.device = to_device(device, "device");
    options.dtype = to_optional_dtype(dtype);
    options.order = to_order(order, Order::K);
    if (!shape.is_none()) options.shape = to_shape(shape);
    return options;
}

// `fill_value` into `array`: a number, or an array (a gpukit one, or host data NumPy reads)
// broadcast to its shape, as numpy.full takes one.
void fill_with(Array& array, nb::handle fill_value) {
    if (is_scalar(fill_value)) {
        const Scalar value = to_element(fill_value, array.dtype(), "fill_value");
        GilRelease unlocked;
        return array.fill(value);
    }
    if (nb::isinstance<Array>(fill_value)) {
        const Array& source = *nb::inst_ptr<Array>(fill_value);
        GilRelease unlocked;
        return array.assign(source);
    }
    nb::object host = fill_value.is_none() ? nb::object() : as_numpy(fill_value);
    if (!host.is_valid() || !held_dtype(host.attr("dtype")))
        raise_type_error(
            "fill_value must be a number (an int, float, complex, bool or NumPy scalar) or an array of "
            "them, not " +
            describe_value(fill_value));
    const NumpyHost view(host, false);
    GilRelease unlocked;
    array.assign(view.view());
}

// The dtype numpy.full gives a fill value when none is asked for.
DType fill_dtype(nb::handle fill_value) {
    if (is_scalar(fill_value)) return to_scalar(fill_value, "fill_value").dtype();
    if (nb::isinstance<Array>(fill_value)) return nb::inst_ptr<Array>(fill_value)->dtype();
    const std::optional<DType> dtype =
        fill_value.is_none() ? std::nullopt : held_dtype(as_numpy(fill_value).attr("dtype"));
    if (!dtype)
        raise_type_error(
            "fill_value must be a number (an int, float, complex, bool or NumPy scalar) or an array of "
            "them, not " +
            describe_value(fill_value));
    return *dtype;
}

// A bound of arange or linspace: a real number (`function` names the caller in messages). A Python
// int beyond 64 bits becomes a float, as Python's arithmetic on it would.
Scalar range_bound(nb::handle value, std::string_view name, std::string_view function, bool complex_ok = false) {
    if (!is_scalar(value) || (PyComplex_Check(value.ptr()) && !complex_ok))
        raise_type_error(std::string(function) + ": " + std::string(name) +
                         " must be a real number (an int or a float), not " + describe_value(value));
    if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) {
        int overflow = 0;
        (void)PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
        if (overflow > 0 && PyLong_AsUnsignedLongLong(value.ptr()) == static_cast<unsigned long long>(-1) &&
            PyErr_Occurred()) {
            PyErr_Clear();
            return Scalar(PyLong_AsDouble(value.ptr()));
        }
        PyErr_Clear();
        if (overflow < 0) return Scalar(PyLong_AsDouble(value.ptr()));
    }
    return to_scalar(value, name);
}

// eye's k: any Python int, as NumPy takes one. Beyond the matrix every diagonal is empty, so k is
// clamped to one past it (an int beyond 64 bits included).
std::int64_t diagonal_offset(nb::handle k, std::int64_t rows, std::int64_t columns) {
    if (!PyLong_Check(k.ptr()) || PyBool_Check(k.ptr())) return to_int64(k, "k");  // its TypeError
    const nb::int_ offset = nb::borrow<nb::int_>(k);
    if (offset > nb::int_(columns)) return std::max<std::int64_t>(columns, 0);
    if (offset < nb::int_(-rows)) return -std::max<std::int64_t>(rows, 0);
    return to_int64(k, "k");
}

// logspace's and geomspace's axis: their bounds are numbers, so the result is 1-D (axis 0 or -1).
void check_range_axis(nb::handle axis) {
    const std::int64_t along = to_int64(axis, "axis");
    if (along != 0 && along != -1)
        throw AxisError("axis " + std::to_string(along) + " is out of bounds for array of dimension 1");
}

// NumPy's flag names for require, each as the requirement it stands for ('A', 'W' and 'E' always
// hold for device arrays of gpukit's one type).
enum class Flag : std::uint8_t { c, f, owns, always };
Flag to_flag(const std::string& name) {
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    static const std::pair<const char*, Flag> names[] = {{"C", Flag::c},
                                                         {"C_CONTIGUOUS", Flag::c},
                                                         {"CONTIGUOUS", Flag::c},
                                                         {"F", Flag::f},
                                                         {"F_CONTIGUOUS", Flag::f},
                                                         {"FORTRAN", Flag::f},
                                                         {"O", Flag::owns},
                                                         {"OWNDATA", Flag::owns},
                                                         {"A", Flag::always},
                                                         {"ALIGNED", Flag::always},
                                                         {"W", Flag::always},
                                                         {"WRITEABLE", Flag::always},
                                                         {"E", Flag::always},
                                                         {"ENSUREARRAY", Flag::always}};
    for (const auto& [flag_name, flag] : names)
        if (upper == flag_name) return flag;
    PyErr_SetObject(PyExc_KeyError, nb::str(upper.c_str()).ptr());
    throw nb::python_error();
}

}  // namespace

void bind_creation(nb::module_& m) {
    m.def(
        "tri",
        [](nb::handle n, nb::handle m_, nb::handle k, nb::handle dtype, nb::handle like) {
            (void)like;  // NumPy's dispatch to array libraries: this is gpukit's already
            const std::optional<std::int64_t> columns =
                m_.is_none() ? std::nullopt : std::optional<std::int64_t>(to_int64(m_, "M"));
            const std::int64_t rows = to_int64(n, "N");
            return tri(rows, columns, diagonal_offset(k, rows, columns.value_or(rows)), to_dtype(dtype));
        },
        "N"_a.none(), "M"_a.none() = nb::none(), "k"_a.none() = 0, "dtype"_a.none() = float_type(), nb::kw_only(),
        "like"_a.none() = nb::none(),
        nb::sig("def tri(N: int, M: int | None = None, k: int = 0, dtype: object = float, *, like: object = None) -> "
                "ndarray"),
        "An N x M array with ones on and below diagonal k, zeros above (numpy.tri).");
    m.def(
        "vander",
        [](nb::handle x, nb::handle n, bool increasing) {
            const Array& array = to_array(x, "x");
            const std::optional<std::int64_t> columns =
                n.is_none() ? std::nullopt : std::optional<std::int64_t>(to_int64(n, "N"));
            GilRelease unlocked;
            return vander(array, columns, increasing);
        },
        "x"_a.none(), "N"_a.none() = nb::none(), "increasing"_a = false,
        nb::sig("def vander(x: ndarray, N: int | None = None, increasing: bool = False) -> ndarray"),
        "The Vandermonde matrix of the 1-D `x`: its columns x ** (N-1), ..., x ** 0 (ascending when `increasing`), "
        "as numpy.vander.");
    m.def(
        "logspace",
        [](nb::handle start, nb::handle stop, nb::handle num, bool endpoint, nb::handle base, nb::handle dtype,
           nb::handle axis) {
            check_range_axis(axis);
            LogspaceOptions options;
            options.endpoint = endpoint;
            options.dtype = to_optional_dtype(dtype);
            options.base = range_bound(base, "base", "logspace", true);
            const Scalar first = range_bound(start, "start", "logspace", true);
            const Scalar last = range_bound(stop, "stop", "logspace", true);
            const std::int64_t count = to_int64(num, "num");
            GilRelease unlocked;
            return logspace(first, last, count, options);
        },
        "start"_a.none(), "stop"_a.none(), "num"_a.none() = 50, "endpoint"_a = true, "base"_a.none() = 10.0,
        "dtype"_a.none() = nb::none(), "axis"_a.none() = 0,
        "`num` values base ** linspace(start, stop), as numpy.logspace (start, stop and base are numbers).");
    m.def(
        "geomspace",
        [](nb::handle start, nb::handle stop, nb::handle num, bool endpoint, nb::handle dtype, nb::handle axis) {
            check_range_axis(axis);
            LinspaceOptions options;
            options.endpoint = endpoint;
            options.dtype = to_optional_dtype(dtype);
            const Scalar first = range_bound(start, "start", "geomspace", true);
            const Scalar last = range_bound(stop, "stop", "geomspace", true);
            const std::int64_t count = to_int64(num, "num");
            GilRelease unlocked;
            return geomspace(first, last, count, options);
        },
        "start"_a.none(), "stop"_a.none(), "num"_a.none() = 50, "endpoint"_a = true, "dtype"_a.none() = nb::none(),
        "axis"_a.none() = 0,
        "`num` values in geometric progression from start to stop (negative and complex bounds included, the "
        "endpoints exact), as numpy.geomspace.");
    m.def(
        "require",
        [](nb::handle a, nb::handle dtype, nb::handle requirements, nb::handle like) -> nb::object {
            (void)like;
            nb::object array = nb::borrow(a);
            if (!nb::isinstance<Array>(a))  // host data: a device copy, as numpy.require makes an array of it
                array = nb::module_::import_("gpukit").attr("asarray")(a, "dtype"_a = dtype);
            Requirements wanted;
            // As NumPy's: each item of `requirements` is a flag's name (so the letters of a string are).
            if (!requirements.is_none())
                for (nb::handle name : requirements) {
                    const Flag flag = to_flag(to_str(name, "requirements"));
                    wanted.c_contiguous |= flag == Flag::c;
                    wanted.f_contiguous |= flag == Flag::f;
                    wanted.owns_data |= flag == Flag::owns;
                }
            const std::optional<DType> chosen = to_optional_dtype(dtype);
            const Array& source = nb::cast<const Array&>(array);
            Array result = require(source, chosen, wanted);
            if (result.address() == source.address() && result.dtype() == source.dtype() &&
                result.strides() == source.strides() && result.shape() == source.shape())
                return array;  // nothing to change: the very object, as NumPy's require returns it
            return nb::cast(std::move(result));
        },
        "a"_a.none(), "dtype"_a.none() = nb::none(), "requirements"_a.none() = nb::none(), nb::kw_only(),
        "like"_a.none() = nb::none(),
        nb::sig("def require(a: object, dtype: object = None, requirements: object = None, *, like: object = None) "
                "-> ndarray"),
        "`a` as a gpukit array of `dtype` meeting `requirements` (NumPy's flags: 'C', 'F', 'O' ('OWNDATA'), 'A', "
        "'W', 'E' and their long names), copied only when one is not met. Unlike NumPy's: device arrays are always "
        "aligned and writeable, so 'A' and 'W' never copy; gpukit has one array type, so 'E' changes nothing; and a "
        "view over its whole allocation (a transpose, a reshape) counts as owning its data for 'O'.");
    m.def(
        "isfortran", [](nb::handle a) { return isfortran(to_array(a, "a")); }, "a"_a.none(),
        nb::sig("def isfortran(a: ndarray) -> bool"),
        "Whether `a` is Fortran-contiguous and not C-contiguous too (numpy.isfortran: 1-D arrays are not).");
    m.def(
        "empty",
        [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device) {
            return empty(to_shape(shape), to_dtype(dtype), to_order(order, Order::C), to_device(device, "device"));
        },
        "shape"_a.none(), "dtype"_a.none() = float_type(), "order"_a.none() = "C", "device"_a.none() = nb::none(),
        nb::sig("def empty(shape: object, dtype: object = float, order: str = 'C', device: Device | None = None) -> "
                "ndarray"),
        "A new array of `shape` on the current device (or `device`); its contents are whatever the memory held.");
    m.def(
        "zeros",
        [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device) {
            return zeros(to_shape(shape), to_dtype(dtype), to_order(order, Order::C), to_device(device, "device"));
        },
        "shape"_a.none(), "dtype"_a.none() = float_type(), "order"_a.none() = "C", "device"_a.none() = nb::none(),
        nb::sig("def zeros(shape: object, dtype: object = float, order: str = 'C', device: Device | None = None) -> "
                "ndarray"),
        "A new array of zeros (one memset).");
    m.def(
        "ones",
        [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device) {
            return ones(to_shape(shape), to_dtype(dtype), to_order(order, Order::C), to_device(device, "device"));
        },
        "shape"_a.none(), "dtype"_a.none() = float_type(), "order"_a.none() = "C", "device"_a.none() = nb::none(),
        nb::sig("def ones(shape: object, dtype: object = float, order: str = 'C', device: Device | None = None) -> "
                "ndarray"),
        "A new array of ones.");
    m.def(
        "full",
        [](nb::handle shape, nb::handle fill_value, nb::handle dtype, nb::handle order, nb::handle device) {
            const DType chosen = dtype.is_none() ? fill_dtype(fill_value) : to_dtype(dtype);
            Array array = empty(to_shape(shape), chosen, to_order(order, Order::C), to_device(device, "device"));
            fill_with(array, fill_value);
            return array;
        },
        "shape"_a.none(), "fill_value"_a.none(), "dtype"_a.none() = nb::none(), "order"_a.none() = "C",
        "device"_a.none() = nb::none(),
        nb::sig("def full(shape: object, fill_value: object, dtype: object = None, order: str = 'C', "
                "device: Device | None = None) -> ndarray"),
        "A new array with every element `fill_value` (a number, or an array broadcast to `shape`), in `dtype` or "
        "the one NumPy gives the value.");
    for (const char* name : {"empty_like", "zeros_like", "ones_like"}) {
        const std::string which = name;
        m.def(
            name,
            [which](const Array& prototype, nb::handle dtype, nb::handle order, nb::handle subok, nb::handle shape,
                    nb::handle device) {
                (void)subok;
                const LikeOptions options = like_options(dtype, order, shape, device);
                if (which == "zeros_like") return zeros_like(prototype, options);
                if (which == "ones_like") return ones_like(prototype, options);
                return empty_like(prototype, options);
            },
            "a"_a, "dtype"_a.none() = nb::none(), "order"_a.none() = "K", "subok"_a.none() = nb::none(),
            "shape"_a.none() = nb::none(), nb::kw_only(), "device"_a.none() = nb::none(),
            "A new array like `a` (its shape, dtype and, for order 'K', layout unless given), on a's device (or "
            "`device`).");
    }
    m.def(
        "full_like",
        [](const Array& prototype, nb::handle fill_value, nb::handle dtype, nb::handle order, nb::handle subok,
           nb::handle shape, nb::handle device) {
            (void)subok;
            Array array = empty_like(prototype, like_options(dtype, order, shape, device));
            fill_with(array, fill_value);
            return array;
        },
        "a"_a, "fill_value"_a.none(), "dtype"_a.none() = nb::none(), "order"_a.none() = "K",
        "subok"_a.none() = nb::none(), "shape"_a.none() = nb::none(), nb::kw_only(), "device"_a.none() = nb::none(),
        "A new array like `a` with every element `fill_value`.");
    m.def(
        "arange",
        [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype, nb::handle device) {
            const Device on = to_device(device, "device");
            const Scalar first = stop.is_none() ? Scalar(std::int64_t{0}) : range_bound(start, "start", "arange");
            const Scalar end = range_bound(stop.is_none() ? start : stop, stop.is_none() ? "start" : "stop", "arange");
            const Scalar by = step.is_none() ? Scalar(std::int64_t{1}) : range_bound(step, "step", "arange");
            if (by.value<double>() == 0) {  // NumPy divides by it: Python's error
                PyErr_SetString(PyExc_ZeroDivisionError, "arange: step must not be zero (division by zero)");
                throw nb::python_error();
            }
            const std::optional<DType> chosen = to_optional_dtype(dtype);
            GilRelease unlocked;
            return arange(first, end, by, chosen, on);
        },
        "start"_a.none(), "stop"_a.none() = nb::none(), "step"_a.none() = nb::none(), "dtype"_a.none() = nb::none(),
        nb::kw_only(), "device"_a.none() = nb::none(),
        "Evenly spaced values in [start, stop), NumPy's values bit for bit: ceil((stop - start) / step) of them.");
    m.def(
        "linspace",
        [](nb::handle start, nb::handle stop, nb::handle num, bool endpoint, bool retstep, nb::handle dtype,
           nb::handle axis, nb::handle device) -> nb::object {
            const Device on = to_device(device, "device");
            const std::int64_t count = to_int64(num, "num");
            const std::int64_t along = to_int64(axis, "axis");
            if (along != 0 && along != -1)
                throw AxisError("axis " + std::to_string(along) + " is out of bounds for array of dimension 1");
            LinspaceOptions options;
            options.endpoint = endpoint;
            options.dtype = to_optional_dtype(dtype);
            const Scalar first = range_bound(start, "start", "linspace", true);
            const Scalar last = range_bound(stop, "stop", "linspace", true);
            std::optional<LinspaceResult> result;
            {
                GilRelease unlocked;
                result = linspace_with_step(first, last, count, options, on);
            }
            if (!retstep) return nb::cast(std::move(result->values));
            return nb::make_tuple(std::move(result->values), numpy_scalar(result->step));
        },
        "start"_a.none(), "stop"_a.none(), "num"_a.none() = 50, "endpoint"_a = true, "retstep"_a = false,
        "dtype"_a.none() = nb::none(), "axis"_a.none() = 0, nb::kw_only(), "device"_a.none() = nb::none(),
        "`num` evenly spaced values from start to stop (included when `endpoint`), NumPy's formula bit for bit; with "
        "`retstep`, (values, step).");
    m.def(
        "eye",
        [](nb::handle n, nb::handle m_, nb::handle k, nb::handle dtype, nb::handle order, nb::handle device) {
            const std::optional<std::int64_t> columns =
                m_.is_none() ? std::nullopt : std::optional<std::int64_t>(to_int64(m_, "M"));
            const std::int64_t rows = to_int64(n, "N");
            return eye(rows, columns, diagonal_offset(k, rows, columns.value_or(rows)), to_dtype(dtype),
                       to_order(order, Order::C), to_device(device, "device"));
        },
        "N"_a.none(), "M"_a.none() = nb::none(), "k"_a.none() = 0, "dtype"_a.none() = float_type(),
        "order"_a.none() = "C", nb::kw_only(), "device"_a.none() = nb::none(),
        nb::sig("def eye(N: int, M: int | None = None, k: int = 0, dtype: object = float, order: str = 'C', *, "
                "device: Device | None = None) -> ndarray"),
        "An N x M array with ones on diagonal k, zeros elsewhere.");
    m.def(
        "identity",
        [](nb::handle n, nb::handle dtype) {
            return identity(to_int64(n, "n"), dtype.is_none() ? DType::float64 : to_dtype(dtype));
        },
        "n"_a.none(), "dtype"_a.none() = nb::none(), "The n x n identity matrix.");
    m.def(
        "asarray_from_host",
        [](nb::handle host_array, nb::handle dtype, nb::handle order, const Device& device) {
            const NumpyHost host(host_array, false);
            const std::optional<DType> chosen = to_optional_dtype(dtype);
            const Order layout = to_order(order, Order::K);
            GilRelease unlocked;
            return asarray(host.view(), chosen, layout, device);
        },
        "host"_a, "dtype"_a.none(), "order"_a.none(), "device"_a,
        "A device copy of a NumPy array (of a dtype arrays hold), converted to `dtype` on the device, laid out in "
        "`order` (K: as the host array is).");
    m.def(
        "asarray_of_array",
        [](const Array& array, nb::handle dtype, nb::handle order) {
            return asarray(array, to_optional_dtype(dtype), to_order(order, Order::K));
        },
        "a"_a, "dtype"_a.none(), "order"_a.none(),
        "`a` itself when it has `dtype` and lies in `order`, else a converted copy.");
    m.def(
        "ascontiguousarray",
        [](const Array& array, nb::handle dtype) { return ascontiguousarray(array, to_optional_dtype(dtype)); }, "a"_a,
        "dtype"_a.none() = nb::none(), "`a` (at least 1-D) C-contiguous: itself when it is, else a copy.");
    m.def(
        "asfortranarray",
        [](const Array& array, nb::handle dtype) { return asfortranarray(array, to_optional_dtype(dtype)); }, "a"_a,
        "dtype"_a.none() = nb::none(), "`a` (at least 1-D) F-contiguous: itself when it is, else a copy.");
    m.def(
        "copy",
        [](const Array& array, nb::handle order, nb::handle subok) {
            (void)subok;  // gpukit has one array type
            const Order layout = to_order(order, Order::K);
            GilRelease unlocked;
            return array.copy(layout);
        },
        "a"_a, "order"_a.none() = "K", "subok"_a.none() = false,
        nb::sig("def copy(a: ndarray, order: str = 'K', subok: bool = False) -> ndarray"),
        "A new array with the elements of ``a``, laid out in ``order`` ('C', 'F', 'A', 'K'), as numpy.copy.");
}

}  // namespace gpukit::python
