// src/util/text.hpp: small text helpers for building messages.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace gpukit::detail {

// Concatenates anything ostream can print.
template <class... Parts>
std::string concat(const Parts&... parts) {
    std::ostringstream out;
    (out << ... << parts);
    return out.str();
}

// "4.0 GiB", "200.0 KiB", "12 bytes".
std::string format_bytes(std::uint64_t bytes);

// "a, b, c"
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

// Removes trailing NULs and whitespace (NVRTC counts the NUL in its log size).
std::string trim_trailing(std::string text);

// Returns the C++ demangled form of a symbol, or the symbol itself when it is not mangled.
std::string demangle(const std::string& symbol);

}  // namespace gpukit::detail
