// src/source/include_resolver.hpp: the headers a source reaches through #include, found as the compiler finds them.
//
// The compile cache hashes every header a compile may read (a changed header must not hit a stale
// entry), and the simulator's compiler reads their texts for the sync analysis; both walk here.
// Directives come from source/preprocessor.hpp, so an include under a certainly-false condition is
// never followed and one under an unknown condition always is.
#pragma once

#include <filesystem>
#include <functional>
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
struct IncludeSearch {
    std::vector<StringHeader> string_headers;
    std::vector<std::filesystem::path> directories;
};

enum class HeaderOrigin {
    string_header,
    file,
    unreadable_file,  // found, but it could not be read
    not_found,        // the toolkit's own headers (<cuda_fp16.h>), which the compiler finds itself
    computed,         // `#include MACRO`: unresolved
};

// One header the walk reached; the views last for the visit only.
struct ReachedHeader {
    const HeaderName& header;  // as the directive wrote it
    HeaderOrigin origin;
    std::string_view path;     // files only
    std::string_view content;  // string headers and readable files
};

// Whether `text` may hold an include directive at all: one substring search, which decides for most
// kernels (the in-process compile cache hit pays it on every compile).
inline bool may_include(std::string_view text) { return text.find("include") != std::string_view::npos; }

// Visits every header reachable from `source`, depth first in order of appearance, once per
// distinct resolution (a file by its path, a string header by its name, an unresolved one by its
// form and name), so include cycles end. Touches the file system only for `search.directories`
// and for files already found.
void walk_includes(std::string_view source, const IncludeSearch& search,
                   const std::function<void(const ReachedHeader&)>& visit);

}  // namespace gpukit::detail
