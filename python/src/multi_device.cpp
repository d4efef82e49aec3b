// python/src/multi_device.cpp: gpukit._core.multi_device, gpukit/multi_device.hpp for Python.
//
// map runs the Python function through the C++ map_parts: one host thread per device, each taking
// the GIL only to call the function (gpukit's operations release it, so the devices' launches go
// on side by side). A Python exception crosses the C++ threads inside PythonFailure and is raised
// again as itself, with a note naming the device it came from.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/multi_device.hpp"
#include "indexing.hpp"
#include "numpy_bridge.hpp"
#include "operands.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

namespace md = multi_device;

// A Python exception on its way through C++ threads. what() is its text, taken with the GIL, so
// that the C++ side may read it without.
class PythonFailure : public std::exception {
public:
    explicit PythonFailure(nb::python_error&& error)
        : error_(std::make_shared<nb::python_error>(std::move(error))), text_(error_->what()) {}
    const char* what() const noexcept override { return text_.c_str(); }
    nb::python_error& error() const noexcept { return *error_; }

private:
    std::shared_ptr<nb::python_error> error_;  // shared: the exception may be copied without the GIL
    std::string text_;
};

[[noreturn]] void raise_python(PyObject* type, const std::string& message) {
    PyErr_SetString(type, message.c_str());
    throw nb::python_error();
}

nb::tuple shape_tuple(const Shape& shape) {
    nb::list extents;
    for (const std::int64_t extent : shape) extents.append(extent);
    return nb::tuple(extents);
}

std::string entries(const md::Part& part) {
    return "entries [" + std::to_string(part.offset) + ", " + std::to_string(part.offset + part.length) +
           ") along axis " + std::to_string(part.axis);
}

// None: every device of the selected backend; else a sequence of gpukit.Device or device numbers.
std::vector<Device> to_devices(nb::handle value) {
    if (value.is_none()) return devices();
    if (PyIndex_Check(value.ptr()) || nb::isinstance<Device>(value) || PyUnicode_Check(value.ptr()) ||
        !PySequence_Check(value.ptr()))
        raise_type_error(
            "devices must be a sequence of gpukit.Device or device numbers ([0, 1], or range(n) for the "
            "first n), or None for every device, not " +
            describe_value(value));
    std::vector<Device> result;
    const nb::sequence items = nb::borrow<nb::sequence>(value);
    const std::size_t n = nb::len(items);
    for (std::size_t i = 0; i < n; ++i) result.push_back(to_device(items[i], "devices[" + std::to_string(i) + "]"));
    if (result.empty()) raise_value_error("devices is empty: give at least one device, or None for every device");
    return result;
}

std::int64_t axis_or(nb::handle value, std::int64_t absent) {
    return value.is_none() ? absent : to_int64(value, "axis");
}

// `x` split: a gpukit array on any device, or host data NumPy makes an array of (copied straight
// to each part's device).
md::Split split_value(nb::handle x, const std::vector<Device>& devices, const md::SplitOptions& options) {
    if (const Array* array = as_array(x.ptr())) {
        GilRelease unlocked;
        return md::split(*array, devices, options);
    }
    if (nb::isinstance<md::Split>(x)) raise_type_error("x is already split: pass it to map or gather as it is");
    const nb::object host = as_numpy(x);
    const NumpyHost view(host, false);
    GilRelease unlocked;
    return md::split(ConstHostView(view.view()), devices, options);
}

// Raises a failure of map_parts as the exception the function raised, noted with its device.
[[noreturn]] void raise_part_failure(const md::PartFailedError& failure, const md::Split& split) {
    try {
        std::rethrow_exception(failure.cause());
    } catch (const PythonFailure& python) {
        const md::Part& part = split.parts[failure.part()];
        std::string note =
            "gpukit.multi_device.map: raised by fn on " + part.device().describe() + " for " + entries(part);
        if (failure.failures() > 1)
            note += " (fn failed on " + std::to_string(failure.failures() - 1) + " more device" +
                    (failure.failures() > 2 ? "s" : "") + " too)";
        nb::python_error& error = python.error();
        if (nb::hasattr(error.value(), "add_note")) error.value().attr("add_note")(note);
        error.restore();
        throw nb::python_error();
    }
    // Not Python's: the C++ checks of the results name the device themselves.
    std::rethrow_exception(failure.cause());
}

