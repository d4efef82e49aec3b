// python/src/array.cpp: gpukit.ndarray, the Python class of gpukit::Array.
//
// Everything an array does is gpukit::Array's; this file translates: Python shapes and keys into
// C++ ones, numpy.dtype into DType, NumPy arrays into host views, and the interchange protocols
// (__dlpack__, __cuda_array_interface__) into their Python objects. Work that waits for the
// device runs with the GIL released.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "array_operators.hpp"
#include "bindings.hpp"
#include "dlpack.hpp"
#include "dlpack_abi.hpp"
#include "gpukit/array.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/shape_ops.hpp"
#include "indexing.hpp"
#include "numpy_bridge.hpp"
#include "operands.hpp"
#include "python_refs.hpp"
#include "python_stream.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

struct ArrayFlags {
    bool c_contiguous;
    bool f_contiguous;
    bool owndata;
};

nb::tuple to_tuple(const std::vector<std::int64_t>& values) {
    nb::list items;
    for (std::int64_t value : values) items.append(value);
    return nb::tuple(items);
}

std::string repr_of(nb::handle object) { return nb::cast<std::string>(nb::repr(object)); }

const char* const array_doc =
    "An array in device memory (a GPU's, or the simulator's).\n\n"
    "``ndarray(shape, dtype=float, memptr=None, strides=None)`` allocates on the current device, or, given "
    "``memptr`` (another gpukit array, e.g. from :meth:`RawModule.get_global`), views that array's memory with the "
    "new shape and dtype, as ``cupy.ndarray(shape, dtype, memptr)`` does. Create arrays with :func:`gpukit.empty`, "
    ":func:`gpukit.zeros`, :func:`gpukit.asarray`, ...\n\n"
    "An array is a view: the memory it shares (a gpukit allocation, a module's global, or another library's "
    "memory), the address of its first element, a shape, byte strides and a dtype. Slicing makes new views of the "
    "same memory; nothing is copied until ``.get()`` or ``.copy()``. Work runs on the current stream.\n\n"
    "On a CUDA device the array exposes ``__cuda_array_interface__`` (version 3, with the current stream) and "
    "``__dlpack__`` with ``kDLCUDA``: CuPy, PyTorch and Numba take it without a copy. On the simulator, device "
    "memory is host memory, so ``__dlpack_device__`` is ``kDLCPU`` and ``numpy.from_dlpack(array)`` is a zero-copy "
    "NumPy view; ``__cuda_array_interface__`` is absent there (no CUDA library could read the pointer). NumPy's "
    "implicit conversion (``numpy.asarray(array)``) raises on both backends, so code that runs on the simulator runs "
    "unchanged on a GPU.";

void construct(Array* self, nb::handle shape, nb::handle dtype_like, nb::handle memptr, nb::handle strides_like) {
    Shape extents = to_shape(shape, "shape");
    const DType dtype = to_dtype(dtype_like);
    std::optional<Strides> strides;
    if (!strides_like.is_none()) strides = to_shape(strides_like, "strides");
    if (memptr.is_none()) {
        check_shape(extents, static_cast<std::int64_t>(itemsize(dtype)));
        if (strides) {
            if (strides->size() != extents.size())
                throw InvalidArgumentError("strides " + format_shape(*strides) + " do not match shape " +
                                           format_shape(extents));
            if (!is_c_contiguous(extents, *strides, static_cast<std::int64_t>(itemsize(dtype))))
                throw InvalidArgumentError("a new allocation is C-contiguous; give strides only with memptr");
        }
        new (self) Array(Array::empty(std::move(extents), dtype, Device::current()));
        return;
    }
    const Array& viewed =
        to_instance<Array>(memptr, "memptr", "gpukit.ndarray (e.g. from RawModule.get_global) or None");
    new (self) Array(viewed.reinterpret(dtype, std::move(extents), std::move(strides)));
}

nb::object get(const Array& array, nb::handle stream, nb::handle out) {
    const StreamArgumentScope scope(stream, array.device());
    if (out.is_none()) return to_numpy(array);
    const std::string wanted =
        "a NumPy array of shape " + format_shape(array.shape()) + " and dtype " + std::string(to_string(array.dtype()));
    if (!nb::isinstance(out, numpy_module().attr("ndarray")))
        raise_type_error("out must be " + wanted + " (or None), not " + describe_value(out));
    const std::string given = "shape " + str_of(out.attr("shape")) + " and dtype " + str_of(out.attr("dtype"));
    if (!held_dtype(out.attr("dtype"))) raise_value_error("out must be " + wanted + ", not one of " + given);
    const NumpyHost host(out, true);
    if (host.view().shape != array.shape() || host.view().dtype != array.dtype())
        raise_value_error("out must be " + wanted + ", not one of " + given);
    {
        GilRelease unlocked;
        array.copy_to_host(host.view());
    }
    return nb::borrow(out);
}

