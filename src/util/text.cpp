// src/util/text.cpp: small text helpers for building messages.
#include "util/text.hpp"

#include <cxxabi.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace gpukit::detail {

std::string format_bytes(std::uint64_t bytes) {
    static constexpr const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) return concat(bytes, bytes == 1 ? " byte" : " bytes");
    double value = static_cast<double>(bytes) / 1024.0;
    int unit = 0;
    while (value >= 1024.0 && unit < 3) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
    return text;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += separator;
        out += items[i];
    }
    return out;
}

std::string trim_trailing(std::string text) {
    while (!text.empty() && (text.back() == '\0' || text.back() == '\n' || text.back() == ' ' || text.back() == '\r' ||
                             text.back() == '\t'))
        text.pop_back();
    return text;
}

std::string demangle(const std::string& symbol) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status),
                                               std::free);
    return status == 0 && out ? std::string(out.get()) : symbol;
}

}  // namespace gpukit::detail
