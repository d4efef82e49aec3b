// gpukit/kernel.hpp: kernels and checked launches.
//
//   kernel({.grid = gpukit::grid_for(n, 256), .block = 256}, a, b, c, n);
//
// Before anything reaches the driver, a launch is checked: the argument count and each
// argument's byte size against the kernel's parameters, and the grid, block and shared memory
// against the device's and the kernel's limits. Each failure names what was asked, the limit,
// and the parameter.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gpukit/check.hpp"
#include "gpukit/dtype.hpp"
#include "gpukit/geometry.hpp"
#include "gpukit/memory.hpp"
#include "gpukit/stream.hpp"

namespace gpukit {

class Array;

namespace detail {
struct ModuleState;
struct KernelState;
}  // namespace detail

struct LaunchConfig {
    Dim3 grid;
    Dim3 block;
    std::size_t shared_bytes = 0;  // dynamic shared memory (extern __shared__)
    StreamRef stream;              // the default stream unless given
    // Simulator only: run this launch under check mode's tools (gpukit/check.hpp), on top of those
    // the module was compiled with. The first such launch compiles a checked twin of the module;
    // the module's __device__ and __constant__ variables are carried over to it and back.
    CheckTools check;
};

// A raw device address, for memory gpukit did not allocate, or a view whose layout the kernel is
// told separately (strides passed as arguments). Passed for any pointer parameter unchecked.
struct DevicePtr {
    std::uint64_t address = 0;
};

// What a parameter's declared type says about the values it takes (read from KernelParam::type).
enum class ParamKind : std::uint8_t {
    unknown,  // no declaration was read (a module loaded from an image): only sizes are checked
    pointer,  // `T*`, `T[]`: device memory
    signed_integer,
    unsigned_integer,
    boolean,
    floating,
    other,  // a struct, a typedef, a template parameter, a reference: only its size is checked
};

// One kernel parameter: where it sits in the parameter buffer and how big it is (from the
// driver), and its declared type and name where the source was available to read them.
struct KernelParam {
    std::size_t offset = 0;
    std::size_t size = 0;
    std::string type;  // e.g. "const float *"; empty if unknown
    std::string name;  // e.g. "A"; empty if unknown

    // "parameter 3 ('const int size', 4 bytes)"-style description used in errors.
    std::string describe(std::size_t index) const;

    ParamKind kind() const;
    // The element type a pointer parameter points to, where it is a type arrays hold: `const float *`
    // points to float32. nullopt for parameters that are not pointers, for `void *`, `char *` and
    // `unsigned char *` (byte views), and where the element type is a typedef, a template parameter,
    // a struct or another pointer (`T *`, `float2 *`, `float **`): gpukit cannot tell what they hold.
    std::optional<DType> pointee() const;
    // Whether a (C-contiguous) array of `dtype` may be passed for this parameter: a pointer to that
    // type or, as C's aliasing rules allow, to its signed or unsigned twin (`int *` takes uint32
    // arrays; `__nv_bfloat16 *` takes the uint16 arrays that hold bfloat16 bits where NumPy has no
    // bfloat16); any array for a byte view or an element type gpukit cannot tell; none for a
    // parameter that is not a pointer (ParamKind::other and unknown take any).
    bool takes_array_of(DType dtype) const;
};

struct KernelAttributes {
    int num_registers = 0;
    std::size_t static_shared_bytes = 0;
    std::size_t local_bytes_per_thread = 0;
    std::size_t constant_bytes = 0;
    int max_threads_per_block = 0;             // for this kernel, given its register use
    std::size_t max_dynamic_shared_bytes = 0;  // raised by set_max_dynamic_shared_bytes
    int ptx_version = 0;
    int binary_version = 0;
};

struct BlockSizeSuggestion {
    std::uint32_t block_size = 0;     // threads per block for the best occupancy
    std::uint32_t min_grid_size = 0;  // blocks needed to fill the device at that size
};

// Type-erased, size-aware kernel arguments.
class KernelArgs {
public:
    // `value` must stay alive until the launch call returns.
    void add_bytes(const void* value, std::size_t size) {
        pointers_.push_back(value);
        sizes_.push_back(size);
    }
    std::size_t size() const noexcept { return pointers_.size(); }
    const std::vector<const void*>& pointers() const noexcept { return pointers_; }
    const std::vector<std::size_t>& sizes() const noexcept { return sizes_; }

private:
    std::vector<const void*> pointers_;
    std::vector<std::size_t> sizes_;
};

namespace detail {
// An array argument: the address of its first element. Marks its memory as used by a launch on
// `stream`, so that the memory outlives the launch (gpukit/array_memory.hpp). Without a stream
// the memory counts as used on one it cannot tell: its owner then waits for the whole device
// before the memory goes, where one on its own pool stream would not wait at all.
std::uint64_t launch_address(const Array& array) noexcept;
// InvalidArgumentError where the array is on another device than the stream.
std::uint64_t launch_address(const Array& array, const StreamRef& stream);

// How one C++ argument travels to the kernel: device memory (buffers, arrays) as its address,
// everything trivially copyable by value. Raw pointers are refused: in host code they are
// usually host memory, which a kernel cannot read.
struct ArgSlot {
    const void* pointer;
    std::size_t size;
    std::uint64_t address;
    const Array* array = nullptr;  // checked against its parameter before the launch
};

template <class T>
ArgSlot make_arg_slot(const T& value, const StreamRef& stream) {
    using U = std::remove_cvref_t<T>;
    if constexpr (std::is_same_v<U, BufferView> || std::is_same_v<U, DeviceBuffer> ||
                  std::is_same_v<U, ManagedBuffer>) {
        return {nullptr, sizeof(std::uint64_t), value.address()};
    } else if constexpr (std::is_same_v<U, Array>) {
        return {nullptr, sizeof(std::uint64_t), launch_address(value, stream), &value};
    } else if constexpr (std::is_same_v<U, DevicePtr>) {
        return {nullptr, sizeof(std::uint64_t), value.address};
    } else {
        static_assert(!std::is_pointer_v<U>,
                      "gpukit: a raw pointer is not a kernel argument; pass an Array, a DeviceBuffer, a "
                      "ManagedBuffer or a BufferView, or wrap a device address in gpukit::DevicePtr");
        static_assert(std::is_trivially_copyable_v<U>, "gpukit: kernel arguments must be trivially copyable");
        return {&value, sizeof(U), 0};
    }
}
}  // namespace detail

class Kernel {
public:
    const std::string& name() const;          // as the user asked for it
    const std::string& lowered_name() const;  // the symbol in the module
    Device device() const;
    const std::vector<KernelParam>& params() const;
    // params()[i].kind(), worked out once when the kernel was loaded (a launch asks it per argument).
    ParamKind param_kind(std::size_t index) const;
    KernelAttributes attributes() const;