// Host data for `name`: anything NumPy makes an array of, not None.
nb::object host_values(nb::handle values, std::string_view name) {
    const std::string accepted = " must be numbers: a NumPy array or anything NumPy makes one of (a list, a number)";
    if (values.is_none()) raise_type_error(std::string(name) + accepted + ", not None");
    nb::object host = as_numpy(values);
    const char kind = str_of(host.attr("dtype").attr("kind")).at(0);
    // ml_dtypes' bfloat16 is a kind 'V' dtype to NumPy, but numbers: arrays hold it.
    if ((kind == 'O' || kind == 'U' || kind == 'S' || kind == 'V') && !held_dtype(host.attr("dtype")))
        raise_type_error(std::string(name) + accepted + ", not " + describe_value(values));
    return host;
}

void set(Array& array, nb::handle values, nb::handle stream) {
    const StreamArgumentScope scope(stream, array.device());
    const NumpyHost host(host_values(values, "arr"), false);
    GilRelease unlocked;
    array.copy_from_host(host.view());
}

// target[...] = value: another gpukit array, or anything NumPy makes an array of (types gpukit
// does not hold, NumPy converts to the target's dtype).
void assign(Array target, nb::handle value) {
    if (nb::isinstance<Array>(value)) {
        const Array& source = *nb::inst_ptr<Array>(value);
        GilRelease unlocked;
        return target.assign(source);
    }
    nb::object host = host_values(value, "value");
    if (!held_dtype(host.attr("dtype"))) host = host.attr("astype")(numpy_dtype(target.dtype()));
    // NumPy drops leading dimensions of extent 1 the target does not have.
    while (nb::cast<std::size_t>(host.attr("ndim")) > target.ndim() &&
           nb::cast<std::int64_t>(host.attr("shape")[0]) == 1)
        host = host[0];
    const NumpyHost view(host, false);
    GilRelease unlocked;
    target.assign(view.view());
}

// a[key]: a view for basic indices; with index arrays a gather, which may wait for the device.
Array get_items(const Array& a, nb::handle key) {
    if (auto basic = to_basic_key(key)) return a.index(*basic);
    const std::vector<KeyItem> items = to_key(key, a.device());
    if (auto basic = basic_indices(items)) return a.index(*basic);
    GilRelease unlocked;
    return getitem(a, items);
}

// a[key] = value: a gpukit array, a number, or host data (NumPy converts it to a's dtype).
void set_items(const Array& a, nb::handle key, nb::handle value) {
    const std::vector<KeyItem> items = to_key(key, a.device());
    // Basic indices: the view's assign or fill (the device copy: NumPy's broadcast rule and message,
    // overlapping sources read first); index arrays: the scatter.
    const auto basic = basic_indices(items);
    if (nb::isinstance<Array>(value)) {
        const Array& source = *nb::inst_ptr<Array>(value);
        GilRelease unlocked;
        if (basic) return a.index(*basic).assign(source);
        return setitem(a, items, source);
    }
    if (is_scalar(value)) {
        const Scalar element = to_element(value, a.dtype(), "value");
        GilRelease unlocked;
        if (basic) return a.index(*basic).fill(element);
        const std::array<std::byte, 16> bytes = element.as(a.dtype());
        return setitem_bytes(a, items, std::span(bytes).first(static_cast<std::size_t>(a.itemsize())));
    }
    if (basic) return assign(a.index(*basic), value);
    nb::object host = host_values(value, "value");
    if (held_dtype(host.attr("dtype")) != a.dtype()) host = host.attr("astype")(numpy_dtype(a.dtype()));
    const Array values = to_device_array(host, a.device(), "value", false);
    GilRelease unlocked;
    setitem(a, items, values);
}