// Each part's arguments after the part itself: gpukit and NumPy arrays copied to its device (once
// per device), anything else passed as it is.
std::vector<std::vector<nb::object>> broadcast_arguments(nb::handle extra, const md::Split& split) {
    std::vector<std::vector<nb::object>> per_part(split.parts.size());
    if (extra.is_none()) return per_part;
    if (!PyTuple_Check(extra.ptr()) && !PyList_Check(extra.ptr()))
        raise_type_error("broadcast must be a tuple of the extra arguments of fn (broadcast=(b,) for one), not " +
                         describe_value(extra));
    const std::vector<Device> devices = split.devices();
    const nb::sequence items = nb::borrow<nb::sequence>(extra);
    const std::size_t n = nb::len(items);
    for (std::size_t k = 0; k < n; ++k) {
        const nb::object item = items[k];
        std::vector<nb::object> copies;
        if (const Array* array = as_array(item.ptr())) {
            std::vector<Array> there;
            {
                GilRelease unlocked;
                there = md::broadcast(*array, devices);
            }
            for (Array& copy : there) copies.push_back(nb::cast(std::move(copy)));
        } else if (nb::isinstance(item, numpy_module().attr("ndarray"))) {
            const std::string name = "broadcast[" + std::to_string(k) + "]";
            const Array first = to_device_array(item, devices.front(), name, false);
            std::vector<Array> there;
            {
                GilRelease unlocked;
                there = md::broadcast(first, devices);
            }
            for (Array& copy : there) copies.push_back(nb::cast(std::move(copy)));
        } else {
            copies.assign(devices.size(), item);
        }
        for (std::size_t i = 0; i < per_part.size(); ++i) per_part[i].push_back(copies[i]);
    }
    return per_part;
}

nb::object map_binding(nb::handle fn, nb::handle x, nb::handle devices_value, nb::handle axis, nb::handle halo,
                       nb::handle combine, nb::handle out_device, nb::handle extra) {
    if (!PyCallable_Check(fn.ptr())) raise_type_error("fn must be callable, not " + describe_value(fn));
    // How the results combine, decided before any work starts.
    std::optional<md::Combine> how;
    const bool custom = !combine.is_none() && !PyUnicode_Check(combine.ptr()) && PyCallable_Check(combine.ptr());
    if (!combine.is_none() && !custom) how = md::combine_from_name(to_str(combine, "combine"));

    std::optional<md::Split> given;
    if (nb::isinstance<md::Split>(x)) {
        if (!devices_value.is_none() || !axis.is_none() || !halo.is_none())
            raise_value_error("x is already split: devices, axis and halo are the split's (leave them None)");
        given = nb::cast<md::Split>(x);
    }
    const md::Split split =
        given ? std::move(*given)
              : split_value(x, to_devices(devices_value),
                            {.axis = axis_or(axis, 0), .halo = halo.is_none() ? 0 : to_int64(halo, "halo")});
    const Array* x_array = as_array(x.ptr());
    const Device target =
        out_device.is_none() ? (x_array ? x_array->device() : Device::current()) : to_device(out_device, "out_device");
    const std::vector<std::vector<nb::object>> extra_arguments = broadcast_arguments(extra, split);
    const nb::object function = nb::borrow(fn);

    const md::PartFunction call = [&](const md::Part& part) -> Array {
        nb::gil_scoped_acquire gil;
        try {
            nb::list arguments;
            arguments.append(nb::cast(part.data));
            for (const nb::object& argument : extra_arguments[part.index]) arguments.append(argument);
            const nb::object result = function(*nb::tuple(arguments));
            const Array* array = as_array(result.ptr());
            if (!array)
                raise_python(PyExc_TypeError,
                             "gpukit.multi_device.map: fn must return a gpukit array on its part's device, but it "
                             "returned " +
                                 describe_value(result) + " for the part on " + part.device().describe());
            return *array;
        } catch (nb::python_error& error) {
            throw PythonFailure(std::move(error));
        }
    };
    std::vector<Array> results;
    std::exception_ptr failure;
    {
        GilRelease unlocked;
        try {
            results = md::map_parts(split, call);
        } catch (...) {
            failure = std::current_exception();
        }
    }
    if (failure) {
        try {
            std::rethrow_exception(failure);
        } catch (const md::PartFailedError& e) {
            raise_part_failure(e, split);
        }
    }
    if (custom) {
        std::vector<Array> moved;
        {
            GilRelease unlocked;
            for (const Array& result : results) moved.push_back(result.to_device(target));
        }
        return nb::borrow(combine)(nb::cast(std::move(moved)));
    }
    if (!how) return nb::cast(std::move(results));
    std::optional<Array> combined;
    {
        GilRelease unlocked;
        combined = md::combine(results, split, *how, target);
    }
    return nb::cast(std::move(*combined));
}

}  // namespace

