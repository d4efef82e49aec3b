// src/backends/sim/host_compiler.cpp: CUDA C source → kernel module, with the host C++ compiler.
//
// The translation unit is the prelude, then the user's source untouched under `#line 1
// "<program name>"` (so diagnostics name the user's lines), then a registry of the module's
// kernels that the runtime reads after dlopen. `extern __shared__` arrays are left undefined by
// the compiler; a second small unit defines each as an alias of one dynamic shared buffer.
#include "backends/sim/host_compiler.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "backends/sim/check/tools.hpp"
#include "backends/sim/fiber_stacks.hpp"
#include "backends/sim/prelude/gpukit_sim_abi.h"
#include "backends/sim/prelude_files.hpp"
#include "backends/sim/sync_analysis.hpp"
#include "source/include_resolver.hpp"
#include "source/kernel_declarations.hpp"
#include "util/elf_symbols.hpp"
#include "util/files.hpp"
#include "util/process.hpp"
#include "util/sha256.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim {

namespace {

namespace fs = std::filesystem;

// Flags gpukit always passes; part of the identity, so changing them recompiles the cache.
// -fno-gnu-unique: inline variables would otherwise make modules impossible to unload.
// -fvisibility=hidden -fno-semantic-interposition: kernels can be inlined into their block loop.
const std::vector<std::string> common_flags = {"-O2",
                                               "-fPIC",
                                               "-pthread",
                                               "-fno-strict-aliasing",
                                               "-fno-gnu-unique",
                                               "-fvisibility=hidden",
                                               "-fno-semantic-interposition",
                                               "-w"};

// TLS descriptors let the compiler keep a thread-local's address in a register across a block's
// loop instead of calling __tls_get_addr for every simulated thread (x86-64 g++; the default
// elsewhere).
std::vector<std::string> flags_for(const std::string& compiler) {
    std::vector<std::string> flags = common_flags;
    flags.push_back(concat("-DGPUKIT_SIM_STACK_BYTES=", simulated_stack_bytes()));
#if defined(__x86_64__)
    if (compiler.find("clang") == std::string::npos) flags.push_back("-mtls-dialect=gnu2");
#endif
    return flags;
}
constexpr const char* registry_file_name = "<gpukit kernel registry>";
// Bump when what this file generates changes (registry, aliases, link steps): part of the identity.
constexpr int pipeline_version = 13;

// A scratch directory, removed with everything in it when the compile is over.
class WorkDirectory {
public:
    WorkDirectory() {
        std::string pattern = (fs::temp_directory_path() / "gpukit-sim-XXXXXX").string();
        if (!mkdtemp(pattern.data()))
            throw BackendUnavailableError(concat("Cannot create a directory for the simulator's compiler under ",
                                                 fs::temp_directory_path().string()));
        path_ = pattern;
    }
    ~WorkDirectory() {
        std::error_code ignored;  // a leftover temporary directory is not worth an exception
        // GPUKIT_SIM_KEEP=<dir>: keep the generated sources and objects there, for inspection.
        if (const char* keep = std::getenv("GPUKIT_SIM_KEEP"); keep && *keep) {
            fs::create_directories(keep, ignored);
            fs::copy(path_, fs::path(keep) / path_.filename(), fs::copy_options::recursive, ignored);
        }
        fs::remove_all(path_, ignored);
    }
    WorkDirectory(const WorkDirectory&) = delete;
    WorkDirectory& operator=(const WorkDirectory&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

void write_file(const fs::path& path, std::string_view text) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) throw BackendUnavailableError(concat("Cannot write ", path.string()));
}

// The bytes of a file the compile wrote or read; empty when it is not there.
std::string read_all(const fs::path& path) { return read_file(path).value_or(std::string()); }

std::string prelude_hash() {
    static const std::string hash = [] {
        Sha256 sha;
        for (const auto& file : prelude_files()) {
            sha.update(file.name);
            sha.update(std::string_view("\0", 1));
            sha.update(file.text);
        }
        const auto digest = sha.finish();
        return to_hex(digest);
    }();
    return hash;
}

// The user's options in the host compiler's words; NVRTC-only ones are dropped with a note.
std::vector<std::string> translate_options(const CompileOptions& options, std::string& notes) {
    std::vector<std::string> flags;
    if (!options.std.empty()) flags.push_back("-std=" + options.std);
    for (const auto& [name, value] : options.defines)
        flags.push_back(value.empty() ? concat("-D", name) : concat("-D", name, "=", value));
    for (const auto& dir : options.include_dirs) flags.push_back("-I" + dir.string());
    if (options.fast_math) {
        flags.push_back("-fno-math-errno");
        flags.push_back("-fno-trapping-math");
    }
    for (const auto& option : options.extra_options) {
        static const char* const passed[] = {"-D", "-U", "-I", "-std=", "-O", "-f", "-W", "-g", "-m"};
        bool pass = false;
        for (const char* prefix : passed) pass |= option.rfind(prefix, 0) == 0;
        if (option == "--use_fast_math" || option == "-use_fast_math") {
            flags.push_back("-fno-math-errno");
        } else if (pass && option.rfind("-maxrregcount", 0) != 0) {
            flags.push_back(option);
        } else {
            notes += concat("gpukit simulator: ignoring the NVRTC option ", option, "\n");
        }
    }
    return flags;
}

// Every text the kernels may be defined in: the source, string headers, headers found through -I.
std::vector<std::string> source_texts(const CompileInput& input) {
    std::vector<std::string> texts{std::string(input.source)};
    IncludeSearch search;
    for (const auto& header : input.options.headers) {
        texts.push_back(header.source);
        search.string_headers.push_back({header.name, header.source});
    }
    search.directories = input.options.include_dirs;
    if (may_include(input.source))
        walk_includes(input.source, search, [&](const ReachedHeader& reached) {
            if (reached.origin == HeaderOrigin::file) texts.emplace_back(reached.content);
        });
    return texts;
}

struct Registration {
    std::string name;        // what Module::kernel looks up
    std::string expression;  // what `&` is applied to in the registry
};

std::vector<Registration> kernels_to_register(const CompileInput& input, const std::vector<std::string>& texts) {
    std::vector<Registration> registrations;
    std::set<std::string> names;
    std::vector<DeclaredKernel> declared;
    for (const auto& text : texts)
        for (auto& kernel : declared_kernels(text)) declared.push_back(std::move(kernel));
    std::map<std::string, int> base_name_count;
    for (const auto& kernel : declared) ++base_name_count[kernel.name];
    for (const auto& kernel : declared) {
        if (kernel.is_template || kernel.is_overloaded) continue;  // need a name expression
        if (names.insert(kernel.qualified_name).second)
            registrations.push_back({kernel.qualified_name, "::" + kernel.qualified_name});
        if (kernel.name != kernel.qualified_name && base_name_count[kernel.name] == 1 &&
            names.insert(kernel.name).second)
            registrations.push_back({kernel.name, "::" + kernel.qualified_name});
    }
    for (const auto& expression : input.options.name_expressions) {
        std::string address = expression;
        if (!address.empty() && address.front() == '&') address.erase(0, 1);
        if (names.insert(expression).second) registrations.push_back({expression, address});
    }
    return registrations;
}

// `text` as a C++ string literal: printable ASCII as it is, anything else as a three-digit octal
// escape (which no following digit can extend).
std::string string_literal(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\' && c != '?') {
            out += c;
        } else {
            out += {'\\', static_cast<char>('0' + (byte >> 6)), static_cast<char>('0' + ((byte >> 3) & 7)),
                    static_cast<char>('0' + (byte & 7))};
        }
    }
    return out + "\"";
}

