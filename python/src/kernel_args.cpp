// python/src/kernel_args.cpp: converting Python kernel arguments (see kernel_args.hpp).
#include "kernel_args.hpp"

#include <nanobind/stl/string.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>

#include "arguments.hpp"
#include "dlpack_abi.hpp"
#include "errors.hpp"
#include "gpukit/array.hpp"
#include "gpukit/error.hpp"
#include "host_buffer.hpp"
#include "numpy_bridge.hpp"

namespace nb = nanobind;

namespace gpukit::python {
namespace {

// The types arguments are recognised by, looked up once; they live as long as the process.
struct ArgumentTypes {
    PyTypeObject* array = reinterpret_cast<PyTypeObject*>(nb::type<Array>().ptr());
    PyTypeObject* device_pointer = reinterpret_cast<PyTypeObject*>(nb::type<DevicePtr>().ptr());
    PyObject* numpy_ndarray = numpy_module().attr("ndarray").ptr();
    PyObject* numpy_generic = numpy_module().attr("generic").ptr();
};

const ArgumentTypes& argument_types() {
    static const ArgumentTypes types;
    return types;
}

bool is_integer_kind(ParamKind kind) {
    return kind == ParamKind::signed_integer || kind == ParamKind::unsigned_integer || kind == ParamKind::boolean;
}

std::string python_type_name(nb::handle value) { return Py_TYPE(value.ptr())->tp_name; }

std::string text_of(nb::handle value) {
    nb::object text = nb::steal(PyObject_Str(value.ptr()));
    if (!text.is_valid()) nb::raise_python_error();
    return nb::cast<std::string>(text);
}

std::string short_repr(nb::handle value) {
    std::string text = nb::cast<std::string>(nb::repr(value));
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return text;
}

// One argument's conversion: what it is, where it goes, what to say when it cannot go there.
class ArgumentPacker {
public:
    ArgumentPacker(const Kernel& kernel, const StreamRef& stream, std::size_t count, std::vector<std::byte>& bytes,
                   std::vector<std::size_t>& sizes)
        : kernel_(kernel), stream_(stream), count_(count), bytes_(bytes), sizes_(sizes) {}

    // `param` is null when the kernel's parameters are unknown or the count does not match:
    // the value then travels at its natural size and the core's check has the last word.
    void pack(std::size_t index, nb::handle value, const KernelParam* param) {
        index_ = index;
        param_ = param;
        kind_ = param ? kernel_.param_kind(index) : ParamKind::unknown;
        const ArgumentTypes& types = argument_types();
        if (PyObject_TypeCheck(value.ptr(), types.array) && nb::inst_ready(value))
            return pack_gpukit_array(*nb::inst_ptr<Array>(value));
        if (PyObject_TypeCheck(value.ptr(), types.device_pointer) && nb::inst_ready(value))
            return pack_device_pointer(*nb::inst_ptr<DevicePtr>(value));
        if (PyBool_Check(value.ptr()) || PyLong_Check(value.ptr())) return pack_int(value);
        if (PyFloat_Check(value.ptr())) return pack_float(PyFloat_AsDouble(value.ptr()), value);
        if (PyComplex_Check(value.ptr())) return pack_complex(value);
        if (PyObject_IsInstance(value.ptr(), types.numpy_generic) == 1) return pack_numpy_scalar(value);
        if (PyObject_IsInstance(value.ptr(), types.numpy_ndarray) == 1) {
            if (nb::cast<int>(value.attr("ndim")) == 0) return pack_numpy_scalar(value);
            refuse(
                concat_message("is a NumPy array in host memory, which a kernel cannot read; copy it to the "
                               "device with gpukit.asarray(x) and pass that (bring results back with .get())"));
        }
        if (PyBytes_Check(value.ptr()) || PyByteArray_Check(value.ptr()) || PyMemoryView_Check(value.ptr())) {
            refuse_for_pointer(value, "bytes are a struct's bytes, not a device address");
            return pack_raw_bytes(value);
        }
        if (value.is_none()) {
            if (kind_ == ParamKind::unknown || kind_ == ParamKind::pointer || kind_ == ParamKind::other)
                refuse(concat_message("is None, which is not a kernel argument: pass a gpukit array",
                                      param_ ? " for " + parameter() : std::string(),
                                      ", or gpukit.nullptr for a null pointer"));
            refuse(concat_message("is None, which is not a kernel argument: ", parameter(), " takes a number"));
        }
        if (nb::hasattr(value, "__cuda_array_interface__")) return pack_cuda_array(value);
        refuse(concat_message("is a ", python_type_name(value),
                              ", which cannot be a kernel argument: pass a gpukit array, a Python or NumPy number, "
                              "or bytes / a NumPy structured scalar for a struct"));
    }

