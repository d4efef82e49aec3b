// src/source/line_map.hpp: the line, and the file, of a position in source text.
//
// The readers work on text after line splicing, where positions no longer count the joined lines;
// diagnostics and a future source transform want lines as written, renumbered by `#line` directives
// as the compiler renumbers them.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace gpukit::detail {

struct SourceLocation {
    std::size_t line = 1;   // counted from 1
    std::string_view file;  // as the last `#line` before it named it; empty for the text's own name

    friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

class LineMap {
public:
    // `text` is the text after line splicing (views into it stay valid while the map is used), and
    // `joins` where splice_lines_tracked joined its lines.
    LineMap(std::string_view text, std::vector<std::size_t> joins);

    // A `#line` directive: the line that starts at `next_line` is numbered `line`, in `file` when the
    // directive names one (else in the file named before). Directives come in order of position.
    void renumber(std::size_t next_line, std::size_t line, std::optional<std::string_view> file);

    SourceLocation locate(std::size_t position) const;

private:
    // The line as written, counting the lines that splices joined.
    std::size_t written_line(std::size_t position) const;

    struct Renumbering {
        std::size_t from;          // the position it applies from
        std::size_t written_line;  // the line as written there
        std::size_t line;          // the number it is given
        std::string_view file;
    };

    std::vector<std::size_t> newlines_;  // positions of '\n' in the text
    std::vector<std::size_t> joins_;
    std::vector<Renumbering> renumberings_;
};

}  // namespace gpukit::detail