// What check mode needs of the source beside the debug lines: the program's name, as the user
// gave it, and the names of its __constant__ variables (a list "a\0b\0\0"), read by SimModule.
std::string source_records(const std::string& program_name, const std::vector<std::string>& texts) {
    std::string constants;
    for (const auto& text : texts)
        for (const auto& name : declared_constant_names(text)) constants += name + '\0';
    return concat("GPUKIT_SIM_EXPORT const char* gpukit_sim_program_name() { return ", string_literal(program_name),
                  "; }\n", "GPUKIT_SIM_EXPORT const char* gpukit_sim_constant_names() { return ",
                  string_literal(constants), "; }\n");
}

std::string registry_source(const std::vector<Registration>& registrations, const SyncAnalysis& analysis,
                            unsigned check_tools) {
    std::string records;
    for (const auto& registration : registrations) {
        records += concat("    ::gpukit_sim::kernel_record<&", registration.expression, ">(\"", registration.name,
                          "\", ", analysis.may_synchronise(registration.name) ? "true" : "false", "),\n");
    }
    if (records.empty()) records = "    ::gpukit_sim::KernelRecord{},\n";  // no kernels: keep the array legal
    return concat("\nnamespace {\nconst ::gpukit_sim::KernelRecord gpukit_sim_kernel_records[] = {\n", records,
                  "};\n}  // namespace\n\n",
                  "GPUKIT_SIM_EXPORT const ::gpukit_sim::ModuleRecord* gpukit_sim_module(\n"
                  "    const ::gpukit_sim::RuntimeHooks* hooks) {\n"
                  "    ::gpukit_sim::hooks = hooks;\n"
                  "    static const ::gpukit_sim::ModuleRecord record{\n"
                  "        ::gpukit_sim::kAbiVersion, ",
                  registrations.size(),
                  ", gpukit_sim_kernel_records,\n"
                  "        gpukit_sim_dynamic_shared_capacity ? gpukit_sim_dynamic_shared_capacity() : 0,\n"
                  "        ::gpukit_sim::kStackBytes, &::gpukit_sim::prepare_thread, ",
                  check_tools,
                  "u};\n"
                  "    return &record;\n"
                  "}\n");
}

