// src/source/line_map.cpp: lines as written, from newlines, joined splices and `#line` directives.
#include "source/line_map.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace gpukit::detail {

LineMap::LineMap(std::string_view text, std::vector<std::size_t> joins) : joins_(std::move(joins)) {
    const char* const begin = text.data();
    const char* const end = begin + text.size();
    for (const char* at = begin; at < end;) {
        const void* newline = std::memchr(at, '\n', static_cast<std::size_t>(end - at));
        if (newline == nullptr) break;
        const char* found = static_cast<const char*>(newline);
        newlines_.push_back(static_cast<std::size_t>(found - begin));
        at = found + 1;
    }
}

void LineMap::renumber(std::size_t next_line, std::size_t line, std::optional<std::string_view> file) {
    // Positions only grow, so a directive before the last one is malformed input: keep the order.
    if (!renumberings_.empty() && next_line < renumberings_.back().from) return;
    std::string_view named = renumberings_.empty() ? std::string_view{} : renumberings_.back().file;
    if (file) named = *file;
    renumberings_.push_back({next_line, written_line(next_line), line, named});
}

std::size_t LineMap::written_line(std::size_t position) const {
    // A newline at `position` still belongs to its line; a join at `position` starts the next one.
    const auto newlines = std::lower_bound(newlines_.begin(), newlines_.end(), position) - newlines_.begin();
    const auto joins = std::upper_bound(joins_.begin(), joins_.end(), position) - joins_.begin();
    return 1 + static_cast<std::size_t>(newlines) + static_cast<std::size_t>(joins);
}

SourceLocation LineMap::locate(std::size_t position) const {
    const std::size_t written = written_line(position);
    const auto after = std::upper_bound(renumberings_.begin(), renumberings_.end(), position,
                                        [](std::size_t p, const Renumbering& r) { return p < r.from; });
    if (after == renumberings_.begin()) return {written, {}};
    const Renumbering& last = *(after - 1);
    return {last.line + (written - last.written_line), last.file};
}

}  // namespace gpukit::detail
