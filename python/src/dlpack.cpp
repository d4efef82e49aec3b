// python/src/dlpack.cpp: DLPack capsules out of gpukit arrays, and other libraries' memory in.
//
// Export: a capsule whose manager context holds a reference to the exporting array, so the memory
// lives until the consumer calls the deleter. Import: ImportedMemory takes over a capsule's
// tensor (or keeps a __cuda_array_interface__ object alive) and is the owner of the gpukit arrays
// viewing it.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "dlpack_abi.hpp"
#include "memory_owner.hpp"

namespace nb = nanobind;

namespace gpukit::python {
namespace {

constexpr const char* legacy_name = "dltensor";
constexpr const char* legacy_used_name = "used_dltensor";
constexpr const char* versioned_name = "dltensor_versioned";
constexpr const char* versioned_used_name = "used_dltensor_versioned";

// ---- export

template <class Managed>
struct ExportContext {
    Managed managed{};
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> strides;
    PyObject* owner = nullptr;  // the exporting array, one strong reference
};

// Consumers may call the deleter from any thread, with or without the GIL.
template <class Managed>
void delete_export(Managed* managed) {
    auto* context = static_cast<ExportContext<Managed>*>(managed->manager_ctx);
    if (Py_IsInitialized()) {
        const PyGILState_STATE state = PyGILState_Ensure();
        Py_XDECREF(context->owner);
        PyGILState_Release(state);
    }
    delete context;
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
nb::object make_capsule(nb::handle owner, std::uint64_t address, const std::vector<std::int64_t>& shape,
                        const std::vector<std::int64_t>& strides, dlpack::DataType dtype, dlpack::Device device) {
    auto* context = new ExportContext<Managed>;
    context->shape = shape;
    context->strides = strides;
    auto& tensor = context->managed.dl_tensor;
    tensor.data = reinterpret_cast<void*>(address);
    tensor.device = device;
    tensor.ndim = static_cast<std::int32_t>(shape.size());
    tensor.dtype = dtype;
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
    context->owner = owner.inc_ref().ptr();
    return nb::steal(capsule);
}

// ---- import

// Another library's memory: a consumed DLPack tensor, or a __cuda_array_interface__ object.
class ImportedMemory : public MemoryOwner {
public:
    ImportedMemory(Device device, nb::object keeper) : MemoryOwner(device), keeper_(std::move(keeper)) {}
    ~ImportedMemory() override {
        wait_for_launches();
        if (release_) release_();
    }

    static ImportedMemory* from_capsule(nb::handle capsule, Device device) {
        auto* imported = new ImportedMemory(device, nb::object());
        if (PyCapsule_IsValid(capsule.ptr(), versioned_name)) {
            auto* managed = static_cast<dlpack::ManagedTensorVersioned*>(PyCapsule_GetPointer(capsule.ptr(), versioned_name));
            if (managed->version.major != dlpack::exported_version.major) {
                delete imported;
                throw nb::buffer_error(("The DLPack tensor has version " + std::to_string(managed->version.major) + "." +
                                        std::to_string(managed->version.minor) + "; gpukit reads version 1.x")
                                           .c_str());
            }
            imported->adopt(managed->dl_tensor, (managed->flags & dlpack::flag_read_only) != 0,
                            [managed] { if (managed->deleter) managed->deleter(managed); });
            PyCapsule_SetName(capsule.ptr(), versioned_used_name);
        } else if (PyCapsule_IsValid(capsule.ptr(), legacy_name)) {
            auto* managed = static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), legacy_name));
            imported->adopt(managed->dl_tensor, false, [managed] { if (managed->deleter) managed->deleter(managed); });
            PyCapsule_SetName(capsule.ptr(), legacy_used_name);
        } else {
            delete imported;
            throw nb::type_error("Not an unconsumed DLPack capsule (a capsule named 'dltensor' or 'dltensor_versioned')");
        }
        return imported;
    }

    std::uint64_t address() const noexcept { return address_; }
    const std::vector<std::int64_t>& shape() const noexcept { return shape_; }
    const std::optional<std::vector<std::int64_t>>& strides() const noexcept { return strides_; }
    std::tuple<int, int, int> dtype() const noexcept { return {dtype_.code, dtype_.bits, dtype_.lanes}; }
    std::pair<int, int> dl_device() const noexcept { return {dl_device_.device_type, dl_device_.device_id}; }
    bool read_only() const noexcept { return read_only_; }

private:
    void adopt(const dlpack::Tensor& tensor, bool read_only, std::function<void()> release) {
        release_ = std::move(release);
        address_ = reinterpret_cast<std::uint64_t>(tensor.data) + tensor.byte_offset;
        shape_.assign(tensor.shape, tensor.shape + tensor.ndim);
        if (tensor.strides) strides_.emplace(tensor.strides, tensor.strides + tensor.ndim);
        dtype_ = tensor.dtype;
        dl_device_ = tensor.device;
        read_only_ = read_only;
    }

    nb::object keeper_;
    std::function<void()> release_;
    std::uint64_t address_ = 0;
    std::vector<std::int64_t> shape_;
    std::optional<std::vector<std::int64_t>> strides_;
    dlpack::DataType dtype_{};
    dlpack::Device dl_device_{};
    bool read_only_ = false;
};

}  // namespace

void bind_dlpack(nb::module_& m) {
    m.def(
        "dlpack_capsule",
        [](nb::handle owner, std::uint64_t address, const std::vector<std::int64_t>& shape,
           const std::vector<std::int64_t>& strides, int code, int bits, int device_type, int device_id, bool versioned) {
            const dlpack::DataType dtype{static_cast<std::uint8_t>(code), static_cast<std::uint8_t>(bits), 1};
            const dlpack::Device device{device_type, device_id};
            return versioned ? make_capsule<dlpack::ManagedTensorVersioned>(owner, address, shape, strides, dtype, device)
                             : make_capsule<dlpack::ManagedTensor>(owner, address, shape, strides, dtype, device);
        },
        nb::arg("owner"), nb::arg("address"), nb::arg("shape"), nb::arg("strides"), nb::arg("code"), nb::arg("bits"),
        nb::arg("device_type"), nb::arg("device_id"), nb::arg("versioned"),
        "A DLPack capsule over memory `owner` keeps alive (strides in elements).");

    nb::class_<ImportedMemory, MemoryOwner>(m, "ImportedMemory", nb::is_weak_referenceable(), "Another library's memory that gpukit arrays view.")
        .def(nb::init<Device, nb::object>(), nb::arg("device"), nb::arg("keeper"),
             "Keeps `keeper` (an object exposing __cuda_array_interface__) alive.")
        .def_static("from_dlpack", &ImportedMemory::from_capsule, nb::arg("capsule"), nb::arg("device"),
                    nb::rv_policy::take_ownership, "Consumes a DLPack capsule; the tensor is released with this object.")
        .def_prop_ro("address", &ImportedMemory::address, "Address of the first element (data + byte_offset).")
        .def_prop_ro("shape", &ImportedMemory::shape)
        .def_prop_ro("strides", &ImportedMemory::strides, "In elements; None for compact row-major.")
        .def_prop_ro("dtype", &ImportedMemory::dtype, "(DLPack type code, bits, lanes).")
        .def_prop_ro("dl_device", &ImportedMemory::dl_device, "(DLPack device type, device id).")
        .def_prop_ro("read_only", &ImportedMemory::read_only);
}

}  // namespace gpukit::python
