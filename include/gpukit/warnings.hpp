// gpukit/warnings.hpp: NumPy's RuntimeWarnings where a result is defined all the same (the mean
// of nothing is nan, a variance with ddof >= n is inf or nan). Each is decided from shapes alone,
// so that no operation waits for the device to warn; those that need the device's values (an
// all-nan slice of nanmean) are not given.
//
//   gpukit::set_warning_handler([&](const gpukit::Warning& w) { log(w.message); });
//   gpukit::mean(gpukit::empty({0}, gpukit::DType::float32));  // logs "Mean of empty slice"
//
// The Python package installs a handler that calls warnings.warn (so filters apply, and "error"
// raises the RuntimeWarning from the call that warned).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

namespace gpukit {

enum class WarningCategory : std::uint8_t {
    runtime,  // Python's RuntimeWarning
};

struct Warning {
    WarningCategory category = WarningCategory::runtime;
    std::string_view message;  // NumPy's words
};

using WarningHandler = std::function<void(const Warning&)>;

// Sends every later warning to `handler` and returns the one before. A handler may throw: the
// operation that warned then throws that, having changed nothing. An empty handler restores the
// default, which writes each message once to standard error.
WarningHandler set_warning_handler(WarningHandler handler);

}  // namespace gpukit
