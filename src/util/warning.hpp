// src/util/warning.hpp: warnings for the user, on standard error, each said once.
//
// For what gpukit works around rather than refuses (a planted file it skips, a cache it will not
// use): the program goes on, and the user learns why it is slower or what to clean up.
#pragma once

#include <string_view>

namespace gpukit::detail {

// Writes "gpukit: warning: <message>" and a newline to standard error, the first time this process
// is given this message; thread-safe.
void warn_once(std::string_view message);

}  // namespace gpukit::detail