// One buffer behind every extern __shared__ array: each undefined thread-local symbol the
// compiler left becomes an alias of it, so they all share one base address, as on the GPU.
// `init_functions`: the thread-local init hooks (_ZTH...) g++ calls for extern thread_local
// variables from position-independent code; they must exist even though there is nothing to run.
std::string dynamic_shared_source(const std::vector<std::string>& symbols,
                                  const std::vector<std::string>& init_functions) {
    std::string out = concat(
        "extern \"C\" {\n__attribute__((aligned(16))) thread_local unsigned char "
        "gpukit_sim_dynamic_shared[",
        dynamic_shared_capacity,
        "];\n__attribute__((visibility(\"default\"))) unsigned long gpukit_sim_dynamic_shared_capacity() "
        "{ return sizeof gpukit_sim_dynamic_shared; }\n}\n");
    for (std::size_t i = 0; i < symbols.size(); ++i)
        out += concat("extern thread_local unsigned char gpukit_sim_dynamic_alias_", i, "[] __asm__(\"", symbols[i],
                      "\") __attribute__((alias(\"gpukit_sim_dynamic_shared\")));\n");
    for (std::size_t i = 0; i < init_functions.size(); ++i)
        out += concat("extern \"C\" void gpukit_sim_tls_init_", i, "() __asm__(\"", init_functions[i], "\");\n",
                      "extern \"C\" void gpukit_sim_tls_init_", i, "() {}\n");
    return out;
}

// Compiler output with the scratch directory's paths removed, so it reads as the user's files.
std::string clean_log(std::string log, const fs::path& directory) {
    const std::string prefix = directory.string() + "/";
    for (std::size_t at; (at = log.find(prefix)) != std::string::npos;) log.erase(at, prefix.size());
    return trim_trailing(std::move(log));
}

}  // namespace

std::string host_compiler_path() {
    static const std::string path = [] {
        std::vector<std::string> names;
        if (const char* chosen = std::getenv("GPUKIT_SIM_CXX"); chosen && *chosen) names.push_back(chosen);
        if (const char* cxx = std::getenv("CXX"); cxx && *cxx) names.push_back(cxx);
        for (const char* name : {"c++", "g++", "clang++"}) names.emplace_back(name);
        return find_program(names);
    }();
    return path;
}

std::string HostCompiler::identity() const {
    static const std::string identity = [] {
        const auto path = host_compiler_path();
        if (path.empty())
            throw BackendUnavailableError(
                "The simulator needs a host C++ compiler and found none: set GPUKIT_SIM_CXX or CXX, or install g++");
        std::error_code ec;
        const auto size = fs::file_size(path, ec);
        const auto written = fs::last_write_time(path, ec).time_since_epoch().count();
        return concat("host C++ compiler ", path, " (", size, " bytes, written ", written, "); prelude ",
                      prelude_hash(), "; flags ", join(flags_for(path), " "), "; ABI ", gpukit_sim::kAbiVersion,
                      "; pipeline ", pipeline_version);
    }();
    return identity;
}

