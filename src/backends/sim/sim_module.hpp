// src/backends/sim/sim_module.hpp: a compiled kernel module loaded into the process.
//
// The image is written to a private directory (util/private_files.hpp) and dlopen'ed from
// there; the file stays while the module is loaded, for the source lines of faults and hazards.
// Its data segments (the __device__ and __constant__ variables, and everything else the module
// reads or writes outside its code) are moved into device memory (device_memory.hpp): their pages
// are replaced by shared ones at the same addresses, so that the host reads and writes the
// variables through device memory, at addresses that outlive the device process.
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
#include "util/elf_symbols.hpp"
#include "util/private_files.hpp"

namespace gpukit::detail::sim {

class SimModule;

struct SimKernel {
    const SimModule* module = nullptr;
    std::string name;
    const gpukit_sim::KernelRecord* record = nullptr;
    std::size_t static_shared_bytes = 0;  // its __shared__ variables (and those of helpers it may call)
};

struct SimGlobal {
    void* address = nullptr;  // where the module's code reaches it
    std::size_t size = 0;
    std::uint64_t device_address = 0;  // its pages in device memory: where the host reaches it
};

// A __shared__ variable: where it sits in each worker's copy of the module's thread-locals.
struct SharedVariable {
    std::string name;  // demangled
    std::uint64_t offset = 0;
    std::size_t size = 0;
    bool dynamic = false;  // the buffer behind every extern __shared__ array
    // Bytes on each side that belong to no variable (red_zones.hpp), around the source's static
    // __shared__ variables; 0 for the dynamic buffer, the prelude's and the C++ runtime's
    // thread-locals, and in a module without red zones.
    std::size_t red_zone = 0;
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
    std::size_t red_zone = 0;  // bytes on each side that belong to no variable (red_zones.hpp); 0: none
};

// Where an instruction of the module comes from.
struct SourceLocation {
    std::string file;
    int line = 0;
    std::string function;
};

// Where a module goes: its file, and the device memory its data segments move to.
struct ModulePlacement {
    const PrivateDirectory* directory = nullptr;
    std::string file_name;  // unique among the modules loaded from `directory`
    int memory_fd = -1;     // the device memory (DeviceMemory::fd) and where it is mapped
    std::uint64_t memory_base = 0;
    std::uint64_t data = 0;    // module_data_bytes(image) bytes of device memory, page-aligned
    bool keep_values = false;  // `data` holds the module's variables from an earlier load: keep them
};

// The bytes of device memory the module's data segments take (whole pages).
std::size_t module_data_bytes(std::string_view image);

// The source line of the instruction at `offset` in the shared object at `path` (built with line
// tables): the innermost frame outside the prelude's headers. Empty when unknown.
SourceLocation source_location(const std::string& path, std::uintptr_t offset);

class SimModule {
public:
    // Loads a shared object produced by HostCompiler. Throws InvalidArgumentError for an image
    // that is not one, BackendUnavailableError when the dynamic linker refuses it.
    SimModule(std::string_view image, const gpukit_sim::RuntimeHooks& hooks, const ModulePlacement& placement);
    ~SimModule();
    SimModule(const SimModule&) = delete;
    SimModule& operator=(const SimModule&) = delete;

    const gpukit_sim::ModuleRecord& record() const noexcept { return *record_; }
    const SimKernel* kernel(std::string_view name) const;
    const std::vector<SimKernel>& kernels() const noexcept { return kernels_; }
    std::vector<std::string> kernel_names() const;
    // Every variable by every name it answers to (its symbol and its demangled name).
    const std::map<std::string, SimGlobal, std::less<>>& globals() const noexcept { return globals_; }
    std::optional<SimGlobal> global(std::string_view name) const;
    // Each variable a kernel can change, once, by its symbol (mangled where C++); not the
    // constants the compiler and the dynamic linker keep read-only.
    std::vector<std::string> global_names() const;

    // For check mode.
    const std::vector<SharedVariable>& shared_variables() const noexcept { return shared_; }
    // Bytes of the module's thread-local block that its variables span, with their red zones.
    std::size_t thread_local_bytes() const noexcept {
        std::size_t end = 0;
        for (const auto& v : shared_) end = std::max<std::size_t>(end, v.offset + v.size + v.red_zone);
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
    // The source line of the instruction before `return_address` (modules carry line tables);
    // empty when unknown. Its file as source_name tells it.
    SourceLocation source_of(const void* return_address) const;
    // The source line of the instruction at `pc`; empty when unknown or not in this module.
    SourceLocation source_at(const void* pc) const;
    // A source file as the compile saw it (a debug line's path, or __FILE__) by the name the user
    // gave it: the program's name (CompileOptions::program_name) for its source, a header's
    // name (CompileOptions::headers) for a header, a path on disk for a file included from there.
    std::string source_name(std::string_view compiled_path) const;
    // [begin, end) of the module's code, where a faulting instruction would be.
    std::pair<std::uintptr_t, std::uintptr_t> code() const noexcept { return code_; }
    const std::string& path() const noexcept { return path_; }

private:
    void place_data(std::string_view image, const ModulePlacement& placement, const std::vector<ElfSymbol>& symbols);
    // The source line of the instruction at `offset` in the module's file, its file by source_name.
    SourceLocation locate(std::uintptr_t offset) const;

    void* handle_ = nullptr;
    std::string path_;  // the file dlopen mapped, kept while loaded: addr2line reads its lines
    std::pair<std::uintptr_t, std::uintptr_t> code_{0, 0};
    struct DataRange {
        std::uintptr_t begin, end;  // in the module's address space
        std::uint64_t device;       // where its pages are in device memory
    };
    std::vector<DataRange> data_;
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
