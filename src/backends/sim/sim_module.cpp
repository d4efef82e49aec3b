// src/backends/sim/sim_module.cpp: a compiled kernel module loaded into the process.
#include "backends/sim/sim_module.hpp"

#include "backends/sim/prelude_files.hpp"
#include "backends/sim/red_zones.hpp"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "backends/sim/fiber_stacks.hpp"
#include "gpukit/error.hpp"
#include "util/elf_symbols.hpp"
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

namespace {

struct DataSpan {
    std::uint64_t begin, end;  // page-aligned, relative to the load base
    bool writable;
};

// The page spans of the image's segments that are not code, merged where they share pages.
std::vector<DataSpan> data_spans(std::string_view image) {
    const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    std::vector<DataSpan> spans;
    for (const auto& segment : read_elf_segments(image)) {
        if (segment.executable || segment.end <= segment.begin) continue;
        spans.push_back({segment.begin / page * page, (segment.end + page - 1) / page * page, segment.writable});
    }
    std::sort(spans.begin(), spans.end(), [](const DataSpan& a, const DataSpan& b) { return a.begin < b.begin; });
    std::vector<DataSpan> merged;
    for (const auto& span : spans) {
        if (!merged.empty() && span.begin < merged.back().end) {
            merged.back().end = std::max(merged.back().end, span.end);
            merged.back().writable |= span.writable;
        } else {
            merged.push_back(span);
        }
    }
    return merged;
}

}  // namespace

std::size_t module_data_bytes(std::string_view image) {
    std::size_t bytes = 0;
    for (const auto& span : data_spans(image)) bytes += span.end - span.begin;
    return bytes;
}

