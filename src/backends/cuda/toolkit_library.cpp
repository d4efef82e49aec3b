// src/backends/cuda/toolkit_library.cpp: where a CUDA toolkit library may be.
#include "backends/cuda/toolkit_library.hpp"

#include <cstdlib>

#include "util/text.hpp"

namespace gpukit::detail::cuda {

std::vector<std::string> toolkit_library_candidates(const char* variable,
                                                    std::initializer_list<std::string_view> sonames) {
    if (const char* path = std::getenv(variable); path && *path) return {path};
    std::vector<std::string> candidates(sonames.begin(), sonames.end());
    for (const char* root_variable : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* root = std::getenv(root_variable); root && *root)
            for (std::string_view soname : sonames) candidates.push_back(concat(root, "/lib64/", soname));
    for (std::string_view soname : sonames) candidates.push_back(concat("/usr/local/cuda/lib64/", soname));
    return candidates;
}

}  // namespace gpukit::detail::cuda
