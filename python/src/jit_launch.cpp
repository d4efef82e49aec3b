// python/src/jit_launch.cpp: the launch fast path of @gpukit.jit kernels, _core.JitLaunchCache.
//
// A jit kernel is compiled for its arguments' types. The Python dispatcher works the types out,
// compiles and launches (dispatcher.py's slow path), then records here how arguments of those types
// become the compiled kernel's parameters. Later launches with arguments of the same types, on the
// same device, are keyed, packed and launched here without going back to Python, as a C++ launch
// would be. What this does not recognise, or cannot pass exactly as the slow path would (an int out
// of its parameter's range, an array on another device), it leaves to the slow path: launch()
// returns false having done nothing, and the slow path's errors are the only ones users see.
#include <nanobind/stl/string.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "bindings.hpp"
#include "gpukit/array.hpp"
#include "gpukit/kernel.hpp"
#include "numpy_bridge.hpp"
#include "operands.hpp"
#include "python_refs.hpp"
#include "python_stream.hpp"

namespace nb = nanobind;

namespace gpukit::python {
namespace {

// Whether every element's offset from the first, in elements, is below 2^31: the kernel then
// indexes in 32 bits. The one definition: dispatcher.py types arrays by it too (_core.jit_offsets_fit_int32).
bool offsets_fit_int32(const Array& array) {
    constexpr std::int64_t limit = std::int64_t{1} << 31;
    if (array.is_c_contiguous()) return array.size() < limit;
    if (array.size() == 0) return true;
    std::int64_t span = 0;
    for (std::size_t k = 0; k < array.ndim(); ++k) span += (array.shape()[k] - 1) * std::abs(array.strides()[k]);
    return span / array.itemsize() < limit;
}

// What decides an argument's kernel-language type (dispatcher.py's _signature_key): its exact
// Python type, and for a gpukit array its element type and layout.
struct ArgumentKey {
    PyTypeObject* type = nullptr;  // null: an argument the fast path does not take
    DType dtype{};
    std::size_t ndim = 0;
    bool c_contiguous = false;
    bool offsets_fit_int32 = false;

    friend bool operator==(const ArgumentKey&, const ArgumentKey&) = default;
};

// `value`'s key; `array` points to it where it is a gpukit array.
ArgumentKey key_of(nb::handle value, const Array*& array) {
    PyTypeObject* type = Py_TYPE(value.ptr());
    array = nullptr;
    if (type != array_type()) return {type};
    if (!nb::inst_ready(value)) return {};
    array = nb::inst_ptr<Array>(value);
    return {type, array->dtype(), array->ndim(), array->is_c_contiguous(), offsets_fit_int32(*array)};
}

// How a scalar argument becomes its parameter's bytes, as the slow path converts it.
enum class ScalarConversion : std::uint8_t {
    python_number,  // a Python int, bool or float: range-checked, an int converted for a float parameter
    numpy_bytes,    // a NumPy scalar of the parameter's dtype: its bytes as they are
    numpy_astype,   // a NumPy scalar of another dtype: value.astype(dtype)'s bytes
};

// One argument's parameters: an array's pointer, shape and strides in elements, or one scalar.
struct ArgumentPlan {
    DType dtype{};  // a scalar's parameter type
    ScalarConversion conversion = ScalarConversion::python_number;
    nb::object numpy_dtype;  // for numpy_astype
};

// The range of an integer parameter, for a value that fits in int64 (uint64's upper half aside).
std::pair<std::int64_t, std::int64_t> integer_range(DType dtype) {
    const int bits = static_cast<int>(itemsize(dtype)) * 8;
    switch (kind(dtype)) {
        case DTypeKind::boolean: return {0, 1};
        case DTypeKind::signed_integer:
            if (bits == 64) return {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
            return {-(std::int64_t{1} << (bits - 1)), (std::int64_t{1} << (bits - 1)) - 1};
        default:
            if (bits == 64) return {0, std::numeric_limits<std::int64_t>::max()};
            return {0, (std::int64_t{1} << bits) - 1};
    }
}

// A Python int (or bool) as an integer parameter's bits, or nullopt beyond its range.
std::optional<std::uint64_t> integer_bits(PyObject* value, DType dtype) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow > 0 && dtype == DType::uint64) {
        const unsigned long long u = PyLong_AsUnsignedLongLong(value);
        if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
            PyErr_Clear();
            return std::nullopt;
        }
        return u;
    }
    const auto [low, high] = integer_range(dtype);
    if (overflow != 0 || v < low || v > high) return std::nullopt;
    return static_cast<std::uint64_t>(v);
}

