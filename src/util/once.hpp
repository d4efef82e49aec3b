// src/util/once.hpp: a value computed once per process, its failure remembered too.
#pragma once

#include <exception>
#include <optional>
#include <utility>

namespace gpukit::detail {

// Calls `make` the first time the enclosing call site runs and returns its result ever after; if
// `make` threw, rethrows that same exception on every later call instead of trying again (a
// library that is not there will not appear mid-process, and searching again costs time).
// Each lambda is its own type, so each call site keeps its own value.
template <class Make>
const auto& once(Make make) {
    using Value = decltype(make());
    static const auto outcome = [&]() -> std::pair<std::optional<Value>, std::exception_ptr> {
        try {
            return {make(), nullptr};
        } catch (...) {
            return {std::nullopt, std::current_exception()};
        }
    }();
    if (outcome.second) std::rethrow_exception(outcome.second);
    return *outcome.first;
}

}  // namespace gpukit::detail