void bind_multi_device(nb::module_& m) {
    nb::module_ module = m.def_submodule("multi_device",
                                         "One array's work split across several devices and combined "
                                         "again (gpukit/multi_device.hpp).");

    nb::class_<md::Part>(module, "Part",
                         "One device's block of a split array: data (its own entries and its halos), where its own "
                         "entries start in the whole array (offset) and how many there are (length).")
        .def_ro("data", &md::Part::data, "The block with its halos, on its device.")
        .def_prop_ro(
            "device", [](const md::Part& p) { return p.device(); }, "The part's device.")
        .def_ro("index", &md::Part::index, "Its place among the split's parts.")
        .def_ro("axis", &md::Part::axis, "The axis the array was split along.")
        .def_ro("offset", &md::Part::offset, "Where its own entries start in the whole array, along the axis.")
        .def_ro("length", &md::Part::length, "How many entries along the axis are its own.")
        .def_ro("halo_before", &md::Part::halo_before, "Entries of data before its own (fewer at the array's start).")
        .def_ro("halo_after", &md::Part::halo_after, "Entries of data after its own (fewer at the array's end).")
        .def(
            "interior", [](const md::Part& p) { return p.interior(); }, "data without its halos (a view).")
        .def(
            "crop", [](const md::Part& p, nb::handle result) { return p.crop(to_array(result, "result")); }, "result"_a,
            "The part's own entries of a result that kept data's extent along the axis (a 'same' stencil): a view "
            "without the halos. ValueError for a result of another extent.")
        .def("__repr__", [](const md::Part& p) {
            return "<gpukit.multi_device.Part " + std::to_string(p.index) + ": " + entries(p) + " on " +
                   p.device().describe() + ", halo " + std::to_string(p.halo_before) + "+" +
                   std::to_string(p.halo_after) + ">";
        });

    nb::class_<md::Split>(module, "Split",
                          "An array cut into parts along one axis, one part per device (in order); map and gather "
                          "take it as it is.")
        .def_prop_ro(
            "parts", [](const md::Split& s) { return s.parts; }, "The parts, in order.")
        .def_ro("axis", &md::Split::axis, "The axis the array was cut along.")
        .def_prop_ro(
            "shape", [](const md::Split& s) { return shape_tuple(s.shape); }, "The whole array's shape.")
        .def_prop_ro(
            "dtype", [](const md::Split& s) { return numpy_dtype(s.dtype); }, "The array's dtype.")
        .def_ro("halo", &md::Split::halo, "The halo asked for (each part's may be fewer at the array's edges).")
        .def_prop_ro(
            "devices", [](const md::Split& s) { return s.devices(); }, "Each part's device, in order.")
        .def("__len__", [](const md::Split& s) { return s.parts.size(); })
        .def(
            "__getitem__",
            [](const md::Split& s, nb::handle index) {
                const auto n = static_cast<std::int64_t>(s.parts.size());
                std::int64_t i = to_int64(index, "index");
                if (i < 0) i += n;
                if (i < 0 || i >= n) {
                    PyErr_SetString(PyExc_IndexError,
                                    ("part index out of range: the split has " + std::to_string(n) + " parts").c_str());
                    throw nb::python_error();
                }
                return s.parts[static_cast<std::size_t>(i)];
            },
            "index"_a)
        .def("__repr__", [](const md::Split& s) {
            std::string text = "<gpukit.multi_device.Split of " +
                               std::to_string(s.shape.empty() ? 0 : s.shape[s.axis]) + " entries along axis " +
                               std::to_string(s.axis) + " into " + std::to_string(s.parts.size()) + " parts, halo " +
                               std::to_string(s.halo) + ">";
            return text;
        });

    module.def(
        "split",
        [](nb::handle x, nb::handle devices, nb::handle axis, nb::handle halo) {
            return split_value(x, to_devices(devices),
                               {.axis = to_int64(axis, "axis"), .halo = to_int64(halo, "halo")});
        },
        "x"_a, "devices"_a.none() = nb::none(), "axis"_a = 0, "halo"_a = 0,
        nb::sig("def split(x: object, devices: object = None, axis: int = 0, halo: int = 0) -> Split"),
        "x cut along `axis` into nearly equal blocks (numpy.array_split's sizes), one per device, each copied to "
        "its device (where x is, a view of x). See gpukit.multi_device.");
    module.def(
        "gather",
        [](nb::handle parts, nb::handle device, nb::handle axis) {
            const Device target = to_device(device, "device");
            if (nb::isinstance<md::Split>(parts)) {
                const md::Split& split = nb::cast<const md::Split&>(parts);
                if (!axis.is_none() && to_int64(axis, "axis") != static_cast<std::int64_t>(split.axis))
                    raise_value_error("axis must be the split's own (" + std::to_string(split.axis) + ") or None");
                GilRelease unlocked;
                return md::gather(split, target);
            }
            const std::vector<Array> arrays = to_arrays(parts, "parts");
            GilRelease unlocked;
            return md::gather(arrays, target, axis_or(axis, 0));
        },
        "parts"_a, "device"_a.none() = nb::none(), "axis"_a.none() = nb::none(),
        nb::sig("def gather(parts: object, device: object = None, axis: int | None = None) -> ndarray"),
        "The parts joined along `axis` on `device` (the current device for None): a Split's own entries (halos "
        "dropped) along its axis, or a list of arrays on any devices along `axis` (0 for None).");
    module.def(
        "reduce",
        [](nb::handle parts, nb::handle op, nb::handle device) {
            const md::ReduceOp how = md::reduce_op_from_name(to_str(op, "op"));
            const Device target = to_device(device, "device");
            const std::vector<Array> arrays = to_arrays(parts, "parts");
            GilRelease unlocked;
            return md::reduce(arrays, how, target);
        },
        "parts"_a, "op"_a = "sum", "device"_a.none() = nb::none(),
        nb::sig("def reduce(parts: object, op: str = 'sum', device: object = None) -> ndarray"),
        "Partial results on any devices combined elementwise on `device` (the current device for None) as "
        "numpy.add, multiply, maximum or minimum combine them: op 'sum', 'prod', 'max' or 'min'.");
    module.def(
        "broadcast",
        [](nb::handle x, nb::handle devices) {
            const std::vector<Device> targets = to_devices(devices);
            const Array source = to_device_array(x, targets.front(), "x", false);
            GilRelease unlocked;
            return md::broadcast(source, targets);
        },
        "x"_a, "devices"_a.none() = nb::none(),
        nb::sig("def broadcast(x: object, devices: object = None) -> list[ndarray]"),
        "x on every device, in order: x itself where it is, one copy on each other device.");
    module.def("map", &map_binding, "fn"_a.none(), "x"_a, "devices"_a.none() = nb::none(), "axis"_a.none() = nb::none(),
               "halo"_a.none() = nb::none(), "combine"_a.none() = "concatenate", "out_device"_a.none() = nb::none(),
               "broadcast"_a.none() = nb::none(),
               nb::sig("def map(fn: object, x: object, devices: object = None, axis: int | None = None, halo: int | "
                       "None = None, combine: object = 'concatenate', out_device: object = None, broadcast: object = "
                       "None) -> object"),
               "fn(part, *broadcast) on every part of x at once, one host thread per device with the part's device "
               "current, the results combined on out_device. See gpukit.multi_device.");
}

}  // namespace gpukit::python