// A Python number as a floating-point parameter's bits, or nullopt where it does not fit (an int
// beyond float64, a finite float beyond float32): the slow path says why.
std::optional<std::uint64_t> floating_bits(PyObject* value, DType dtype) {
    const double d = PyFloat_Check(value) ? PyFloat_AS_DOUBLE(value) : PyLong_AsDouble(value);
    if (d == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return std::nullopt;
    }
    std::uint64_t bits = 0;
    if (dtype == DType::float64) {
        std::memcpy(&bits, &d, sizeof d);
        return bits;
    }
    const auto single = static_cast<float>(d);
    if (std::isfinite(d) && !std::isfinite(single)) return std::nullopt;
    std::memcpy(&bits, &single, sizeof single);
    return bits;
}

std::optional<std::uint64_t> python_number_bits(PyObject* value, DType dtype) {
    if (kind(dtype) == DTypeKind::floating) return floating_bits(value, dtype);
    if (PyFloat_Check(value)) return std::nullopt;  // a float for an integer parameter: the slow path refuses it
    return integer_bits(value, dtype);
}

// A NumPy scalar's bytes (as many as `size`), or nullopt where it has no such buffer.
std::optional<std::uint64_t> buffer_bits(PyObject* value, std::size_t size) {
    Py_buffer view;
    if (PyObject_GetBuffer(value, &view, PyBUF_SIMPLE) != 0) {
        PyErr_Clear();
        return std::nullopt;
    }
    std::optional<std::uint64_t> bits;
    if (static_cast<std::size_t>(view.len) == size) {
        bits = 0;
        std::memcpy(&*bits, view.buf, size);  // little-endian: the parameter's bytes come first
    }
    PyBuffer_Release(&view);
    return bits;
}

std::optional<std::uint64_t> scalar_bits(PyObject* value, const ArgumentPlan& plan) {
    switch (plan.conversion) {
        case ScalarConversion::python_number: return python_number_bits(value, plan.dtype);
        case ScalarConversion::numpy_bytes: return buffer_bits(value, itemsize(plan.dtype));
        case ScalarConversion::numpy_astype: {
            nb::object converted = nb::steal(PyObject_CallMethod(value, "astype", "O", plan.numpy_dtype.ptr()));
            if (!converted.is_valid()) {
                PyErr_Clear();
                return std::nullopt;
            }
            return buffer_bits(converted.ptr(), itemsize(plan.dtype));
        }
    }
    return std::nullopt;
}

// A specialisation: the keys of the arguments it was compiled for, and how they are passed.
struct Entry {
    std::vector<ArgumentKey> keys;
    std::vector<ArgumentPlan> plans;
    Kernel kernel;
    bool dynamic_shared;  // the kernel takes the launch's dynamic shared bytes as a last int64
};

// A scalar parameter's type from the dtype name dispatcher.py gives, where it takes at most the
// 8 bytes launch() gives each parameter.
std::optional<DType> scalar_parameter_type(nb::handle name) {
    if (!PyUnicode_Check(name.ptr())) return std::nullopt;
    const std::optional<DType> dtype = dtype_named(nb::cast<std::string>(name));
    if (!dtype || itemsize(*dtype) > sizeof(std::uint64_t)) return std::nullopt;
    return dtype;
}

// The parameter types a Python number converts to here; others (float16, complex) are the slow path's.
bool takes_python_number(DType dtype) {
    const DTypeKind k = kind(dtype);
    return dtype == DType::float32 || dtype == DType::float64 || k == DTypeKind::boolean ||
           k == DTypeKind::signed_integer || k == DTypeKind::unsigned_integer;
}

