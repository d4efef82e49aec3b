// src/core/warnings.hpp: giving a warning (gpukit/warnings.hpp) from inside the library.
#pragma once

#include <string_view>

#include "gpukit/warnings.hpp"

namespace gpukit::detail {

// Hands `message` to the handler set by set_warning_handler (which may throw), or writes it once to
// standard error; thread-safe.
void warn(WarningCategory category, std::string_view message);

}  // namespace gpukit::detail