nb::dict cuda_array_interface(const Array& array) {
    const Device& device = array.device();
    if (device.backend_info().capabilities.dlpack_device_type != dlpack::kDLCUDA)
        throw nb::attribute_error(("__cuda_array_interface__ exists on CUDA devices only: this array is in the " +
                                   device.backend_info().name +
                                   " backend's (host) memory; use numpy.from_dlpack(array) or .get()")
                                      .c_str());
    nb::object typestr = numpy_dtype(array.dtype()).attr("str");
    nb::dict interface;
    interface["shape"] = to_tuple(array.shape());
    interface["typestr"] = typestr;
    nb::list descr;
    descr.append(nb::make_tuple("", typestr));
    interface["descr"] = descr;
    interface["data"] = nb::make_tuple(array.size() ? array.address() : 0, false);
    interface["strides"] = array.is_c_contiguous() ? nb::object(nb::none()) : nb::object(to_tuple(array.strides()));
    interface["version"] = 3;
    // The consumer uses the memory on streams gpukit cannot see: it waits for the device before
    // it goes back to the pool (gpukit/array_memory.hpp).
    array.memory()->mark_used_by_launch();
    // The consumer must order its work after this stream (1: CUDA's legacy default stream).
    interface["stream"] = exchange_stream(device);
    return interface;
}

nb::tuple as_tuple(nb::handle sequence) {
    PyObject* items = PySequence_Tuple(sequence.ptr());
    if (!items) nb::raise_python_error();
    return nb::steal<nb::tuple>(items);
}

// A tuple of ints for `name`, as __dlpack__'s dl_device and max_version are.
std::vector<std::int64_t> int_tuple(nb::handle value, std::string_view name, std::string_view accepted) {
    if (!PyTuple_Check(value.ptr()) && !PyList_Check(value.ptr()))
        raise_type_error(std::string(name) + " must be " + std::string(accepted) + ", not " + describe_value(value));
    nb::tuple items = as_tuple(value);
    if (nb::len(items) != 2)
        raise_value_error(std::string(name) + " must be " + std::string(accepted) + ", not " + describe_value(value));
    return {to_int64(items[0], std::string(name) + "[0]", 0, std::numeric_limits<std::int32_t>::max()),
            to_int64(items[1], std::string(name) + "[1]", 0, std::numeric_limits<std::int32_t>::max())};
}

std::pair<int, int> to_int_pair(nb::handle pair) {
    const auto items = int_tuple(pair, "dl_device", "a pair (device type, device id)");
    return {static_cast<int>(items[0]), static_cast<int>(items[1])};
}

std::string pair_text(std::pair<int, int> pair) {
    return "(" + std::to_string(pair.first) + ", " + std::to_string(pair.second) + ")";
}

nb::object export_dlpack(const Array& array, nb::handle stream, nb::handle max_version, nb::handle dl_device,
                         nb::handle copy) {
    const auto own = dlpack_device(array.device());
    const bool copy_asked = !copy.is_none() && PyObject_IsTrue(copy.ptr()) == 1;
    const bool copy_refused = copy.ptr() == Py_False;
    if (!dl_device.is_none()) {
        const auto requested = to_int_pair(dl_device);
        if (requested != own) {
            if (copy_refused || requested.first != dlpack::kDLCPU)
                throw nb::buffer_error(("cannot export an array on DLPack device " + pair_text(own) + " to " +
                                        pair_text(requested) + (copy_refused ? " without a copy" : ""))
                                           .c_str());
            nb::object host = to_numpy(array);  // a host copy, exported by NumPy
            if (max_version.is_none()) return host.attr("__dlpack__")();
            return host.attr("__dlpack__")("max_version"_a = max_version);
        }
    }
    const bool versioned =
        !max_version.is_none() && int_tuple(max_version, "max_version", "a (major, minor) version tuple")[0] >= 1;
    if (!stream.is_none() && (PyBool_Check(stream.ptr()) || !PyIndex_Check(stream.ptr())))
        raise_type_error("stream must be an int (the consumer's stream; -1: do not synchronise) or None, not " +
                         describe_value(stream));
    std::optional<Array> copied;
    if (copy_asked) {
        GilRelease unlocked;
        copied = array.copy();
    }
    const bool no_wait = !stream.is_none() && to_clamped_int64(stream) == -1;
    if (!no_wait) {
        // We cannot make a foreign stream wait on ours, so the work on this device finishes first.
        raise_deferred_launch_error();
        GilRelease unlocked;
        array.device().synchronize();
    }
    const Array& exported = copied ? *copied : array;
    exported.memory()->mark_used_by_launch();  // as for __cuda_array_interface__
    return dlpack_capsule(exported, versioned);
}

