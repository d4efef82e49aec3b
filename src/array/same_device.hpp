// src/array/same_device.hpp: the one rule for arrays of several devices: an operation takes the
// arrays of one device; gpukit never moves an array between devices behind the user's back
// (x.to_device() copies explicitly, peer to peer where it can).
#pragma once

#include <string_view>

#include "gpukit/array.hpp"

namespace gpukit::detail {

// Throws InvalidArgumentError naming both devices and the copy that would fix it, when `array`
// is not on `device`. `operation` names the work ("an indexing operation").
void require_on_device(const Array& array, const Device& device, std::string_view operation);

}  // namespace gpukit::detail