// How scalar `value` (of a key's type) travels as a `dtype` parameter, or nullopt for a value the
// fast path does not take.
std::optional<ArgumentPlan> scalar_plan(nb::handle value, DType dtype) {
    PyTypeObject* type = Py_TYPE(value.ptr());
    if (type == &PyLong_Type || type == &PyBool_Type || type == &PyFloat_Type) {
        if (!takes_python_number(dtype)) return std::nullopt;
        return ArgumentPlan{dtype, ScalarConversion::python_number, {}};
    }
    if (PyObject_IsInstance(value.ptr(), numpy_module().attr("generic").ptr()) != 1) {
        PyErr_Clear();
        return std::nullopt;
    }
    nb::object parameter_dtype = numpy_dtype(dtype);
    if (value.attr("dtype").equal(parameter_dtype)) return ArgumentPlan{dtype, ScalarConversion::numpy_bytes, {}};
    return ArgumentPlan{dtype, ScalarConversion::numpy_astype, parameter_dtype};
}

// The parameter sizes a kernel taking `plans` must have (a pointer, shape and strides per array).
std::vector<std::size_t> expected_param_sizes(const std::vector<ArgumentPlan>& plans,
                                              const std::vector<ArgumentKey>& keys, bool dynamic_shared) {
    std::vector<std::size_t> sizes;
    for (std::size_t i = 0; i < plans.size(); ++i) {
        if (keys[i].type == array_type())
            sizes.insert(sizes.end(), 1 + 2 * keys[i].ndim, sizeof(std::int64_t));
        else
            sizes.push_back(itemsize(plans[i].dtype));
    }
    if (dynamic_shared) sizes.push_back(sizeof(std::int64_t));
    return sizes;
}

class JitLaunchCache {
public:
    // Launches `args` if a recorded specialisation takes them; false, having done nothing, if not.
    bool launch(nb::handle grid, nb::handle block, nb::handle args, nb::handle shared_mem, nb::handle stream) const {
        if (!PyTuple_Check(args.ptr())) return false;
        const std::size_t count = static_cast<std::size_t>(PyTuple_GET_SIZE(args.ptr()));
        std::vector<ArgumentKey> keys(count);
        std::vector<const Array*> arrays(count);
        for (std::size_t i = 0; i < count; ++i) {
            keys[i] = key_of(PyTuple_GET_ITEM(args.ptr(), i), arrays[i]);
            if (!keys[i].type) return false;
        }
        const Device device = Device::current();
        const Entry* entry = find(keys, device);
        if (!entry) return false;

        const Kernel& kernel = entry->kernel;
        const LaunchConfig config{to_dim3(grid, "grid"),
                                  to_dim3(block, "block"),
                                  to_size(shared_mem, "shared_mem"),
                                  stream_argument(stream, device),
                                  {}};
        std::vector<std::uint64_t> slots;  // one parameter each, its bytes first
        const std::vector<KernelParam>& params = kernel.params();
        slots.reserve(params.size());
        for (std::size_t i = 0; i < count; ++i) {
            if (arrays[i]) {
                if (!pack_array(*arrays[i], device, slots)) return false;
                continue;
            }
            const std::optional<std::uint64_t> bits = scalar_bits(PyTuple_GET_ITEM(args.ptr(), i), entry->plans[i]);
            if (!bits) return false;
            slots.push_back(*bits);
        }
        if (entry->dynamic_shared) {
            if (config.shared_bytes > static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max())) return false;
            slots.push_back(config.shared_bytes);
        }

