// src/multi_device/on_each_device.hpp: work run on several devices at once, one host thread each.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "gpukit/device.hpp"

namespace gpukit::multi_device::detail {

// work(i) for every i < devices.size() at once: one host thread each (the calling thread alone
// for one), with devices[i] current and the calling thread's current stream of devices[i]
// current, so that what the work queues is ordered with the caller's own work on that device.
// Every thread finishes; then, when some work threw, PartFailedError for the first, its message
// "<action>: the work on <device> for <describe(i)> failed: <cause>".
void on_each_device(std::span<const Device> devices, const std::function<void(std::size_t)>& work,
                    std::string_view action, const std::function<std::string(std::size_t)>& describe);

}  // namespace gpukit::multi_device::detail
