// gpukit/device.hpp: devices and their properties, and the current device.
//
// A Device is a cheap handle (backend + ordinal). Every resource gpukit creates belongs to one.
// Which backend the process uses is chosen once (gpukit/backend.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "gpukit/backend.hpp"
#include "gpukit/geometry.hpp"

namespace gpukit {

namespace detail {
class Backend;
}

// The limits a launch is checked against. Filled from the device (CUDA) or the simulated profile.
struct LaunchLimits {
    int max_threads_per_block = 1024;
    Dim3 max_block_dim{1024, 1024, 64};
    Dim3 max_grid_dim{2147483647u, 65535, 65535};
    std::size_t shared_memory_per_block = std::size_t{48} * 1024;        // static + dynamic without opt-in
    std::size_t shared_memory_per_block_optin = std::size_t{48} * 1024;  // the most a kernel may opt in to
    int warp_size = 32;
};

struct ComputeCapability {
    int major = 0;
    int minor = 0;
    friend constexpr bool operator==(const ComputeCapability&, const ComputeCapability&) = default;
};

struct DeviceProperties {
    std::string backend;  // the backend's name (gpukit/backend.hpp)
    int ordinal = 0;
    std::string name;
    ComputeCapability compute_capability;
    std::string pci_bus_id;  // "0000:3b:00.0"; empty where the backend has none
    std::size_t total_memory = 0;
    int multiprocessor_count = 0;
    LaunchLimits limits;
    std::size_t shared_memory_per_multiprocessor = 0;
    std::size_t total_constant_memory = 0;
    int registers_per_block = 0;
    int registers_per_multiprocessor = 0;
    int max_threads_per_multiprocessor = 0;
    int clock_rate_khz = 0;
    int memory_clock_rate_khz = 0;
    int memory_bus_width_bits = 0;
    std::size_t l2_cache_bytes = 0;

    // What kernels are compiled for: "sm_90" on a GPU of compute capability 9.0, the host's
    // architecture ("host-x86_64") on a simulated device.
    std::string target;

    // "sm_90" for compute capability 9.0 (a simulated device reports the capability it models).
    std::string architecture() const;
};

struct MemoryInfo {
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
};

class Device {
public:
    // The current device of this thread (see use()); by default device 0 of the selected backend,
    // or the one GPUKIT_DEVICE=<n> names (a process per device, as Dask's workers).
    static Device current();

    int ordinal() const noexcept { return ordinal_; }
    // The backend the device belongs to, and what it can do.
    const BackendInfo& backend_info() const;
    const DeviceProperties& properties() const;
    std::string_view name() const { return properties().name; }
    MemoryInfo memory_info() const;

    // Makes this the current device of the calling thread.
    void use() const;
    // Waits for all work on the device to finish.
    void synchronize() const;
    // As synchronize(), for at most `timeout`: past it, WaitTimeoutError. On the simulator the
    // device's work is then given up (the device is usable again); on a GPU it goes on running.
    void synchronize(std::chrono::duration<double> timeout) const;

    // Whether kernels on this device can use the host memory [address, address + bytes) as it is
    // (sharing it without a copy); false on the simulator for memory outside its device memory,
    // since kernels run in its device process (GPUKIT_SIM_ISOLATION=0 runs them here).
    bool kernels_reach_host_memory(const void* address, std::size_t bytes) const;

    // Whether this device can reach `peer`'s memory directly (peer access: NVLink or PCIe
    // peer-to-peer); false for the device itself and for a device of another backend.
    bool can_access_peer(const Device& peer) const;
    // Lets this device reach `peer`'s memory (once per ordered pair and process; later calls
    // return at once). Throws InvalidArgumentError where can_access_peer is false. Copies between
    // devices (gpukit::copy, Array::to_device) enable it themselves where they can.
    void enable_peer_access(const Device& peer) const;

    // "device 0 (NVIDIA H100 80GB HBM3)": how error messages name a device.
    std::string describe() const;

    friend bool operator==(const Device& a, const Device& b) noexcept {
        return a.backend_ == b.backend_ && a.ordinal_ == b.ordinal_;
    }

    detail::Backend& backend() const noexcept { return *backend_; }
    Device(detail::Backend& backend, int ordinal) noexcept : backend_(&backend), ordinal_(ordinal) {}

private:
    detail::Backend* backend_;
    int ordinal_;
};

// Restores the previous current device when it goes out of scope.
class DeviceScope {
public:
    explicit DeviceScope(Device device);
    ~DeviceScope();
    DeviceScope(const DeviceScope&) = delete;
    DeviceScope& operator=(const DeviceScope&) = delete;

private:
    Device previous_;
};

// Long waits for the device (synchronize(), copies that wait for earlier work, ...) call `check`
// every 100 ms or so while they wait; when it returns true the wait ends with
// WaitInterruptedError, on the simulator after giving up the device's work so that the device is
// usable again. The Python bindings install one that runs Python's signal handlers: Ctrl-C
// interrupts a wait. Null removes it.
using WaitInterruptCheck = bool (*)();
void set_wait_interrupt_check(WaitInterruptCheck check) noexcept;
WaitInterruptCheck wait_interrupt_check() noexcept;

// Every device of the selected backend.
std::vector<Device> devices();
Device device(int ordinal);
// Every device of every backend that can run here, in the order of backends(): the GPUs, then the
// simulator, which is a device of its own. Any of them can be passed explicitly to
// Module::compile, DeviceBuffer and Stream, whichever backend is selected.
std::vector<Device> all_devices();

}  // namespace gpukit
