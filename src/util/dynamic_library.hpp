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
    // Points `entry` at the function `name`, or at nothing; a library without it adds the name to
    // `missing` ("a, b"), so that a caller gathers every missing entry point into one error.
    template <class Function>
    void resolve(Function*& entry, const std::string& name, std::string& missing) const {
        resolve_optional(entry, name);
        if (!entry) missing += (missing.empty() ? "" : ", ") + name;
    }
    // An entry point the library may lack (newer than the oldest release gpukit takes): null then.
    template <class Function>
    void resolve_optional(Function*& entry, const std::string& name) const {
        entry = reinterpret_cast<Function*>(symbol(name.c_str()));
    }
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