CompiledImage HostCompiler::compile(const CompileInput& input) const {
    identity();  // throws when there is no compiler
    const std::string compiler = host_compiler_path();
    const auto& options = input.options;
    WorkDirectory work;
    const fs::path prelude_dir = work.path() / "prelude";
    const fs::path header_dir = work.path() / "headers";
    for (const auto& file : prelude_files()) write_file(prelude_dir / file.name, file.text);
    for (const auto& header : options.headers) write_file(header_dir / header.name, header.source);
    fs::create_directories(header_dir);

    const auto texts = source_texts(input);
    std::vector<std::string_view> text_views(texts.begin(), texts.end());
    const auto analysis = analyse_synchronisation(text_views);
    const auto registrations = kernels_to_register(input, texts);

    const std::string unit =
        concat("#include \"gpukit_sim.h\"\n#line 1 \"", options.program_name, "\"\n", input.source, "\n#line 1 \"",
               registry_file_name, "\"\n", registry_source(registrations, analysis, input.check.bits()),
               input.check.empty() ? std::string() : source_records(options.program_name, texts));
    write_file(work.path() / "module.cpp", unit);

    std::string notes;
    std::vector<std::string> user_flags = translate_options(options, notes);
    std::vector<std::string> command = {compiler};
    auto flags = flags_for(compiler);
    if (!input.check.empty()) {
        // Check mode: every load and store calls a hook (ThreadSanitizer's instrumentation, our
        // runtime); debug lines name the source of each access. A tool that needs every store the
        // source makes gets -Og (check::ToolNeeds::every_store); the others judge addresses, which
        // the optimiser keeps: -O2, faster.
        const bool every_store = check::needs_of(input.check).every_store;
        flags.erase(std::remove(flags.begin(), flags.end(), "-O2"), flags.end());
        flags.insert(flags.end(),
                     {every_store ? "-Og" : "-O2", "-g", "-fsanitize=thread", "-fno-optimize-sibling-calls",
                      "-Wno-tsan", concat("-DGPUKIT_SIM_CHECK=", input.check.bits())});
        // No call at every function's entry and exit: the runtime keeps no shadow call stack.
        if (compiler.find("clang") == std::string::npos) {
            flags.emplace_back("--param=tsan-instrument-func-entry-exit=0");
        } else {
            flags.insert(flags.end(), {"-mllvm", "-tsan-instrument-func-entry-exit=false"});
        }
    } else {
        // Line tables only (no cost when running): a faulting kernel's report names its line.
        flags.emplace_back("-g1");
    }
    command.insert(command.end(), flags.begin(), flags.end());
    command.push_back("-I" + prelude_dir.string());
    command.push_back("-I" + header_dir.string());
    command.insert(command.end(), user_flags.begin(), user_flags.end());
    auto compile_unit = [&](const std::string& source, const std::string& object) {
        std::vector<std::string> args = command;
        args.insert(args.end(), {"-c", (work.path() / source).string(), "-o", (work.path() / object).string()});
        return run_process(args);
    };

    const auto compiled = compile_unit("module.cpp", "module.o");
    if (compiled.exit_code != 0)
        throw CompileError(options.program_name, input.target, clean_log(compiled.output, work.path()), user_flags,
                           std::string(input.source));
    std::string log = notes + clean_log(compiled.output, work.path());

    std::vector<std::string> objects = {(work.path() / "module.o").string()};
    std::vector<std::string> dynamic_arrays;
    std::vector<std::string> init_functions;
    for (const auto& symbol : read_elf_symbols(read_all(work.path() / "module.o"))) {
        if (symbol.defined) continue;
        // _TLS_MODULE_BASE_ is the linker's own (TLS descriptors refer to it).
        if (symbol.type == elf_type_tls && symbol.name != "_TLS_MODULE_BASE_") dynamic_arrays.push_back(symbol.name);
        if (symbol.name.rfind("_ZTH", 0) == 0) init_functions.push_back(symbol.name);
    }
    if (!dynamic_arrays.empty()) {
        write_file(work.path() / "dynamic_shared.cpp", dynamic_shared_source(dynamic_arrays, init_functions));
        const auto aliases = compile_unit("dynamic_shared.cpp", "dynamic_shared.o");
        if (aliases.exit_code != 0)
            throw CompileError(
                options.program_name, input.target,
                "linking the extern __shared__ arrays failed:\n" + clean_log(aliases.output, work.path()), user_flags,
                std::string(input.source));
        objects.push_back((work.path() / "dynamic_shared.o").string());
    }

    std::vector<std::string> link = {
        compiler, "-shared", "-pthread", "-Wl,--no-undefined", "-o", (work.path() / "module.so").string()};
    link.insert(link.end(), objects.begin(), objects.end());
    const auto linked = run_process(link);
    if (linked.exit_code != 0)
        throw CompileError(options.program_name, input.target, clean_log(linked.output, work.path()), user_flags,
                           std::string(input.source));

    CompiledImage image;
    image.format = ImageFormat::shared_object;
    image.data = read_all(work.path() / "module.so");
    image.log = trim_trailing(log);
    for (const auto& expression : options.name_expressions) image.lowered_names.emplace_back(expression, expression);
    return image;
}

const HostCompiler& host_compiler() {
    static const HostCompiler compiler;
    return compiler;
}

}  // namespace gpukit::detail::sim
