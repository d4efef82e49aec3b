// python/src/dlpack.cpp: DLPack capsules out of gpukit arrays, and other libraries' memory in.
//
// Export: a capsule whose manager context holds a copy of the C++ array, so the memory lives until
// the consumer calls the deleter, from any thread, without needing the GIL. Import: ImportedMemory
// takes over a capsule's tensor (or keeps a __cuda_array_interface__ object alive) and is the
// owner of the array viewing it.
#include "dlpack.hpp"

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "dlpack_abi.hpp"
#include "gpukit/current_stream.hpp"
#include "numpy_bridge.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;

namespace gpukit::python {
namespace {

template <class... Parts>
std::string concat(const Parts&... parts) {
    std::ostringstream out;
    (out << ... << parts);
    return out.str();
}

constexpr const char* legacy_name = "dltensor";
constexpr const char* legacy_used_name = "used_dltensor";
constexpr const char* versioned_name = "dltensor_versioned";
constexpr const char* versioned_used_name = "used_dltensor_versioned";

// ---- export

template <class Managed>
struct ExportContext {
    explicit ExportContext(Array exported) : array(std::move(exported)) {}
    Managed managed{};
    Array array;  // keeps the memory alive
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> strides;  // in elements
};

// Consumers may call the deleter from any thread, with or without the GIL; letting go of the
// array needs neither (an imported owner takes the GIL itself).
template <class Managed>
void delete_export(Managed* managed) {
    delete static_cast<ExportContext<Managed>*>(managed->manager_ctx);
}

// Runs when the capsule dies: an unconsumed capsule still owns its tensor.
template <class Managed>
void capsule_destructor(PyObject* capsule) {
    const char* name = std::is_same_v<Managed, dlpack::ManagedTensor> ? legacy_name : versioned_name;
    if (!PyCapsule_IsValid(capsule, name)) return;  // renamed "used_...": the consumer owns it
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    if (auto* managed = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name))) managed->deleter(managed);
    PyErr_Restore(type, value, traceback);
}

template <class Managed>
nb::object make_capsule(const Array& array) {
    const std::int64_t itemsize = array.itemsize();
    for (std::int64_t stride : array.strides())
        if (stride % itemsize != 0)
            throw nb::buffer_error(concat("cannot export an array whose strides ", format_shape(array.strides()),
                                          " are not whole elements of ", itemsize,
                                          " bytes: DLPack counts "
                                          "strides in elements; export a .copy()")
                                       .c_str());
    auto* context = new ExportContext<Managed>(array);
    context->shape = array.shape();
    for (std::int64_t stride : array.strides()) context->strides.push_back(stride / itemsize);
    const auto [device_type, device_id] = dlpack_device(array.device());
    const DLPackDType dtype = to_dlpack(array.dtype());
    auto& tensor = context->managed.dl_tensor;
    tensor.data = reinterpret_cast<void*>(array.address());
    tensor.device = {device_type, device_id};
    tensor.ndim = static_cast<std::int32_t>(context->shape.size());
    tensor.dtype = {dtype.code, dtype.bits, dtype.lanes};
    tensor.shape = context->shape.empty() ? nullptr : context->shape.data();
    tensor.strides = context->strides.empty() ? nullptr : context->strides.data();
    tensor.byte_offset = 0;
    context->managed.manager_ctx = context;
    context->managed.deleter = &delete_export<Managed>;
    if constexpr (std::is_same_v<Managed, dlpack::ManagedTensorVersioned>) {
        context->managed.version = dlpack::exported_version;
        context->managed.flags = 0;
    }
    const char* name = std::is_same_v<Managed, dlpack::ManagedTensor> ? legacy_name : versioned_name;
    PyObject* capsule = PyCapsule_New(&context->managed, name, &capsule_destructor<Managed>);
    if (!capsule) {
        delete context;
        nb::raise_python_error();
    }
    return nb::steal(capsule);
}

// ---- import

