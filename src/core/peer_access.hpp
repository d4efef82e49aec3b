// src/core/peer_access.hpp: peer access between two devices, settled once per ordered pair.
#pragma once

#include "gpukit/device.hpp"

namespace gpukit::detail {

// Whether `device` reaches `peer`'s memory directly, enabling it the first time where the two can:
// the driver is asked once per pair and process, so copies between devices may call this each time.
bool peer_access(const Device& device, const Device& peer);

}  // namespace gpukit::detail
