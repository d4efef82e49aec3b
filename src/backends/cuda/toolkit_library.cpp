// src/backends/cuda/toolkit_library.cpp: where a CUDA toolkit library may be.
#include "backends/cuda/toolkit_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "util/text.hpp"

namespace gpukit::detail::cuda {

namespace {

// The site-packages holding this gpukit: its own file (the Python extension gpukit/_core...so,
// which carries the library) found by dladdr, two folders up.
std::filesystem::path gpukit_site_packages() {
    Dl_info self{};
    if (dladdr(reinterpret_cast<const void*>(&gpukit_site_packages), &self) == 0 || !self.dli_fname) return {};
    std::error_code ec;
    auto site = std::filesystem::weakly_canonical(self.dli_fname, ec).parent_path().parent_path();
    return ec ? std::filesystem::path() : site;
}

}  // namespace

std::vector<std::string> toolkit_library_candidates(const char* variable,
                                                    std::initializer_list<std::string_view> sonames,
                                                    std::initializer_list<std::string_view> wheel_files) {
    if (const char* path = std::getenv(variable); path && *path) return {path};
    std::vector<std::string> candidates(sonames.begin(), sonames.end());
    for (const char* root_variable : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* root = std::getenv(root_variable); root && *root)
            for (std::string_view soname : sonames) candidates.push_back(concat(root, "/lib64/", soname));
    for (std::string_view soname : sonames) candidates.push_back(concat("/usr/local/cuda/lib64/", soname));
    if (wheel_files.size() == 0) return candidates;
    if (const auto site = gpukit_site_packages(); !site.empty()) {
        std::error_code ec;
        for (std::string_view file : wheel_files)
            if (std::filesystem::exists(site / file, ec)) candidates.push_back((site / file).string());
    }
    return candidates;
}

}  // namespace gpukit::detail::cuda
