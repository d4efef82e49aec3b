// src/backends/sim/device_executable.hpp: the bytes of gpukit-sim-device, the simulator's device
// process, carried inside the library (embed_device.cmake generates the definition), so that it
// needs no file next to the library and no installation step.
#pragma once

#include <string_view>

namespace gpukit::detail::sim {

// The executable; empty inside the device process itself, which starts no other.
std::string_view device_executable();

}  // namespace gpukit::detail::sim