// reshape with NumPy 2's copy=: None a view when possible, False a view or ValueError, True a copy.
Array reshaped(const Array& a, const std::vector<std::int64_t>& shape, Order order, std::optional<bool> copy) {
    if (copy && *copy) {
        GilRelease unlocked;
        return a.copy(order == Order::F ? Order::F : Order::C).reshape(shape, order);
    }
    if (copy && !*copy) {
        const Shape resolved = resolve_reshape(a.size(), shape);
        const bool fortran = order == Order::F || (order == Order::A && a.is_f_contiguous() && !a.is_c_contiguous());
        if (!reshaped_strides(a.shape(), a.strides(), a.itemsize(), resolved, fortran))
            raise_value_error("Unable to avoid creating a copy while reshaping.");
    }
    GilRelease unlocked;
    return a.reshape(shape, order);
}

nb::object iterate(const Array& array) {
    if (array.ndim() == 0) throw nb::type_error("iteration over a 0-d array");
    nb::list rows;
    for (std::int64_t i = 0; i < array.shape()[0]; ++i) rows.append(nb::cast(array.index({i})));
    return nb::iter(rows);
}

}  // namespace

void bind_array(nb::module_& m) {
    nb::class_<ArrayFlags>(m, "Flags",
                           "How an array's elements lie: ``c_contiguous`` (row-major without gaps), "
                           "``f_contiguous`` (column-major without gaps), ``owndata`` (all of an allocation, "
                           "not a view of another array's memory).")
        .def_ro("c_contiguous", &ArrayFlags::c_contiguous, "Elements in row-major order without gaps.")
        .def_ro("f_contiguous", &ArrayFlags::f_contiguous, "Elements in column-major order without gaps.")
        .def_ro("owndata", &ArrayFlags::owndata, "Not a view of another array's memory.")
        .def("__repr__", [](const ArrayFlags& f) {
            const auto word = [](bool b) { return b ? "True" : "False"; };
            return std::string("Flags(c_contiguous=") + word(f.c_contiguous) +
                   ", f_contiguous=" + word(f.f_contiguous) + ", owndata=" + word(f.owndata) + ")";
        });

    nb::class_<Array> cls(m, "ndarray", nb::is_weak_referenceable(), nb::type_slots(array_operator_slots()), array_doc);
    cls.def("__init__", &construct, "shape"_a.none(),
            "dtype"_a.none() = nb::handle(reinterpret_cast<PyObject*>(&PyFloat_Type)),
            nb::sig("def __init__(self, shape: object, dtype: object = float, memptr: ndarray | None = None, "
                    "strides: object | None = None) -> None"),
            "memptr"_a = nb::none(), "strides"_a = nb::none())
        // ---- what it is
        .def_prop_ro(
            "dtype", [](const Array& a) { return numpy_dtype(a.dtype()); }, "The element type (a numpy.dtype).")
        .def_prop_ro(
            "shape", [](const Array& a) { return to_tuple(a.shape()); }, "The extent of each dimension.")
        .def_prop_ro(
            "strides", [](const Array& a) { return to_tuple(a.strides()); },
            "Bytes from one element to the next along each dimension (negative for reversed views).")
        .def_prop_ro("ndim", &Array::ndim, "The number of dimensions.")
        .def_prop_ro("size", &Array::size, "The number of elements.")
        .def_prop_ro("itemsize", &Array::itemsize, "Bytes per element.")
        .def_prop_ro("nbytes", &Array::nbytes,
                     "Bytes the elements take (``size * itemsize``), gaps between strided elements not counted.")
        .def_prop_ro(
            "device", [](const Array& a) { return a.device(); }, "The gpukit.Device whose memory holds the array.")
        .def_prop_ro("data_ptr", &Array::address, "The device address of the first element, as an int.")
        .def_prop_ro(
            "flags",
            [](const Array& a) {
                return ArrayFlags{a.is_c_contiguous(), a.is_f_contiguous(), a.owns_data()};
            },
            "``c_contiguous``, ``f_contiguous`` and ``owndata`` (see :class:`Flags`).")
        .def("__len__",
             [](const Array& a) {
                 if (a.ndim() == 0) throw nb::type_error("len() of a 0-d array");
                 return a.shape()[0];
             })
        .def("__iter__", &iterate)
        // ---- to and from the host
        .def("get", &get, "stream"_a = nb::none(), "out"_a = nb::none(),
             "A NumPy copy of the array, in row-major order whatever the view's strides.\n\n``out``: a NumPy array of "
             "the same shape and dtype to copy into. Returns once the data is on the host (the copy runs on "
             "``stream``, default the current stream).")
        .def(
            "copy_to_host",
            [](const Array& a, nb::handle ary, nb::handle stream) {
                const bool default_stream = nb::isinstance<nb::int_>(stream) && nb::cast<long long>(stream) == 0;
                return get(a, default_stream ? nb::none() : stream, ary);
            },
            "ary"_a = nb::none(), "stream"_a = 0,
            "Numba's name for :meth:`get`: a NumPy copy of the array, or the copy into ``ary`` (``stream`` 0: the "
            "current stream).")
        .def("set", &set, "arr"_a.none(), "stream"_a = nb::none(),
             nb::sig("def set(self, arr: object, stream: Stream | None = None) -> None"),
             "Copies host data (a NumPy array or anything NumPy can read) of the same shape and dtype into the "
             "array.\n\n"
             "For a strided view the bytes between its elements are read and written back unchanged, so no other "
             "stream may write them meanwhile.")
        .def(
            "tolist", [](const Array& a) { return to_numpy(a).attr("tolist")(); },
            "The elements as (nested) Python lists, through a host copy.")
        .def(
            "item",
            [](const Array& a) {
                if (a.size() != 1) throw nb::value_error("can only convert an array of size 1 to a Python scalar");
                return to_numpy(a).attr("item")();
            },
            "The one element of a size-1 array, as a Python scalar.")
        // ---- on the device
        .def(
            "copy",
            [](const Array& a, nb::handle order) {
                const Order layout = to_order(order, Order::C);
                GilRelease unlocked;
                return a.copy(layout);
            },
            "order"_a.none() = "C", "A new array with the same elements, laid out in `order` ('C', 'F', 'A', 'K').")
        .def(
            "astype",
            [](nb::handle self, nb::handle dtype_like, nb::handle order, nb::handle casting, nb::handle subok,
               nb::handle copy) -> nb::object {
                (void)subok;
                const Array& a = *nb::inst_ptr<Array>(self);
                const DType dtype = to_dtype(dtype_like);
                const Order layout = to_order(order, Order::K);
                const Casting rule = to_casting(casting);
                if (!can_cast(a.dtype(), dtype, rule))
                    throw DTypeError("Cannot cast array data from dtype('" + std::string(to_string(a.dtype())) +
                                     "') to dtype('" + std::string(to_string(dtype)) + "') according to the rule '" +
                                     std::string(to_string(rule)) + "'");
                const bool laid_out = layout == Order::K || layout == Order::A ||
                                      (layout == Order::C ? a.is_c_contiguous() : a.is_f_contiguous());
                if (dtype == a.dtype() && laid_out && !to_bool(copy, "copy")) return nb::borrow(self);
                std::optional<Array> converted;
                {
                    GilRelease unlocked;
                    converted = a.astype(dtype, layout);
                }
                return nb::cast(std::move(*converted));
            },
            "dtype"_a.none(), "order"_a.none() = "K", "casting"_a.none() = "unsafe", "subok"_a.none() = nb::none(),
            "copy"_a.none() = nb::handle(Py_True),
            nb::sig("def astype(self, dtype: object, order: str = 'K', casting: str = 'unsafe', subok: object = None, "
                    "copy: bool = True) -> ndarray"),
            "The elements converted to `dtype` on the device, as NumPy converts them, in a new array laid out in "
            "`order` (K: as this one); the array itself when nothing changes and `copy` is False.")
        .def(
            "view",
            [](const Array& a, nb::handle dtype_like, nb::handle type) {
                const auto is_ndarray_type = [](nb::handle value) {
                    return value.ptr() == reinterpret_cast<PyObject*>(array_type());
                };
                if (!type.is_none() && !is_ndarray_type(type))
                    throw nb::type_error("gpukit arrays are of one type: view(type=...) takes only gpukit.ndarray");
                if (dtype_like.is_none() || is_ndarray_type(dtype_like)) return a.view(a.dtype());
                return a.view(to_dtype(dtype_like));
            },
            "dtype"_a.none() = nb::none(), "type"_a.none() = nb::none(),
            nb::sig("def view(self, dtype: object | None = None, type: type | None = None) -> ndarray"),
            "A view of the same memory, its bytes read as `dtype` (this array's when None), as numpy.ndarray.view: "
            "of another itemsize, the contiguous last axis holds more or fewer elements.")
        .def(
            "fill",
            [](Array& a, nb::handle value) {
                if (nb::isinstance<Array>(value)) {
                    const Array& source = *nb::inst_ptr<Array>(value);
                    GilRelease unlocked;
                    return a.assign(source);
                }
                const Scalar element = to_element(value, a.dtype(), "value");
                GilRelease unlocked;
                a.fill(element);
            },
            "value"_a.none(), nb::sig("def fill(self, value: object) -> None"),
            "Sets every element to `value` (converted to the array's dtype as NumPy converts it), on the device.")
        // ---- indexing routines (python/src/indexing.cpp binds the functions)
        .def(
            "nonzero", [](nb::handle self) { return nonzero_binding(self); },
            nb::sig("def nonzero(self) -> tuple[ndarray, ...]"),
            "The indices of the nonzero elements, one int64 array per dimension; waits for the count.")
        .def(
            "take",
            [](nb::handle self, nb::handle indices, nb::handle axis, nb::handle out, nb::handle mode) {
                return take_binding(self, indices, axis, out, mode);
            },
            "indices"_a.none(), "axis"_a.none() = nb::none(), "out"_a.none() = nb::none(), "mode"_a.none() = "raise",
            nb::sig("def take(self, indices: object, axis: int | None = None, out: ndarray | None = None, "
                    "mode: str = 'raise') -> ndarray"),
            "gpukit.take(self, indices, axis, out, mode).")
        .def(
            "put",
            [](nb::handle self, nb::handle indices, nb::handle values, nb::handle mode) {
                put_binding(self, indices, values, mode);
            },
            "indices"_a.none(), "values"_a.none(), "mode"_a.none() = "raise",
            nb::sig("def put(self, indices: object, values: object, mode: str = 'raise') -> None"),
            "gpukit.put(self, indices, values, mode).")
        .def(
            "choose",
            [](nb::handle self, nb::handle choices, nb::handle out, nb::handle mode) {
                return choose_binding(self, choices, out, mode);
            },
            "choices"_a.none(), "out"_a.none() = nb::none(), "mode"_a.none() = "raise",
            nb::sig("def choose(self, choices: object, out: ndarray | None = None, mode: str = 'raise') -> ndarray"),
            "gpukit.choose(self, choices, out, mode).")
        .def(
            "compress",
            [](nb::handle self, nb::handle condition, nb::handle axis, nb::handle out) {
                return compress_binding(condition, self, axis, out);
            },
            "condition"_a.none(), "axis"_a.none() = nb::none(), "out"_a.none() = nb::none(),
            nb::sig("def compress(self, condition: object, axis: int | None = None, out: ndarray | None = None) "
                    "-> ndarray"),
            "gpukit.compress(condition, self, axis, out).")
        // ---- views
        .def("__getitem__", &get_items, "key"_a.none(), nb::sig("def __getitem__(self, key: object) -> ndarray"),
             "a[key]: basic indices (ints, slices, None, ...) give a view; index arrays (integer arrays, masks, lists, "
             "NumPy arrays) gather a copy.")
        .def("__setitem__", &set_items, "key"_a.none(), "value"_a.none(),
             nb::sig("def __setitem__(self, key: object, value: object) -> None"),
             "a[key] = value: a gpukit array, a number or host data (a NumPy array, a list), broadcast to a[key]'s "
             "shape and converted to a's dtype. Duplicate indices write one of their values (which one is not "
             "defined).")
        .def(
            "reshape",
            [](const Array& a, const nb::args& shape, const nb::kwargs& kwargs) {
                Order order = Order::C;
                std::optional<bool> copy;
                for (auto [key, value] : kwargs) {
                    const std::string name = nb::cast<std::string>(key);
                    if (name == "order")
                        order = to_order(value, Order::C);
                    else if (name == "copy")
                        copy = value.is_none() ? std::nullopt : std::optional(to_bool(value, "copy"));
                    else if (name == "shape" && shape.size() == 0)
                        return reshaped(a, to_shape(value), order, copy);
                    else
                        raise_type_error("reshape() got an unexpected keyword argument '" + name + "'");
                }
                return reshaped(a, to_extents(shape, "shape"), order, copy);
            },
            "The same elements in a new shape (one extent may be -1), read and placed in `order`: a view when strides "
            "allow (NumPy's rule), else a copy (copy=False refuses one, copy=True always makes one).")
        .def(
            "ravel",
            [](const Array& a, nb::handle order) {
                const Order layout = to_order(order, Order::C);
                GilRelease unlocked;
                return a.ravel(layout);
            },
            "order"_a.none() = "C", "1-D in `order`: a view of an array contiguous in that order, else a copy.")
        .def(
            "flatten",
            [](const Array& a, nb::handle order) {
                const Order layout = to_order(order, Order::C);
                GilRelease unlocked;
                return flatten(a, layout);
            },
            "order"_a.none() = "C", "A 1-D copy in `order`.")
        .def(
            "squeeze",
            [](const Array& a, nb::handle axis) {
                return axis.is_none() ? squeeze(a) : squeeze(a, to_axes(axis, "axis"));
            },
            "axis"_a.none() = nb::none(), "Without dimensions of extent 1 (all, or those of `axis`): a view.")
        .def(
            "swapaxes",
            [](const Array& a, nb::handle axis1, nb::handle axis2) {
                return swapaxes(a, to_int64(axis1, "axis1"), to_int64(axis2, "axis2"));
            },
            "axis1"_a.none(), "axis2"_a.none(), "Two axes interchanged: a view.")
        .def(
            "repeat",
            [](const Array& a, nb::handle repeats, nb::handle axis) {
                const std::vector<std::int64_t> counts = to_axes(repeats, "repeats");
                const std::optional<std::int64_t> along = to_optional_axis(axis, "axis");
                GilRelease unlocked;
                return repeat(a, counts, along);
            },
            "repeats"_a.none(), "axis"_a.none() = nb::none(),
            "Each element repeated along `axis` (the flattened array by default).")
        .def(
            "diagonal",
            [](const Array& a, nb::handle offset, nb::handle axis1, nb::handle axis2) {
                return diagonal(a, to_int64(offset, "offset"), to_int64(axis1, "axis1"), to_int64(axis2, "axis2"));
            },
            "offset"_a.none() = 0, "axis1"_a.none() = 0, "axis2"_a.none() = 1,
            "The diagonal at `offset` of the matrices in (axis1, axis2): a view.")
        .def_prop_rw(
            "real", [](const Array& a) { return real(a); },
            [](const Array& a, nb::handle value) { assign(real(a), value); },
            "The real part: a view of a complex array's memory (assigning to it writes the array).")
        .def_prop_rw(
            "imag", [](const Array& a) { return imag(a); },
            [](const Array& a, nb::handle value) {
                if (kind(a.dtype()) != DTypeKind::complex)
                    raise_type_error("array does not have imaginary part to set");
                assign(imag(a), value);
            },
            "The imaginary part: a view of a complex array's memory; zeros (a new array) for a real one.")
        .def(
            "transpose",
            [](const Array& a, const nb::args& axes) {
                // a.transpose(None), as NumPy's: the axes reversed.
                if (axes.size() == 1 && axes[0].is_none()) return a.transpose();
                return a.transpose(to_extents(axes, "axes"));
            },
            "A view with the dimensions permuted (reversed when no axes are given).")
        .def_prop_ro(
            "T", [](const Array& a) { return a.transpose(); }, "The transposed view.")
        .def_prop_ro(
            "mT", [](const Array& a) { return matrix_transpose(a); },
            "The matrices of the last two axes transposed: a view (at least 2-D).")
        .def(
            "to_device",
            [](const Array& a, nb::handle device, nb::handle stream) {
                if (!stream.is_none())
                    throw nb::value_error(
                        "to_device: stream must be None: the copy is ordered on each device's current stream");
                const Device there = to_device(device, "device");
                GilRelease unlocked;
                return a.to_device(there);
            },
            "device"_a.none(), nb::kw_only(), "stream"_a.none() = nb::none(),
            "This array on `device` (a gpukit.Device or a device number): itself when it is there, else a copy "
            "(the Array API's), peer to peer where the devices reach each other and through the host where not. "
            "The copy runs on the target's current stream after the work queued on the source's, without waiting.")
        // ---- pickling: empty arrays only (Dask's metas travel inside task graphs); a pickle of
        // elements would hide a copy from the device, which gpukit never makes behind the user's back.
        .def(
            "__reduce__",
            [](const Array& a) {
                if (a.size() != 0)
                    raise_type_error(
                        "gpukit arrays with elements do not pickle: a pickle would hide a copy from the device to the "
                        "host. Copy explicitly (x.get() is a NumPy array, gpukit.asarray puts it back), or send "
                        "arrays through dask.distributed, whose serialisers gpukit registers");
                nb::list extents;
                for (const std::int64_t extent : a.shape()) extents.append(extent);
                // Rebuilt empty on the current device of the process that unpickles it.
                return nb::make_tuple(nb::module_::import_("gpukit._creation").attr("unpickled_empty"),
                                      nb::make_tuple(nb::tuple(extents), numpy_dtype(a.dtype())));
            },
            "Pickles an empty array (shape and dtype; Dask's metas inside task graphs); an array with elements "
            "raises TypeError, since the pickle would hide a copy from the device.")
        // ---- interoperability
        .def_prop_ro(
            "__cuda_array_interface__", &cuda_array_interface,
            "CUDA Array Interface v3 (CUDA devices only; on the simulator use DLPack, whose device is the CPU).")
        .def(
            "__dlpack_device__", [](const Array& a) { return dlpack_device(a.device()); },
            "(kDLCUDA, ordinal) on a GPU; (kDLCPU, 0) on the simulator, whose device memory is host memory.")
        .def("__dlpack__", &export_dlpack, nb::kw_only(), "stream"_a = nb::none(), "max_version"_a = nb::none(),
             "dl_device"_a = nb::none(), "copy"_a = nb::none(),
             "A DLPack capsule over the array's memory (versioned when ``max_version`` asks for 1.x).\n\n"
             "The capsule keeps the memory alive until the consumer is done. Work enqueued so far is finished first "
             "unless ``stream`` is -1. ``copy=True`` exports a copy; ``dl_device=(kDLCPU, 0)`` on a GPU exports a host "
             "copy (refused when ``copy=False``).")
        // ---- text
        .def("__repr__",
             [](const Array& a) {
                 const std::string text = repr_of(to_numpy(a));
                 return text.substr(0, text.size() - 1) + ", device='" + a.device().backend_info().name + ":" +
                        std::to_string(a.device().ordinal()) + "')";
             })
        .def("__str__", [](const Array& a) { return nb::str(to_numpy(a)); });
    // NumPy defers binary operators to us rather than treating an ndarray as an object scalar.
    cls.attr("__array_priority__") = 100;

    nb::class_<std::weak_ptr<ArrayMemory>>(
        m, "MemoryWatch",
        "Whether the memory an array views is still held, by any array, DLPack capsule or launch, without holding "
        "it: for tests and leak hunts.")
        .def(
            "__init__",
            [](std::weak_ptr<ArrayMemory>* self, const Array& array) {
                new (self) std::weak_ptr<ArrayMemory>(array.memory());
            },
            "array"_a)
        .def_prop_ro(
            "alive", [](const std::weak_ptr<ArrayMemory>& memory) { return !memory.expired(); },
            "True until the memory has been let go of.");

    m.def(
        "checked_shape",
        [](nb::handle shape, nb::handle dtype) {
            const Shape extents = to_shape(shape, "shape");
            const auto item = static_cast<std::int64_t>(itemsize(to_dtype(dtype)));
            check_shape(extents, item);
            std::int64_t bytes = item;
            for (std::int64_t extent : extents) bytes *= extent;
            return nb::make_tuple(to_tuple(extents), bytes);
        },
        "shape"_a.none(), "dtype"_a.none(),
        nb::sig("def checked_shape(shape: object, dtype: object) -> tuple[tuple[int, ...], int]"),
        "(shape as a tuple, bytes) for an array of `shape` and `dtype`, refused as gpukit.empty refuses them.");
    m.def(
        "from_host",
        [](nb::handle values, const Device& device) {
            const NumpyHost host(as_numpy(values), false);
            GilRelease unlocked;
            return Array::from_host(host.view(), device);
        },
        "values"_a, "device"_a, "A new array on `device` holding a copy of host data (a NumPy array, in any layout).");
    m.def(
        "module_global",
        [](const Module& module, nb::handle name, nb::handle dtype, nb::handle shape) {
            return module_global(module, to_str(name, "name"), to_dtype(dtype),
                                 shape.is_none() ? std::nullopt : std::optional<Shape>(to_shape(shape)));
        },
        "module"_a, "name"_a.none(), "dtype"_a.none(), "shape"_a = nb::none(),
        nb::sig("def module_global(module: Module, name: str, dtype: object, shape: object | None = None) -> ndarray"),
        "An array viewing a module's __device__ or __constant__ variable (1-D over all of it unless `shape` says); "
        "it keeps the module loaded.");
    m.def(
        "dtype_names",
        [] {
            std::vector<std::string> names;
            for (const DTypeInfo& row : dtype_table) names.emplace_back(row.name);
            return names;
        },
        "The names of the element types gpukit arrays hold, NumPy's numeric types and bfloat16.");
}

}  // namespace gpukit::python
