// src/core/wait_limit.hpp: a wait's timeout as the backends take it.
#pragma once

#include <chrono>
#include <cmath>

#include "backends/backend.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

// The deadline `timeout` from now. Throws InvalidArgumentError for a negative or NaN timeout;
// zero only looks whether the work is done.
inline Deadline deadline_after(std::chrono::duration<double> timeout, const char* action) {
    const double seconds = timeout.count();
    if (!(seconds >= 0) || !std::isfinite(seconds))
        throw InvalidArgumentError(concat(action, ": the timeout must be a number of seconds >= 0, not ", seconds,
                                          " (leave it out to wait as long as it takes)"));
    // Capped at a year: a later deadline would overflow the clock.
    const auto capped = std::chrono::duration<double>(std::min(seconds, 365.0 * 24 * 3600));
    return WaitLimit{
        std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(capped),
        seconds};
}

}  // namespace gpukit::detail