    bool needs_device_sync() const noexcept { return needs_device_sync_; }

private:
    template <class... Parts>
    std::string concat_message(const Parts&... parts) const {
        std::ostringstream out;
        out << "Cannot launch " << kernel_.name() << ": argument " << index_ << " ";
        (out << ... << parts);
        return out.str();
    }
    std::string parameter() const { return param_ ? param_->describe(index_) : "its parameter"; }

    [[noreturn]] void refuse(const std::string& message) const { throw nb::type_error(message.c_str()); }

    void append(const void* data, std::size_t size) {
        const auto* first = static_cast<const std::byte*>(data);
        bytes_.insert(bytes_.end(), first, first + size);
        sizes_.push_back(size);
    }

    void pack_address(std::uint64_t address) { append(&address, sizeof address); }

    void refuse_unless_pointer(const std::string& what) const {
        if (kind_ == ParamKind::unknown || kind_ == ParamKind::pointer || kind_ == ParamKind::other) return;
        refuse(concat_message("is ", what, " (a device address) but ", parameter(), " is not a pointer"));
    }

    // A number or bytes for a pointer parameter: an address gpukit cannot vouch for, refused unless
    // the user says it is one (gpukit.DevicePointer).
    void refuse_for_pointer(nb::handle value, std::string_view why) const {
        if (kind_ != ParamKind::pointer) return;
        refuse(concat_message("is ", describe_value(value), " but ", parameter(), " is a pointer (", why,
                              "): pass a gpukit array, or gpukit.DevicePointer(address) for a raw device address ",
                              "(gpukit.nullptr for a null pointer)"));
    }

    // The core's verdict on an array for this parameter (element type, layout), as a TypeError:
    // like numpy.ctypeslib.ndpointer, the argument is of the wrong kind.
    void check_array(DType dtype, std::span<const std::int64_t> shape, std::span<const std::int64_t> strides) const {
        try {
            kernel_.check_array_argument(index_, count_, dtype, shape, strides);
        } catch (const KernelArgumentError& refused) {
            refuse(python_spelling(refused.what()));
        }
    }

    void pack_gpukit_array(const Array& array) {
        refuse_unless_pointer("a gpukit array");
        if (!(array.device() == kernel_.device()))
            throw InvalidArgumentError(concat_message("is an array on ", array.device().describe(),
                                                      " but the kernel runs on ", kernel_.device().describe(),
                                                      "; copy it there first"));
        check_array(array.dtype(), array.shape(), array.strides());
        array.memory()->mark_used_by_launch(stream_);  // it outlives the launch (gpukit/array_memory.hpp)
        pack_address(array.address());
    }

    void pack_device_pointer(const DevicePtr& pointer) {
        refuse_unless_pointer("a gpukit.DevicePointer");
        pack_address(pointer.address);
    }

