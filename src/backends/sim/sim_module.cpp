// src/backends/sim/sim_module.cpp: a compiled kernel module loaded into the process.
#include "backends/sim/sim_module.hpp"

#include "backends/sim/prelude_files.hpp"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "backends/sim/fiber_stacks.hpp"
#include "gpukit/error.hpp"
#include "util/elf_symbols.hpp"
#include "util/private_files.hpp"
#include "util/process.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim {

namespace {

// Whether the demangled name of a function-local static belongs to `kernel`
// ("vector_add::tile", "void axpy<float>(float, ...)::tile", "ns::k::tile").
bool belongs_to(const std::string& demangled, const std::string& kernel) {
    if (demangled.rfind(kernel + "::", 0) == 0 || demangled.rfind(kernel + "(", 0) == 0) return true;
    for (const char* before : {" ", "::"}) {
        for (const char* after : {"(", "<"}) {
            if (demangled.find(before + kernel + after) != std::string::npos) return true;
        }
    }
    return false;
}

// Thread-locals that are not the user's __shared__ variables: the prelude's, the standard
// library's and compiler-made ones. Ubuntu's libstdc++ 13 headers define a thread-local inside
// an anonymous-namespace function (`get_global()::global`), so function-local statics of
// anonymous namespaces are left out too: the 48 KiB check may then undercount a kernel whose
// helper in an anonymous namespace declares __shared__ arrays, never overcount.
bool is_prelude_symbol(const std::string& name) {
    static const char* const foreign_prefixes[] = {"_ZSt", "_ZNSt", "_ZN9__gnu_cxx",    "_ZGV", "_ZTH",
                                                   "_ZTW", "__",    "_ZZN12_GLOBAL__N_"};
    for (const char* prefix : foreign_prefixes)
        if (name.rfind(prefix, 0) == 0) return true;
    return name.find("gpukit_sim") != std::string::npos;
}

}  // namespace

SimModule::SimModule(std::string_view image, const gpukit_sim::RuntimeHooks& hooks) {
    // dlopen needs a file, and one name per module: the dynamic linker hands back an already
    // loaded library for a name it has seen. The file is created afresh (O_EXCL|O_NOFOLLOW) in this
    // process's private directory (mkdtemp, 0700, removed at exit), where no one else can plant a
    // link or swap the file before it is loaded; it goes as soon as it is mapped.
    static std::atomic<unsigned long> counter{0};
    const auto path = process_private_directory().path() / concat("kernel-", counter.fetch_add(1), ".so");
    write_new_file(path, image, 0700);
    handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::error_code ignored;
    path_ = path.string();
    if (!handle_) {
        const char* why = dlerror();
        std::filesystem::remove(path, ignored);
        throw BackendUnavailableError(concat("The dynamic linker refused a kernel module: ", why ? why : "unknown"));
    }
    auto entry = reinterpret_cast<gpukit_sim_module_entry>(dlsym(handle_, "gpukit_sim_module"));
    if (!entry) {
        dlclose(handle_);
        throw InvalidArgumentError("The image is not a gpukit simulator module (no gpukit_sim_module entry)");
    }
    record_ = entry(&hooks);
    if (record_->abi_version != gpukit_sim::kAbiVersion || record_->stack_bytes != simulated_stack_bytes()) {
        dlclose(handle_);
        throw InvalidArgumentError(concat("The kernel module was built for simulator ABI ", record_->abi_version,
                                          " and ", record_->stack_bytes, "-byte stacks; this process runs ABI ",
                                          gpukit_sim::kAbiVersion, " with ", simulated_stack_bytes(),
                                          "-byte stacks: compile it again"));
    }

    // Check-mode modules stay on disk while loaded: their source lines are read from the file.
    if (!record_->check_tools) {
        std::filesystem::remove(path_, ignored);
        path_.clear();
    }

    link_map* map = nullptr;
    dlinfo(handle_, RTLD_DI_LINKMAP, &map);
    const auto base = map ? map->l_addr : 0;
    base_ = base;
    const auto symbols = read_elf_symbols(image);
    for (const auto& segment : read_elf_load_segments(image))
        segments_.emplace_back(base + segment.first, base + segment.second);
    for (const auto& range : read_elf_writable_ranges(image))
        writable_.emplace_back(base + range.first, base + range.second);

    std::size_t shared_for_all = 0;  // namespace-scope __shared__ and helpers' local ones
    struct LocalShared {
        std::string owner;
        std::size_t size;
    };
    std::vector<LocalShared> locals;
    // extern __shared__ arrays are aliases of the dynamic buffer: same thread-local offset.
    std::optional<std::uint64_t> dynamic_offset;
    for (const auto& symbol : symbols)
        if (symbol.defined && symbol.type == elf_type_tls && symbol.name == "gpukit_sim_dynamic_shared")
            dynamic_offset = symbol.value;
    for (const auto& symbol : symbols) {
        if (symbol.defined && symbol.type == elf_type_tls && symbol.size > 0)
            shared_.push_back({demangle(symbol.name), symbol.value, symbol.size, symbol.value == dynamic_offset});
        if (symbol.defined && symbol.type == elf_type_tls &&
            symbol.name.find("thread_local_anchor") != std::string::npos)
            anchor_offset_ = symbol.value;
    }
    for (const auto& symbol : symbols) {
        if (!symbol.defined) continue;
        if (symbol.type == elf_type_tls && !is_prelude_symbol(symbol.name) && symbol.value != dynamic_offset) {
            locals.push_back({demangle(symbol.name), symbol.size});
        } else if (symbol.type == elf_type_object && symbol.size > 0 && !is_prelude_symbol(symbol.name)) {
            const SimGlobal global{reinterpret_cast<void*>(base + symbol.value), symbol.size};
            globals_.emplace(symbol.name, global);
            globals_.emplace(demangle(symbol.name), global);
        }
    }
    for (unsigned i = 0; i < record_->kernel_count; ++i) {
        SimKernel kernel;
        kernel.module = this;
        kernel.record = &record_->kernels[i];
        kernel.name = kernel.record->name;
        kernels_.push_back(std::move(kernel));
    }
    for (const auto& local : locals) {
        bool owned = false;
        for (auto& kernel : kernels_) {
            if (belongs_to(local.owner, kernel.name)) {
                kernel.static_shared_bytes += local.size;
                owned = true;
            }
        }
        if (!owned) shared_for_all += local.size;
    }
    for (auto& kernel : kernels_) kernel.static_shared_bytes += shared_for_all;
}