    // Opt in to more dynamic shared memory than the default (48 KiB, static included), up to
    // the device's opt-in limit. Throws LaunchConfigError beyond it.
    void set_max_dynamic_shared_bytes(std::size_t bytes) const;

    // Occupancy-based block size for this kernel.
    BlockSizeSuggestion suggest_block_size(std::size_t dynamic_shared_bytes = 0,
                                           std::uint32_t block_size_limit = 0) const;
    int max_active_blocks_per_multiprocessor(std::uint32_t block_threads, std::size_t dynamic_shared_bytes = 0) const;

    // Throws KernelArgumentError when an array cannot be argument `index` of `count`: the parameter
    // is not a pointer, the pointer does not point to the array's element type
    // (KernelParam::takes_array_of), or the array is a view that is not C-contiguous, which a kernel
    // would read as if it were. Where `count` is not the number of parameters, only the layout is
    // checked (the launch then refuses the count). Launches with Array arguments check each one;
    // KernelArgs carry bytes and are not checked.
    void check_array_argument(std::size_t index, std::size_t count, const Array& array) const;
    void check_array_argument(std::size_t index, std::size_t count, DType dtype, std::span<const std::int64_t> shape,
                              std::span<const std::int64_t> strides) const;

    void launch(const LaunchConfig& config, const KernelArgs& args) const;

    // The backend's handle of the kernel (a CUfunction for CUDA), for interop with other libraries.
    void* native_handle() const;

    template <class... Args>
    void operator()(const LaunchConfig& config, const Args&... args) const {
        std::array<detail::ArgSlot, sizeof...(Args)> slots{detail::make_arg_slot(args, config.stream)...};
        std::array<const void*, sizeof...(Args) + 1> pointers{};
        std::array<std::size_t, sizeof...(Args) + 1> sizes{};
        for (std::size_t i = 0; i < sizeof...(Args); ++i) {
            if (slots[i].array) check_array_argument(i, sizeof...(Args), *slots[i].array);
            pointers[i] = slots[i].pointer ? slots[i].pointer : &slots[i].address;
            sizes[i] = slots[i].size;
        }
        launch_raw(config, pointers.data(), sizes.data(), sizeof...(Args));
    }

    Kernel(std::shared_ptr<detail::ModuleState> module, detail::KernelState* state)
        : module_(std::move(module)), state_(state) {}

private:
    void launch_checked(const LaunchConfig& config, const void* const* args, const std::size_t* sizes,
                        std::size_t count) const;
    void launch_raw(const LaunchConfig& config, const void* const* args, const std::size_t* sizes,
                    std::size_t count) const;

    std::shared_ptr<detail::ModuleState> module_;  // keeps the code loaded
    detail::KernelState* state_;
};

template <class... Args>
void launch(const Kernel& kernel, const LaunchConfig& config, const Args&... args) {
    kernel(config, args...);
}

}  // namespace gpukit