        KernelArgs packed;
        for (std::size_t j = 0; j < slots.size(); ++j) packed.add_bytes(&slots[j], params[j].size);
        for (const Array* array : arrays)
            if (array) array->memory()->mark_used_by_launch(config.stream);  // it outlives the launch
        GilRelease unlocked;  // as RawKernel's launch: a launch may wait for room in the queue
        kernel.launch(config, packed);
        return true;
    }

    // Records that `args`' keys launch `kernel` with scalars passed as `scalar_dtypes` (one per
    // argument: None for an array, a dtype name for a scalar). False where the fast path cannot
    // take them all (a tuple, a host array) or the kernel's parameters are not what it expects.
    bool add(nb::handle args, nb::handle kernel_object, nb::handle scalar_dtypes, bool dynamic_shared) {
        const Kernel& kernel = to_instance<Kernel>(kernel_object, "kernel", "gpukit._core.Kernel");
        nb::sequence values = nb::borrow<nb::sequence>(args);
        nb::sequence dtypes = nb::borrow<nb::sequence>(scalar_dtypes);
        const std::size_t count = nb::len(values);
        if (nb::len(dtypes) != count || entries_.size() >= max_entries) return false;
        std::vector<ArgumentKey> keys(count);
        std::vector<ArgumentPlan> plans(count);
        for (std::size_t i = 0; i < count; ++i) {
            const Array* array = nullptr;
            keys[i] = key_of(values[i], array);
            if (!keys[i].type) return false;
            if (array) {
                if (!dtypes[i].is_none() || !(array->device() == kernel.device())) return false;
                continue;
            }
            const std::optional<DType> dtype = scalar_parameter_type(dtypes[i]);
            const std::optional<ArgumentPlan> plan = dtype ? scalar_plan(values[i], *dtype) : std::nullopt;
            if (!plan) return false;
            plans[i] = *plan;
        }
        const std::vector<std::size_t> sizes = expected_param_sizes(plans, keys, dynamic_shared);
        const std::vector<KernelParam>& params = kernel.params();
        if (params.size() != sizes.size()) return false;
        for (std::size_t j = 0; j < sizes.size(); ++j)
            if (params[j].size != sizes[j]) return false;
        if (find(keys, kernel.device())) return false;
        entries_.push_back(Entry{std::move(keys), std::move(plans), kernel, dynamic_shared});
        return true;
    }

    std::size_t size() const noexcept { return entries_.size(); }

private:
    // A kernel has few specialisations: beyond these, launches take the slow path.
    static constexpr std::size_t max_entries = 16;

    const Entry* find(const std::vector<ArgumentKey>& keys, const Device& device) const {
        for (const Entry& entry : entries_)
            if (entry.keys == keys && entry.kernel.device() == device) return &entry;
        return nullptr;
    }

    // An array as its address, shape and strides in elements; false for an array the slow path
    // must see (on another device, strides that are not whole elements).
    static bool pack_array(const Array& array, const Device& device, std::vector<std::uint64_t>& slots) {
        if (!(array.device() == device)) return false;
        const std::int64_t item = array.itemsize();
        for (std::int64_t stride : array.strides())
            if (stride % item != 0) return false;
        slots.push_back(array.address());
        for (std::int64_t extent : array.shape()) slots.push_back(static_cast<std::uint64_t>(extent));
        for (std::int64_t stride : array.strides()) slots.push_back(static_cast<std::uint64_t>(stride / item));
        return true;
    }

    std::deque<Entry> entries_;  // a deque: an entry stays put while a launch without the GIL uses it
};

}  // namespace

void bind_jit_launch(nb::module_& m) {
    nb::class_<JitLaunchCache>(m, "JitLaunchCache",
                               "The launch fast path of one gpukit.jit kernel: its specialisations by argument "
                               "keys (gpukit/_jit/dispatcher.py records them after the first launch of each).")
        .def(nb::init<>())
        .def("launch", &JitLaunchCache::launch, nb::arg("grid").none(), nb::arg("block").none(), nb::arg("args").none(),
             nb::arg("shared_mem").none(), nb::arg("stream").none(),
             nb::sig("def launch(self, grid: object, block: object, args: tuple, shared_mem: int, "
                     "stream: Stream | None) -> bool"),
             "Launches `args` if a recorded specialisation takes them, as RawKernel.__call__ would; False, having "
             "done nothing, if none does or an argument needs the slow path.")
        .def("add", &JitLaunchCache::add, nb::arg("args"), nb::arg("kernel"), nb::arg("scalar_dtypes"),
             nb::arg("dynamic_shared"),
             nb::sig("def add(self, args: tuple, kernel: Kernel, scalar_dtypes: list[str | None], "
                     "dynamic_shared: bool) -> bool"),
             "Records that arguments like `args` launch `kernel`, scalars passed as `scalar_dtypes` (None for an "
             "array), with the dynamic shared bytes appended where `dynamic_shared`. False where the fast path "
             "cannot take them.")
        .def("__len__", &JitLaunchCache::size);
    m.def(
        "jit_offsets_fit_int32",
        [](nb::handle array) { return offsets_fit_int32(to_instance<Array>(array, "array", "gpukit.ndarray")); },
        nb::arg("array"), nb::sig("def jit_offsets_fit_int32(array: ndarray) -> bool"),
        "Whether every element offset of `array` is below 2^31: a jit kernel then indexes it in 32 bits.");
}

}  // namespace gpukit::python
