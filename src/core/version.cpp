// src/core/version.cpp: the version string, given by the build (src/CMakeLists.txt).
#include "gpukit/version.hpp"

namespace gpukit {

std::string_view version() noexcept { return GPUKIT_VERSION_STRING; }

}  // namespace gpukit
