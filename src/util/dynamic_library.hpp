// src/util/dynamic_library.hpp: a shared library opened at run time.
//
// gpukit links no CUDA library: the driver and NVRTC are opened here when first needed, so the
// same binary runs on machines with and without them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpukit::detail {

class DynamicLibrary {
public:
    // Opens the first candidate (a soname or a path) that loads. Throws BackendUnavailableError
    // naming `what`, every candidate tried and why each failed, followed by `hint`.
    static DynamicLibrary open_first(std::string_view what, const std::vector<std::string>& candidates,
                                     std::string_view hint);

    // The address of `name`, or nullptr when the library does not export it.
    void* symbol(const char* name) const;
    // The file that was loaded, as the dynamic linker resolved it.
    const std::string& path() const noexcept { return path_; }

    // Never closed: CUDA libraries register exit handlers and must stay mapped until the process
    // ends (cuda-pathfinder warns against dlclose for the same reason).
    ~DynamicLibrary() = default;

private:
    DynamicLibrary(void* handle, std::string path) : handle_(handle), path_(std::move(path)) {}
    void* handle_;
    std::string path_;
};

}  // namespace gpukit::detail
