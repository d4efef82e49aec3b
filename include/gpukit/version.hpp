// gpukit/version.hpp: which gpukit this is.
#pragma once

#include <string_view>

namespace gpukit {

// "0.1.0": the version CMake's project() states, which the Python package reports as well.
std::string_view version() noexcept;

}  // namespace gpukit
