// src/util/warning.cpp: once-only warnings on standard error.
#include "util/warning.hpp"

#include <unistd.h>

#include <mutex>
#include <set>
#include <string>

namespace gpukit::detail {

void warn_once(std::string_view message) {
    static std::mutex mutex;
    static auto* said = new std::set<std::string, std::less<>>;  // never destroyed: warnings may come at exit
    std::lock_guard lock(mutex);
    if (!said->emplace(message).second) return;
    const std::string line = "gpukit: warning: " + std::string(message) + "\n";
    // One write(2), so that a line is not interleaved with another thread's or process's output.
    [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace gpukit::detail
