// src/backends/sim/sim_module.cpp: a compiled kernel module loaded into the process.
#include "backends/sim/sim_module.hpp"

#include "backends/sim/prelude_files.hpp"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// What made a variable the source did not declare: the prelude, the C++ runtime and the linker
// (their objects hold no data of the kernel's), or the compiler, for the source's own code
// (switch tables "CSWTCH.12", copies "table.0", vtables and type information, __func__).
ModuleVariable::Space space_of_internal(const std::string& symbol, const std::string& demangled) {
    if (is_prelude_symbol(symbol) || symbol.rfind("DW.ref.", 0) == 0 || symbol.rfind("completed.", 0) == 0)
        return ModuleVariable::Space::runtime;
    if (symbol.find('.') != std::string::npos) return ModuleVariable::Space::compiler;
    for (const char* prefix : {"_ZTV", "_ZTI", "_ZTS", "_ZTT"})
        if (symbol.rfind(prefix, 0) == 0) return ModuleVariable::Space::compiler;
    const auto last = demangled.rfind("::");
    const std::string_view base =
        last == std::string::npos ? std::string_view(demangled) : std::string_view(demangled).substr(last + 2);
    return base.rfind("__", 0) == 0 ? ModuleVariable::Space::compiler : ModuleVariable::Space::device;
}

// The text a module's `const char* symbol()` returns; null when the module has no such function.
const char* exported_text(void* handle, const char* symbol) {
    const auto function = reinterpret_cast<const char* (*)()>(dlsym(handle, symbol));
    return function ? function() : nullptr;
}

// The words of a list a module exports as "a\0b\0\0"; none when it has no such list.
std::vector<std::string> exported_words(void* handle, const char* symbol) {
    std::vector<std::string> words;
    for (const char* text = exported_text(handle, symbol); text && *text; text += std::strlen(text) + 1)
        words.emplace_back(text);
    return words;
}

// The last part of a qualified name: "ns::table" -> "table".
std::string_view unqualified(std::string_view name) {
    const auto last = name.rfind("::");
    return last == std::string_view::npos ? name : name.substr(last + 2);
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
    // What the compile recorded about its sources (the registry, gpukit_sim.h); older modules
    // recorded nothing, and their names stay as the debug lines give them.
    if (const char* name = exported_text(handle_, "gpukit_sim_program_name")) program_name_ = name;
    if (const char* prelude_file = exported_text(handle_, "gpukit_sim_prelude_file")) {
        const std::string_view file = prelude_file;
        constexpr std::string_view tail = "prelude/gpukit_sim.h";
        if (file.size() > tail.size() && file.substr(file.size() - tail.size()) == tail)
            compile_directory_ = std::string(file.substr(0, file.size() - tail.size()));
    }
    const auto constants = exported_words(handle_, "gpukit_sim_constant_names");
    for (const auto& symbol : symbols) {
        if (!symbol.defined || symbol.type != elf_type_object || symbol.size == 0) continue;
        ModuleVariable variable;
        variable.name = demangle(symbol.name);
        variable.begin = base + symbol.value;
        variable.end = variable.begin + symbol.size;
        variable.space = space_of_internal(symbol.name, variable.name);
        if (variable.space == ModuleVariable::Space::device &&
            std::find(constants.begin(), constants.end(), unqualified(variable.name)) != constants.end())
            variable.space = ModuleVariable::Space::constant;
        variables_.push_back(std::move(variable));
    }
    // By address; of aliases (one variable, several symbols) the source's own name is kept.
    std::sort(variables_.begin(), variables_.end(), [](const ModuleVariable& a, const ModuleVariable& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.space < b.space;
    });
    variables_.erase(std::unique(variables_.begin(), variables_.end(),
                                 [](const ModuleVariable& a, const ModuleVariable& b) { return a.begin == b.begin; }),
                     variables_.end());

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
    const auto result = run_process({"addr2line", "-C", "-f", "-i", "-e", path_, hex});
    if (result.exit_code != 0) return {};
    const auto is_prelude = [this](std::string_view file) {
        if (!compile_directory_.empty()) return file.rfind(compile_directory_ + "prelude/", 0) == 0;
        const auto slash = file.rfind('/');
        const std::string_view base = slash == std::string_view::npos ? file : file.substr(slash + 1);
        for (const auto& header : prelude_files())
            if (base == header.name) return true;
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
    SourceLocation chosen = frames.front();
    for (const auto& frame : frames) {
        if (!is_prelude(frame.file)) {
            chosen = frame;
            break;
        }
    }
    chosen.file = source_name(chosen.file);
    return chosen;
}

std::string SimModule::source_name(std::string_view compiled_path) const {
    const std::string_view path = compiled_path;
    if (path.empty()) return {};
    // The program's own source: its #line name, which the debug lines may join to the directory
    // the compiler ran in.
    if (!program_name_.empty()) {
        if (path == program_name_) return program_name_;
        if (path.size() > program_name_.size() && path.substr(path.size() - program_name_.size()) == program_name_ &&
            path[path.size() - program_name_.size() - 1] == '/' && program_name_.front() != '/')
            return program_name_;
    }
    // A header handed in CompileOptions::headers, or the prelude: written into the scratch directory.
    if (!compile_directory_.empty() && path.rfind(compile_directory_, 0) == 0) {
        std::string_view inside = path.substr(compile_directory_.size());
        for (std::string_view folder : {"headers/", "prelude/"})
            if (inside.rfind(folder, 0) == 0) return std::string(inside.substr(folder.size()));
        return std::string(inside);
    }
    if (program_name_.empty()) {  // a module from before the compile recorded its names
        const auto slash = path.rfind('/');
        return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
    }
    return std::string(path);
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
