// src/cache/cache_key.hpp: the key of a compile, over everything its output depends on.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"
#include "source/include_resolver.hpp"

namespace gpukit::detail {

// ResolvedInclude::resolved for a header given as a string in CompileOptions::headers.
inline constexpr std::string_view string_header_marker = "<string header>";

// One header the source can reach, directly or through other headers.
struct ResolvedInclude {
    IncludeForm form = IncludeForm::quoted;
    std::string name;          // as written in the directive (a computed include: the macro text)
    std::string resolved;      // the file's path, string_header_marker, or empty when not found
    std::string content_hash;  // hex SHA-256 of the content; empty when not found or unreadable
};

// Every header reachable from input.source, each resolved once, in depth-first order of first
// appearance (source/include_resolver.hpp: the compiler's lookup order, and includes under a
// certainly-false condition left out). Names found nowhere are the toolkit's own headers
// (<cuda_fp16.h>, ...), which the compiler identity covers; they are listed with `resolved` empty.
std::vector<ResolvedInclude> find_includes(const CompileInput& input);

// Hex SHA-256 over an unambiguous (length-prefixed) encoding of: the key format version, the
// compiler identity, the target, options.to_arguments(), the name expressions, the program name,
// the source, every header given as a string (all are handed to the compiler), and every header
// reachable through #include (find_includes), files by path and content. List order counts as
// written: defines given in another order make another key, as they may compile differently.
// Touches the file system only when there are -I directories.
std::string compute_cache_key(std::string_view compiler_identity, const CompileInput& input);

}  // namespace gpukit::detail