    void pack_cuda_array(nb::handle value) {
        const BackendInfo& runs_on = kernel_.device().backend_info();
        if (runs_on.capabilities.dlpack_device_type != dlpack::kDLCUDA)
            refuse(concat_message("is a ", python_type_name(value), " in CUDA device memory, which the ", runs_on.name,
                                  " backend cannot read; run on a CUDA device, or copy it to the host and pass "
                                  "gpukit.asarray(host_copy)"));
        refuse_unless_pointer("a CUDA array");
        nb::dict interface = nb::cast<nb::dict>(value.attr("__cuda_array_interface__"));
        const DType dtype = to_dtype(interface["typestr"]);
        const Shape shape = to_shape(interface["shape"]);
        const bool strided = interface.contains("strides") && !interface["strides"].is_none();
        const Strides strides =
            strided ? to_shape(interface["strides"]) : c_strides(shape, static_cast<std::int64_t>(itemsize(dtype)));
        check_array(dtype, shape, strides);
        // CAI v3: the producer's work on `stream` must finish before we read; without a way to
        // make our stream wait on a foreign one, wait for the device (the context is shared).
        if (interface.contains("stream") && !interface["stream"].is_none()) needs_device_sync_ = true;
        pack_address(nb::cast<std::uint64_t>(nb::cast<nb::tuple>(interface["data"])[0]));
    }

    // An integer within the parameter's range, as many bytes as the parameter takes.
    void pack_int(nb::handle value) {
        if (kind_ == ParamKind::floating) return pack_float(PyLong_AsDouble(value.ptr()), value);
        refuse_for_pointer(value, "an int is not known to be a device address");
        std::size_t size = param_ ? param_->size : 0;
        if (!param_) {  // natural size: int32 where it fits, as C would pass a literal
            int overflow = 0;
            const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
            const bool fits_int32 = overflow == 0 && v >= std::numeric_limits<std::int32_t>::min() &&
                                    v <= std::numeric_limits<std::int32_t>::max();
            size = fits_int32 ? 4 : 8;
        }
        if (size != 1 && size != 2 && size != 4 && size != 8)
            refuse(concat_message("is an integer but ", parameter(),
                                  " is not a number; pass bytes or a NumPy structured scalar of ", size, " bytes"));

        const bool is_signed_param = kind_ == ParamKind::signed_integer;
        const bool is_unsigned_param = kind_ == ParamKind::unsigned_integer || kind_ == ParamKind::boolean;
        const unsigned bits = static_cast<unsigned>(size * 8);
        // The accepted range: a signed or unsigned integer of `bits`, or (type unknown) either.
        const long double low = is_unsigned_param ? 0.0L : -std::ldexp(1.0L, static_cast<int>(bits) - 1);
        const long double high = (is_signed_param ? std::ldexp(1.0L, static_cast<int>(bits) - 1)
                                                  : std::ldexp(1.0L, static_cast<int>(bits))) -
                                 1;
        const long double boolean_high = 1.0L;

        int overflow = 0;
        const long long as_signed = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
        std::uint64_t raw = 0;
        long double numeric = 0;
        if (overflow == 0) {
            raw = static_cast<std::uint64_t>(as_signed);
            numeric = static_cast<long double>(as_signed);
        } else if (overflow > 0) {
            const unsigned long long as_unsigned = PyLong_AsUnsignedLongLong(value.ptr());
            if (as_unsigned == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
                PyErr_Clear();
                numeric = std::numeric_limits<long double>::infinity();
            } else {
                raw = as_unsigned;
                numeric = static_cast<long double>(as_unsigned);
            }
        } else {
            numeric = -std::numeric_limits<long double>::infinity();
        }
        const long double top = kind_ == ParamKind::boolean ? boolean_high : high;
        if (numeric < low || numeric > top) {
            const char* range_kind = is_signed_param ? "signed " : is_unsigned_param ? "unsigned " : "";
            std::ostringstream range;
            range << static_cast<long long>(low) << ".." << static_cast<unsigned long long>(top);
            throw KernelArgumentError(
                concat_message("(", short_repr(value), ") is out of range for ", param_ ? parameter() : "any C integer",
                               ": a ", size, "-byte ", range_kind, "integer holds ", range.str()),
                static_cast<int>(index_));
        }
        append(&raw, size);  // little-endian: the low bytes come first
    }

