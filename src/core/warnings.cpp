// src/core/warnings.cpp: the warning handler (gpukit/warnings.hpp).
#include "core/warnings.hpp"

#include <mutex>
#include <utility>

#include "util/text.hpp"
#include "util/warning.hpp"

namespace gpukit {
namespace {

std::mutex handler_mutex;
WarningHandler& current_handler() {
    static auto* handler = new WarningHandler;  // never destroyed: warnings may come at exit
    return *handler;
}

std::string_view category_name(WarningCategory category) {
    switch (category) {
        case WarningCategory::runtime: return "RuntimeWarning";
    }
    return "Warning";
}

}  // namespace

WarningHandler set_warning_handler(WarningHandler handler) {
    std::lock_guard lock(handler_mutex);
    return std::exchange(current_handler(), std::move(handler));
}

namespace detail {

void warn(WarningCategory category, std::string_view message) {
    WarningHandler handler;
    {
        std::lock_guard lock(handler_mutex);
        handler = current_handler();
    }
    // Called outside the lock: a handler may take its time, set another handler, or throw.
    if (handler)
        handler(Warning{category, message});
    else
        warn_once(concat(category_name(category), ": ", message));
}

}  // namespace detail
}  // namespace gpukit
