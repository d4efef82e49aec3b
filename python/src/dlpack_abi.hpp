// python/src/dlpack_abi.hpp: the DLPack exchange structs (DLPack 1.0), as the standard lays them out.
//
// Declared here rather than taken from a header so the extension builds with nothing but nanobind;
// the layouts are the ABI every DLPack producer and consumer shares.
#pragma once

#include <cstdint>

namespace gpukit::python::dlpack {

enum DeviceType : std::int32_t { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3 };  // DLPack's own names
enum TypeCode : std::uint8_t { int_ = 0, uint = 1, float_ = 2, bfloat = 4, complex = 5, boolean = 6 };

struct Device {
    std::int32_t device_type;
    std::int32_t device_id;
};

struct DataType {
    std::uint8_t code;
    std::uint8_t bits;
    std::uint16_t lanes;
};

struct Tensor {
    void* data;
    Device device;
    std::int32_t ndim;
    DataType dtype;
    std::int64_t* shape;
    std::int64_t* strides;  // in elements; null means compact row-major
    std::uint64_t byte_offset;
};

// The legacy (pre-1.0) capsule's content, named "dltensor".
struct ManagedTensor {
    Tensor dl_tensor;
    void* manager_ctx;
    void (*deleter)(ManagedTensor* self);
};

struct Version {
    std::uint32_t major;
    std::uint32_t minor;
};

inline constexpr std::uint64_t flag_read_only = 1u << 0;

// The 1.x capsule's content, named "dltensor_versioned".
struct ManagedTensorVersioned {
    Version version;
    void* manager_ctx;
    void (*deleter)(ManagedTensorVersioned* self);
    std::uint64_t flags;
    Tensor dl_tensor;
};

inline constexpr Version exported_version{1, 0};

}  // namespace gpukit::python::dlpack