SimModule::~SimModule() {
    // Unloading fails only for a handle we never opened; nothing to report from a destructor.
    if (handle_) dlclose(handle_);
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove(path_, ignored);
}

std::uintptr_t SimModule::thread_local_block() const {
    return reinterpret_cast<std::uintptr_t>(record_->prepare_thread()) - anchor_offset_;
}

SourceLocation SimModule::source_of(const void* return_address) const {
    if (path_.empty() || !return_address) return {};
    // The call that reported the access ends just before its return address.
    const auto offset = reinterpret_cast<std::uintptr_t>(return_address) - 1 - base_;
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%lx", static_cast<unsigned long>(offset));
    // With -i, addr2line lists the inlining chain, innermost first: the access is the user's at
    // the first frame outside the prelude's headers (an atomicAdd reports its caller's line).
    const auto result = run_process({"addr2line", "-C", "-f", "-i", "--basenames", "-e", path_, hex});
    if (result.exit_code != 0) return {};
    const auto is_prelude = [](std::string_view file) {
        for (const auto& header : prelude_files())
            if (file == header.name) return true;
        return false;
    };
    std::vector<SourceLocation> frames;
    for (std::size_t at = 0; at < result.output.size();) {
        const auto function_end = result.output.find('\n', at);
        if (function_end == std::string::npos) break;
        const auto where_end = result.output.find('\n', function_end + 1);
        std::string where = result.output.substr(function_end + 1, where_end - function_end - 1);
        where = where.substr(0, where.find(' '));
        SourceLocation frame;
        frame.function = result.output.substr(at, function_end - at);
        if (const auto colon = where.rfind(':'); colon != std::string::npos) {
            frame.file = where.substr(0, colon);
            frame.line = std::atoi(where.c_str() + colon + 1);
            if (frame.file == "??") frame.file.clear();
        }
        frames.push_back(std::move(frame));
        if (where_end == std::string::npos) break;
        at = where_end + 1;
    }
    if (frames.empty()) return {};
    for (const auto& frame : frames)
        if (!is_prelude(frame.file)) return frame;
    return frames.front();
}

const SimKernel* SimModule::kernel(std::string_view name) const {
    for (const auto& kernel : kernels_)
        if (kernel.name == name) return &kernel;
    return nullptr;
}

std::vector<std::string> SimModule::kernel_names() const {
    std::vector<std::string> names;
    for (const auto& kernel : kernels_) names.push_back(kernel.name);
    return names;
}

std::vector<std::string> SimModule::global_names() const {
    std::vector<std::string> names;
    for (const auto& entry : globals_) {
        const auto& [name, global] = entry;
        const auto begin = reinterpret_cast<std::uintptr_t>(global.address);
        const std::size_t size = global.size;
        const bool writable = std::any_of(writable_.begin(), writable_.end(), [&](const auto& range) {
            return begin >= range.first && begin + size <= range.second;
        });
        if (!writable) continue;
        // Each variable is listed under its symbol and its demangled name: keep the first seen.
        const void* address = global.address;
        const bool seen = std::any_of(names.begin(), names.end(),
                                      [&](const std::string& n) { return globals_.at(n).address == address; });
        if (!seen) names.push_back(name);
    }
    return names;
}

std::optional<SimGlobal> SimModule::global(std::string_view name) const {
    if (auto it = globals_.find(name); it != globals_.end()) return it->second;
    return std::nullopt;
}

}  // namespace gpukit::detail::sim
