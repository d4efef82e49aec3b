// src/util/dynamic_library.cpp: a shared library opened at run time.
#include "util/dynamic_library.hpp"

#include <dlfcn.h>
#include <link.h>

#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

DynamicLibrary DynamicLibrary::open_first(std::string_view what, const std::vector<std::string>& candidates,
                                          std::string_view hint) {
    std::string tried;
    for (const auto& candidate : candidates) {
        if (candidate.empty()) continue;
        if (void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) {
            std::string path = candidate;
            link_map* map = nullptr;
            if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name) path = map->l_name;
            return DynamicLibrary(handle, std::move(path));
        }
        const char* why = dlerror();
        tried += concat("\n  ", candidate, ": ", why ? why : "could not be loaded");
    }
    throw BackendUnavailableError(concat(what, " was not found. Tried:", tried, hint.empty() ? "" : "\n", hint));
}

void* DynamicLibrary::symbol(const char* name) const { return dlsym(handle_, name); }

}  // namespace gpukit::detail