// Another library's memory: a consumed DLPack tensor, or a __cuda_array_interface__ object.
class ImportedMemory final : public ArrayMemory {
public:
    ImportedMemory(Device device, nb::handle keeper) : ArrayMemory(device), keeper_(keeper.inc_ref().ptr()) {}
    ImportedMemory(Device device, std::function<void()> release) : ArrayMemory(device), release_(std::move(release)) {}
    // May run with or without the GIL: the DLPack deleter and the reference want it.
    ~ImportedMemory() override {
        wait_for_launches();
        if (!Py_IsInitialized()) return;  // the producer's memory went with the interpreter
        const PyGILState_STATE state = PyGILState_Ensure();
        if (release_) release_();
        Py_XDECREF(keeper_);
        PyGILState_Release(state);
    }

private:
    PyObject* keeper_ = nullptr;
    std::function<void()> release_;
};

std::string where(int device_type) {
    if (device_type == dlpack::kDLCPU) return "host (kDLCPU)";
    if (device_type == dlpack::kDLCUDA) return "CUDA (kDLCUDA)";
    return "DLPack device type " + std::to_string(device_type);
}

Array adopt(const dlpack::Tensor& tensor, std::shared_ptr<ImportedMemory> memory, bool read_only,
            const Device& device) {
    if (read_only)
        throw nb::buffer_error(
            "the DLPack tensor is read-only, and gpukit arrays are writable; pass a writable one or a copy");
    const DLPackDType type{tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes};
    const auto dtype = dtype_from_dlpack(type);
    if (!dtype || !numpy_holds(*dtype))
        throw nb::buffer_error(concat("gpukit arrays cannot hold DLPack type (code ", int(type.code), ", ",
                                      int(type.bits), " bits, ", type.lanes, " lanes)",
                                      dtype ? " without ml_dtypes, which gives NumPy its bfloat16" : "")
                                   .c_str());
    Shape shape(tensor.shape, tensor.shape + tensor.ndim);
    const auto itemsize = static_cast<std::int64_t>(gpukit::itemsize(*dtype));
    Strides strides = c_strides(shape, itemsize);
    if (tensor.strides)
        for (int i = 0; i < tensor.ndim; ++i) strides[i] = tensor.strides[i] * itemsize;
    const std::uint64_t address = reinterpret_cast<std::uint64_t>(tensor.data) + tensor.byte_offset;
    if (tensor.device.device_type == dlpack::kDLCPU) {
        // The bytes the view spans, from its lowest element to the end of its highest.
        std::int64_t low = 0, high = itemsize;
        for (std::size_t i = 0; i < shape.size(); ++i) {
            if (shape[i] == 0) low = high = 0;
            if (shape[i] <= 0) break;
            const std::int64_t reach = (static_cast<std::int64_t>(shape[i]) - 1) * strides[i];
            (reach < 0 ? low : high) += reach;
        }
        const auto first = static_cast<std::uint64_t>(static_cast<std::int64_t>(address) + low);
        if (high > low && !device.kernels_reach_host_memory(reinterpret_cast<const void*>(first),
                                                            static_cast<std::size_t>(high - low)))
            throw nb::buffer_error(
                "the simulator runs kernels in a device process of its own, which cannot reach this host memory: "
                "use gpukit.asarray (a copy), or run with GPUKIT_SIM_ISOLATION=0 to share host memory");
    }
    return Array(std::move(memory), address, std::move(shape), std::move(strides), *dtype);
}

// Consumes a DLPack capsule: the tensor is released with the last array viewing it.
Array from_dlpack(nb::handle capsule, const Device& device) {
    if (PyCapsule_IsValid(capsule.ptr(), versioned_name)) {
        auto* managed =
            static_cast<dlpack::ManagedTensorVersioned*>(PyCapsule_GetPointer(capsule.ptr(), versioned_name));
        if (managed->version.major != dlpack::exported_version.major)
            throw nb::buffer_error(concat("The DLPack tensor has version ", managed->version.major, ".",
                                          managed->version.minor, "; gpukit reads version 1.x")
                                       .c_str());
        auto memory = std::make_shared<ImportedMemory>(device, [managed] {
            if (managed->deleter) managed->deleter(managed);
        });
        PyCapsule_SetName(capsule.ptr(), versioned_used_name);
        return adopt(managed->dl_tensor, std::move(memory), (managed->flags & dlpack::flag_read_only) != 0, device);
    }
    if (PyCapsule_IsValid(capsule.ptr(), legacy_name)) {
        auto* managed = static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), legacy_name));
        auto memory = std::make_shared<ImportedMemory>(device, [managed] {
            if (managed->deleter) managed->deleter(managed);
        });
        PyCapsule_SetName(capsule.ptr(), legacy_used_name);
        return adopt(managed->dl_tensor, std::move(memory), false, device);
    }
    throw nb::type_error("Not an unconsumed DLPack capsule (a capsule named 'dltensor' or 'dltensor_versioned')");
}

