// src/backends/sim/sim_module.hpp: a compiled kernel module loaded into the process.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/sim/prelude/gpukit_sim_abi.h"

namespace gpukit::detail::sim {

class SimModule;

struct SimKernel {
    const SimModule* module = nullptr;
    std::string name;
    const gpukit_sim::KernelRecord* record = nullptr;
    std::size_t static_shared_bytes = 0;  // its __shared__ variables (and those of helpers it may call)
};

struct SimGlobal {
    void* address = nullptr;
    std::size_t size = 0;
};

// A __shared__ variable: where it sits in each worker's copy of the module's thread-locals.
struct SharedVariable {
    std::string name;  // demangled
    std::uint64_t offset = 0;
    std::size_t size = 0;
    bool dynamic = false;  // the buffer behind every extern __shared__ array
};

// A variable in the module's image, which check mode bounds on its own.
struct ModuleVariable {
    enum class Space : std::uint8_t {
        constant,  // the source's __constant__ variable
        device,    // any other of the source's variables (__device__, a function's static)
        compiler,  // made by the compiler for the source's code: switch tables, vtables, __func__
        runtime,   // the prelude's, the C++ runtime's, the linker's: the kernel's code never reads them
    };
    std::string name;  // demangled
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
    Space space = Space::device;
};

// Where an instruction of the module comes from.
struct SourceLocation {
    std::string file;
    int line = 0;
    std::string function;
};

class SimModule {
public:
    // Loads a shared object produced by HostCompiler. Throws InvalidArgumentError for an image
    // that is not one, BackendUnavailableError when the dynamic linker refuses it.
    SimModule(std::string_view image, const gpukit_sim::RuntimeHooks& hooks);
    ~SimModule();
    SimModule(const SimModule&) = delete;
    SimModule& operator=(const SimModule&) = delete;

    const gpukit_sim::ModuleRecord& record() const noexcept { return *record_; }
    const SimKernel* kernel(std::string_view name) const;
    std::vector<std::string> kernel_names() const;
    std::optional<SimGlobal> global(std::string_view name) const;
    // Each variable a kernel can change, once, by its symbol (mangled where C++); not the
    // constants the compiler and the dynamic linker keep read-only.
    std::vector<std::string> global_names() const;

    // For check mode.
    const std::vector<SharedVariable>& shared_variables() const noexcept { return shared_; }
    // Bytes of the module's thread-local block that its variables span.
    std::size_t thread_local_bytes() const noexcept {
        std::size_t end = 0;
        for (const auto& v : shared_) end = std::max<std::size_t>(end, v.offset + v.size);
        return end;
    }
    // The calling OS thread's copy of the module's thread-locals, allocating it if need be.
    // (dlinfo's RTLD_DI_TLS_DATA answers null once other modules were loaded after this thread
    // last updated its thread-local vector; the prelude's anchor variable tells the truth.)
    std::uintptr_t thread_local_block() const;
    // [begin, end) of each loaded segment of the image, and the address the image is loaded at.
    const std::vector<std::pair<std::uintptr_t, std::uintptr_t>>& segments() const noexcept { return segments_; }
    std::uintptr_t base() const noexcept { return base_; }
    // The variables of the image, by address, each once.
    const std::vector<ModuleVariable>& variables() const noexcept { return variables_; }
    // The source line of the instruction before `return_address` (check-mode modules carry
    // debug information); empty when unknown. Its file as source_name tells it.
    SourceLocation source_of(const void* return_address) const;
    // A source file as the compile saw it (a debug line's path, or __FILE__) by the name the user
    // gave it: the program's name (CompileOptions::program_name) for its source, a header's
    // name (CompileOptions::headers) for a header, a path on disk for a file included from there.
    std::string source_name(std::string_view compiled_path) const;

private:
    void* handle_ = nullptr;
    std::string path_;  // kept on disk for check-mode modules, whose lines addr2line reads
    std::uintptr_t base_ = 0;
    std::vector<std::pair<std::uintptr_t, std::uintptr_t>> segments_;  // [begin, end) of the image
    std::vector<std::pair<std::uintptr_t, std::uintptr_t>> writable_;  // the parts writable once loaded
    std::vector<ModuleVariable> variables_;
    std::string program_name_;       // CompileOptions::program_name, as the module records it
    std::string compile_directory_;  // the compile's scratch directory, ending in '/'; empty if unknown
    std::vector<SharedVariable> shared_;
    std::uint64_t anchor_offset_ = 0;  // of the prelude's thread_local_anchor in the module's block
    const gpukit_sim::ModuleRecord* record_ = nullptr;
    std::vector<SimKernel> kernels_;
    std::map<std::string, SimGlobal, std::less<>> globals_;
};

}  // namespace gpukit::detail::sim