SimModule::SimModule(std::string_view image, const gpukit_sim::RuntimeHooks& hooks, const ModulePlacement& placement) {
    // dlopen needs a file, and one name per module: the dynamic linker hands back an already
    // loaded library for a name it has seen. The file stays while the module is loaded.
    path_ = placement.directory->write_file(placement.file_name, image, 0700).string();
    handle_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        const char* why = dlerror();
        std::error_code ignored;
        std::filesystem::remove(path_, ignored);
        throw BackendUnavailableError(concat("The dynamic linker refused a kernel module: ", why ? why : "unknown"));
    }
    auto entry = reinterpret_cast<gpukit_sim_module_entry>(dlsym(handle_, "gpukit_sim_module"));
    if (!entry) {
        dlclose(handle_);
        handle_ = nullptr;
        throw InvalidArgumentError("The image is not a gpukit simulator module (no gpukit_sim_module entry)");
    }
    record_ = entry(&hooks);
    if (record_->abi_version != gpukit_sim::kAbiVersion || record_->stack_bytes != simulated_stack_bytes()) {
        const auto abi = record_->abi_version;
        const auto stack = record_->stack_bytes;
        dlclose(handle_);
        handle_ = nullptr;
        throw InvalidArgumentError(concat("The kernel module was built for simulator ABI ", abi, " and ", stack,
                                          "-byte stacks; this process runs ABI ", gpukit_sim::kAbiVersion, " with ",
                                          simulated_stack_bytes(), "-byte stacks: compile it again"));
    }

    link_map* map = nullptr;
    dlinfo(handle_, RTLD_DI_LINKMAP, &map);
    const auto base = map ? map->l_addr : 0;
    base_ = base;
    const auto symbols = read_elf_symbols(image);
    for (const auto& segment : read_elf_segments(image)) {
        segments_.emplace_back(base + segment.begin, base + segment.end);
        if (segment.executable) code_ = {base + segment.begin, base + segment.end};
    }
    place_data(image, placement, symbols);
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
            const std::uintptr_t address = base + symbol.value;
            std::uint64_t device = 0;
            for (const auto& range : data_)
                if (address >= range.begin && address + symbol.size <= range.end)
                    device = range.device + (address - range.begin);
            const SimGlobal global{reinterpret_cast<void*>(address), symbol.size, device};
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
    // Check mode's red zones, where the compile put them: around every variable alone in its
    // section, which is every variable but one the source placed in a section itself.
    const bool red_zones = std::any_of(symbols.begin(), symbols.end(), [](const ElfSymbol& symbol) {
        return symbol.defined && symbol.name == red_zone_marker;
    });
    if (red_zones) {
        for (auto& variable : variables_) variable.red_zone = red_zone_bytes(variable.end - variable.begin);
        for (const auto& symbol : symbols) {
            if (!symbol.defined || symbol.type != elf_type_tls || is_prelude_symbol(symbol.name)) continue;
            for (auto& variable : shared_)
                if (variable.offset == symbol.value && !variable.dynamic)
                    variable.red_zone = red_zone_bytes(variable.size);
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

void SimModule::place_data(std::string_view image, const ModulePlacement& placement,
                           const std::vector<ElfSymbol>& symbols) {
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    std::uint64_t device = placement.data;
    for (const auto& span : data_spans(image)) {
        const std::uintptr_t begin = base_ + span.begin;
        const std::uintptr_t end = base_ + span.end;
        void* const target = reinterpret_cast<void*>(device);
        // After a restart of the device process the pages hold the variables' values from before
        // it: the fresh pages take them over (the rest of the pages is this load's own).
        std::vector<std::pair<std::uintptr_t, std::string>> kept;
        if (placement.keep_values && span.writable)
            for (const auto& symbol : symbols) {
                const std::uintptr_t address = base_ + symbol.value;
                if (!symbol.defined || symbol.type != elf_type_object || symbol.size == 0 || address < begin ||
                    address + symbol.size > end || is_prelude_symbol(symbol.name))
                    continue;
                kept.emplace_back(address - begin,
                                  std::string(static_cast<const char*>(target) + (address - begin), symbol.size));
            }
        std::memcpy(target, reinterpret_cast<const void*>(begin), end - begin);
        for (const auto& [offset, bytes] : kept)
            std::memcpy(static_cast<char*>(target) + offset, bytes.data(), bytes.size());
        const int protection = span.writable ? PROT_READ | PROT_WRITE : PROT_READ;
        if (mmap(reinterpret_cast<void*>(begin), end - begin, protection, MAP_SHARED | MAP_FIXED, placement.memory_fd,
                 static_cast<off_t>(device - placement.memory_base)) == MAP_FAILED)
            throw BackendUnavailableError(concat(
                "The simulator cannot move a module's variables into device memory (mmap: ", std::strerror(errno),
                ")"));
        data_.push_back({begin, end, device});
        device += end - begin;
    }
    // What the dynamic linker had made read-only after relocating (as it rounds: whole pages).
    const auto [relro_begin, relro_end] = read_elf_relro(image);
    const std::uintptr_t protect_begin = (base_ + relro_begin) / page * page;
    const std::uintptr_t protect_end = (base_ + relro_end) / page * page;
    if (relro_end > relro_begin && protect_end > protect_begin)
        mprotect(reinterpret_cast<void*>(protect_begin), protect_end - protect_begin, PROT_READ);
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

namespace {

// The inlining chain of the instruction at `offset` in the shared object at `path`, innermost
// first (addr2line -i); none when unknown or where there is no addr2line.
std::vector<SourceLocation> inlining_chain(const std::string& path, std::uintptr_t offset, bool basenames) {
    if (path.empty()) return {};
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%lx", static_cast<unsigned long>(offset));
    std::vector<std::string> command = {"addr2line", "-C", "-f", "-i"};
    if (basenames) command.emplace_back("--basenames");
    command.insert(command.end(), {"-e", path, hex});
    ProcessResult result;
    try {
        result = run_process(command);
    } catch (const std::exception&) {
        return {};  // no addr2line here: lines are a nicety
    }
    if (result.exit_code != 0) return {};
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
    return frames;
}

bool is_prelude_file(std::string_view file) {
    const auto slash = file.rfind('/');
    const std::string_view base = slash == std::string_view::npos ? file : file.substr(slash + 1);
    for (const auto& header : prelude_files())
        if (base == header.name) return true;
    return false;
}

}  // namespace

SourceLocation source_location(const std::string& path, std::uintptr_t offset) {
    // With -i, addr2line lists the inlining chain, innermost first: the access is the user's at
    // the first frame outside the prelude's headers (an atomicAdd reports its caller's line).
    const auto frames = inlining_chain(path, offset, true);
    if (frames.empty()) return {};
    for (const auto& frame : frames)
        if (!frame.file.empty() && !is_prelude_file(frame.file)) return frame;
    return frames.front();
}

SourceLocation SimModule::locate(std::uintptr_t offset) const {
    const auto frames = inlining_chain(path_, offset, false);
    if (frames.empty()) return {};
    const auto is_prelude = [this](std::string_view file) {
        if (!compile_directory_.empty()) return file.rfind(compile_directory_ + "prelude/", 0) == 0;
        return is_prelude_file(file);
    };
    SourceLocation chosen = frames.front();
    for (const auto& frame : frames) {
        if (!frame.file.empty() && !is_prelude(frame.file)) {
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

SourceLocation SimModule::source_of(const void* return_address) const {
    if (!return_address) return {};
    // The call that reported the access ends just before its return address.
    return locate(reinterpret_cast<std::uintptr_t>(return_address) - 1 - base_);
}

SourceLocation SimModule::source_at(const void* pc) const {
    const auto address = reinterpret_cast<std::uintptr_t>(pc);
    if (address < code_.first || address >= code_.second) return {};
    return locate(address - base_);
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