// Shares the memory of an object with __cuda_array_interface__ (version 3), keeping it alive.
Array from_cuda_array_interface(nb::handle object, const Device& device) {
    nb::dict interface = nb::cast<nb::dict>(object.attr("__cuda_array_interface__"));
    if (interface.contains("mask") && !interface["mask"].is_none())
        throw nb::type_error("masked CUDA arrays are not supported");
    const DType dtype = to_dtype(interface["typestr"]);
    Shape shape = to_shape(interface["shape"]);
    const bool strided = interface.contains("strides") && !interface["strides"].is_none();
    Strides strides =
        strided ? to_shape(interface["strides"]) : c_strides(shape, static_cast<std::int64_t>(itemsize(dtype)));
    if (interface.contains("stream") && !interface["stream"].is_none()) {
        // The producer's work must be done before ours reads; its stream is foreign to us, and the
        // device's primary context is shared, so finishing the device's work covers it.
        raise_deferred_launch_error();
        GilRelease unlocked;
        device.synchronize();
    }
    const auto address = nb::cast<std::uint64_t>(nb::cast<nb::tuple>(interface["data"])[0]);
    return Array(std::make_shared<ImportedMemory>(device, object), address, std::move(shape), std::move(strides),
                 dtype);
}

// The gpukit device that can address memory on DLPack device (type, id) without a copy.
Device import_device(int device_type, int device_id) {
    const Device device = Device::current();
    const int ours = device.backend_info().capabilities.dlpack_device_type;
    if (device_type == ours && device_type == dlpack::kDLCUDA) return gpukit::device(device_id);
    if (device_type == ours && device_type == dlpack::kDLCPU) return device;
    throw nb::buffer_error(("gpukit on the " + device.backend_info().name + " backend cannot use " +
                            where(device_type) +
                            " memory without a copy; use gpukit.asarray, which copies host data to the device")
                               .c_str());
}

}  // namespace

std::pair<int, int> dlpack_device(const Device& device) {
    const int type = device.backend_info().capabilities.dlpack_device_type;
    return {type, type == dlpack::kDLCUDA ? device.ordinal() : 0};
}

nb::object dlpack_capsule(const Array& array, bool versioned) {
    return versioned ? make_capsule<dlpack::ManagedTensorVersioned>(array) : make_capsule<dlpack::ManagedTensor>(array);
}

std::uintptr_t exchange_stream(const Device& device) {
    const StreamRef stream = current_stream(device);
    return stream.is_default() ? 1 : reinterpret_cast<std::uintptr_t>(stream.native_handle());
}

void bind_dlpack(nb::module_& m) {
    m.def("from_dlpack_capsule", &from_dlpack, nb::arg("capsule"), nb::arg("device"),
          "An array over the tensor of an unconsumed DLPack capsule, which it consumes; the tensor is released with "
          "the last array viewing it. BufferError for a read-only tensor or a type arrays cannot hold.");
    m.def("from_cuda_array_interface", &from_cuda_array_interface, nb::arg("object"), nb::arg("device"),
          "An array over the memory of an object with __cuda_array_interface__, keeping the object alive.");
    m.def("dlpack_import_device", &import_device, nb::arg("device_type"), nb::arg("device_id"),
          "The device that can address memory on this DLPack device without a copy; BufferError if none.");
    m.def("exchange_stream", &exchange_stream, nb::arg("device"),
          "The current stream of `device` as the CUDA Array Interface and DLPack pass it: 1 for the legacy default "
          "stream, else the CUstream.");
}

}  // namespace gpukit::python