    void pack_float(double value, nb::handle original) {
        if (is_integer_kind(kind_))
            refuse(concat_message("is a ", python_type_name(original), " (", short_repr(original), ") but ",
                                  parameter(), " is an integer; pass int(x) or a NumPy integer scalar"));
        if (kind_ == ParamKind::pointer)
            refuse(concat_message("is a ", python_type_name(original), " but ", parameter(), " is a pointer"));
        const std::size_t size = param_ ? param_->size : 8;
        if (size == 4) {
            const auto single = static_cast<float>(value);
            if (std::isfinite(value) && !std::isfinite(single))
                throw KernelArgumentError(concat_message("(", short_repr(original), ") is out of range for ",
                                                         parameter(), ": float32 holds at most 3.4028235e+38"),
                                          static_cast<int>(index_));
            return append(&single, sizeof single);
        }
        if (size == 2 && kind_ != ParamKind::other)
            refuse(concat_message("is a Python float but ", parameter(), " is a 2-byte float; pass numpy.float16(x)"));
        append(&value, sizeof value);  // any other size: the core names the mismatch
    }

    void pack_complex(nb::handle value) {
        if (kind_ != ParamKind::unknown && kind_ != ParamKind::other)
            refuse(concat_message("is a complex number but ", parameter(), " is not a complex type"));
        const Py_complex c = PyComplex_AsCComplex(value.ptr());
        if (param_ && param_->size == 8) {
            const std::complex<float> single(static_cast<float>(c.real), static_cast<float>(c.imag));
            return append(&single, sizeof single);
        }
        const std::complex<double> wide(c.real, c.imag);
        append(&wide, sizeof wide);
    }

    // NumPy scalars keep their type: their bytes travel as they are, after a check that an
    // integer is not going to a float parameter or the other way round.
    void pack_numpy_scalar(nb::handle value) {
        const char kind = nb::cast<std::string>(value.attr("dtype").attr("kind")).at(0);
        const bool is_float = kind == 'f' || kind == 'c';
        const bool is_integer = kind == 'i' || kind == 'u' || kind == 'b';
        refuse_for_pointer(value, "a number is not known to be a device address");
        if ((is_float && is_integer_kind(kind_)) || (is_integer && kind_ == ParamKind::floating))
            refuse(concat_message("is a NumPy ", text_of(value.attr("dtype")), " scalar but ", parameter(), " is ",
                                  kind_ == ParamKind::floating ? "a floating-point type" : "an integer"));
        pack_raw_bytes(value);
    }

    void pack_raw_bytes(nb::handle value) {
        HostBuffer buffer(value, false);
        append(buffer.bytes().data(), buffer.bytes().size());
    }

    const Kernel& kernel_;
    const StreamRef& stream_;
    std::size_t count_;
    std::vector<std::byte>& bytes_;
    std::vector<std::size_t>& sizes_;
    std::size_t index_ = 0;
    const KernelParam* param_ = nullptr;
    ParamKind kind_ = ParamKind::unknown;
    bool needs_device_sync_ = false;
};

}  // namespace

PackedArguments pack_arguments(const Kernel& kernel, nb::handle arguments, const StreamRef& stream) {
    if (!PyTuple_Check(arguments.ptr()) && !PyList_Check(arguments.ptr()))
        throw nb::type_error(("Cannot launch " + kernel.name() + ": args must be a tuple of kernel arguments, not " +
                              describe_value(arguments) + " (write (x,) for one argument)")
                                 .c_str());
    nb::sequence values = nb::borrow<nb::sequence>(arguments);
    const std::size_t count = nb::len(values);
    const auto& params = kernel.params();
    const bool typed = params.size() == count;

    PackedArguments packed;
    std::vector<std::size_t> sizes;
    ArgumentPacker packer(kernel, stream, count, packed.bytes_, sizes);
    for (std::size_t i = 0; i < count; ++i) packer.pack(i, values[i], typed ? &params[i] : nullptr);
    packed.needs_device_sync_ = packer.needs_device_sync();

    std::size_t offset = 0;  // the byte storage is complete: now its addresses are stable
    for (std::size_t size : sizes) {
        packed.args_.add_bytes(packed.bytes_.data() + offset, size);
        offset += size;
    }
    return packed;
}

}  // namespace gpukit::python
