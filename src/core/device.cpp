// src/core/device.cpp: devices and the current device of each thread.
#include "gpukit/device.hpp"

#include <optional>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "backends/backend.hpp"
#include "core/check_report.hpp"
#include "core/peer_access.hpp"
#include "core/wait_limit.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit {

namespace {
// The current device of this thread, when use() has chosen one; device 0 otherwise.
thread_local std::optional<Device> current_device;
}  // namespace

std::string DeviceProperties::architecture() const {
    return detail::concat("sm_", compute_capability.major, compute_capability.minor);
}

namespace {
// GPUKIT_DEVICE=<n>: the device of threads that chose none (default 0), so that a process, such as
// one Dask worker per GPU, works on its own device without code for it. Read once; a value that is
// not a device of the selected backend is an error at every use, never device 0 in silence.
Device process_default_device() {
    static const std::optional<int> ordinal = []() -> std::optional<int> {
        const char* value = std::getenv("GPUKIT_DEVICE");
        if (!value || !*value) return 0;
        char* end = nullptr;
        errno = 0;
        const long number = std::strtol(value, &end, 10);
        if (end == value || *end || errno != 0 || number < 0 || number > std::numeric_limits<int>::max())
            return std::nullopt;
        return static_cast<int>(number);
    }();
    if (!ordinal)
        throw InvalidArgumentError(detail::concat("GPUKIT_DEVICE=", std::getenv("GPUKIT_DEVICE"),
                                                  ": give the number of the device to work on (0, 1, ...)"));
    if (*ordinal == 0) return Device(detail::selected(), 0);
    try {
        return device(*ordinal);
    } catch (const InvalidArgumentError& e) {
        throw InvalidArgumentError(detail::concat("GPUKIT_DEVICE=", *ordinal, ": ", e.what()));
    }
}
}  // namespace

Device Device::current() {
    if (current_device) return *current_device;
    return process_default_device();
}

const BackendInfo& Device::backend_info() const { return backend_->info(); }

const DeviceProperties& Device::properties() const { return backend_->properties(ordinal_); }

MemoryInfo Device::memory_info() const { return backend_->memory_info(ordinal_); }

void Device::use() const { current_device = *this; }

void Device::synchronize() const {
    const detail::ReportAfterSync report;
    backend_->synchronize_device(ordinal_, std::nullopt);
}

void Device::synchronize(std::chrono::duration<double> timeout) const {
    const detail::ReportAfterSync report;
    backend_->synchronize_device(ordinal_, detail::deadline_after(timeout, "Device::synchronize"));
}

namespace {
std::atomic<WaitInterruptCheck> interrupt_check{nullptr};
}

void set_wait_interrupt_check(WaitInterruptCheck check) noexcept { interrupt_check.store(check); }

WaitInterruptCheck wait_interrupt_check() noexcept { return interrupt_check.load(); }

bool Device::kernels_reach_host_memory(const void* address, std::size_t bytes) const {
    return backend_->kernels_reach_host_memory(ordinal_, reinterpret_cast<std::uint64_t>(address), bytes);
}

bool Device::can_access_peer(const Device& peer) const {
    if (peer.backend_ != backend_ || peer.ordinal_ == ordinal_) return false;
    return backend_->can_access_peer(ordinal_, peer.ordinal_);
}

void Device::enable_peer_access(const Device& peer) const {
    if (!detail::peer_access(*this, peer))
        throw InvalidArgumentError(detail::concat(describe(), " cannot reach the memory of ", peer.describe(),
                                                  " directly (no peer access between them); copies between them "
                                                  "go through the host"));
}

std::string Device::describe() const { return detail::concat("device ", ordinal_, " (", properties().name, ")"); }

DeviceScope::DeviceScope(Device device) : previous_(Device::current()) { device.use(); }

DeviceScope::~DeviceScope() { current_device = previous_; }

std::vector<Device> devices() {
    auto& backend = detail::selected();
    const int count = backend.device_count();
    std::vector<Device> all;
    all.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) all.emplace_back(backend, i);
    return all;
}

std::vector<Device> all_devices() {
    std::vector<Device> all;
    for (const BackendInfo& info : backends()) {
        if (!backend_unavailable_reason(info.name).empty()) continue;
        auto& backend = detail::backend(info.name);
        for (int i = 0; i < backend.device_count(); ++i) all.emplace_back(backend, i);
    }
    return all;
}

Device device(int ordinal) {
    auto& backend = detail::selected();
    if (ordinal < 0 || ordinal >= backend.device_count())
        throw InvalidArgumentError(detail::concat(
            "There is no ", backend.info().name, " device ", ordinal, "; there ",
            backend.device_count() == 1
                ? "is 1 (device 0)"
                : detail::concat("are ", backend.device_count(), " (0 to ", backend.device_count() - 1, ")")));
    return Device(backend, ordinal);
}

}  // namespace gpukit
