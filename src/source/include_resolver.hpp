// src/source/include_resolver.hpp: the headers a source reaches through #include, found as the compiler finds them.
//
// The compile cache hashes every header a compile may read (a changed header must not hit a stale
// entry), and the simulator's compiler reads their texts for the sync analysis; both walk here.
// Directives come from source/preprocessor.hpp, so an include under a certainly-false condition is
// never followed and one under an unknown condition always is.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "source/preprocessor.hpp"

namespace gpukit::detail {

// A header handed to the compiler as text under a name.
struct StringHeader {
    std::string_view name;
    std::string_view text;
};

// Where include directives are looked up: string headers by exact name first; then, for quoted
// names, the directory of the including file when that is a real file (the source itself never is);
// then the directories in order (-I).
//
// The directories are also the only roots a file may come from. A compile error quotes the lines
// of the file it is in, so a source that could include any file could read it through the error
// log: `#include "/etc/passwd"`. So a name that is absolute, or that leads out of the directory it
// is looked up in ("../../x"), is refused, unless it is a quoted name, in a file found under a
// root, that stays under a root. A quoted name of the source or a string header that resolves
// nowhere is refused when the current directory holds it (NVRTC would read it from there).
// `#include MACRO` is refused in the source and in string headers
// (which may come from anyone) and followed nowhere in files under a root (their authors are
// trusted, and the compiler resolves them). Dead directives (under a certainly false condition)
// are checked too, by name, in case the compiler's reading of the condition differs.
struct IncludeSearch {
    std::vector<StringHeader> string_headers;
    std::vector<std::filesystem::path> directories;
};

enum class HeaderOrigin {
    string_header,
    file,
    unreadable_file,  // found, but it could not be read
    not_found,        // the toolkit's own headers (<cuda_fp16.h>), which the compiler finds itself
    computed,         // `#include MACRO` in a file under a root: unresolved
    refused,          // against the rules above: the compile must not go ahead
};

// One header the walk reached; the views last for the visit only.
struct ReachedHeader {
    const HeaderName& header;  // as the directive wrote it
    HeaderOrigin origin;
    std::string_view path;     // files only
    std::string_view content;  // string headers and readable files
    // Where the directive is: the including file's path, or the string header's name; empty for
    // the source itself. And its line there.
    std::string_view includer = {};
    std::size_t line = 0;
};

// For a refused header: "<includer>:<line>: error: #include "<name>": ..." saying why and what
// is allowed; `program_name` stands for the source itself. Never quotes anything but the name.
std::string refusal_message(const ReachedHeader& reached, std::string_view program_name);

// Whether `text` may hold an include directive (#include, #include_next, #import) at all: two
// substring searches, which decide for most kernels (the in-process compile cache hit pays them on
// every compile).
inline bool may_include(std::string_view text) {
    return text.find("include") != std::string_view::npos || text.find("import") != std::string_view::npos;
}

// Visits every header reachable from `source`, depth first in order of appearance, once per
// distinct resolution (a file by its path, a string header by its name, an unresolved one by its
// form and name), so include cycles end. Touches the file system only for `search.directories`
// and for files already found.
void walk_includes(std::string_view source, const IncludeSearch& search,
                   const std::function<void(const ReachedHeader&)>& visit);

}  // namespace gpukit::detail
