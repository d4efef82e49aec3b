// src/util/library_search.hpp: where the dynamic linker would find a library, without loading it.
//
// Loading NVRTC costs milliseconds (it is a large library); a compile-cache hit must not pay
// that just to learn which NVRTC a cache key is for.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpukit::detail {

// The file `name` resolves to: a path is checked as is; a bare soname is looked up in
// LD_LIBRARY_PATH, the directories of /etc/ld.so.conf (and its includes), then the system's
// default directories, as the dynamic linker does. Symbolic links are resolved.
std::optional<std::string> find_library_file(std::string_view name);

}  // namespace gpukit::detail
