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
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "backends/sim/check/tools.hpp"
#include "backends/sim/fiber_stacks.hpp"
#include "backends/sim/prelude/gpukit_sim_abi.h"
#include "backends/sim/prelude_files.hpp"
#include "backends/sim/red_zones.hpp"
#include "backends/sim/sync_analysis.hpp"
#include "source/include_resolver.hpp"
#include "source/kernel_declarations.hpp"
#include "util/elf_symbols.hpp"
#include "util/files.hpp"
#include "util/private_files.hpp"
#include "util/process.hpp"
#include "util/sha256.hpp"
#include "util/text.hpp"
#include "util/warning.hpp"

namespace gpukit::detail::sim {

namespace {

namespace fs = std::filesystem;

// Flags gpukit always passes; part of the identity, so changing them recompiles the cache.
// -fno-gnu-unique: inline variables would otherwise make modules impossible to unload.
// -fvisibility=hidden -fno-semantic-interposition: kernels can be inlined into their block loop.
// -fno-optimize-sibling-calls: recursion stays recursion, so unbounded recursion overflows the
// simulated thread's stack and is reported as such; turned into a loop (and, with signed
// overflow assumed away, an endless one) it hung the launch.
// -fstack-clash-protection: a frame larger than a page touches the stack's guard page on the way
// down instead of jumping over it into the stack below (another simulated thread's).
const std::vector<std::string> common_flags = {"-O2",
                                               "-fPIC",
                                               "-pthread",
                                               "-fno-strict-aliasing",
                                               "-fno-gnu-unique",
                                               "-fvisibility=hidden",
                                               "-fno-semantic-interposition",
                                               "-fno-optimize-sibling-calls",
                                               "-fstack-clash-protection",
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
constexpr int pipeline_version = 17;

// GPUKIT_SIM_KEEP=<dir>: where to keep each compile's generated sources and objects, for
// inspection. Checked before compiling, so that a directory another user could write (or owns) is
// an error rather than a place where gpukit's files could be swapped: it is created (mode 0700)
// if missing and must then be yours and writable by no one else.
std::optional<fs::path> kept_files_directory() {
    const char* keep = std::getenv("GPUKIT_SIM_KEEP");
    if (!keep || !*keep) return std::nullopt;
    if (auto problem = make_private_directory(keep))
        throw InvalidArgumentError(concat("GPUKIT_SIM_KEEP=", keep, ": cannot keep the simulator's files there: ",
                                          *problem, ". Choose a directory that is yours and that no one else can ",
                                          "write (gpukit creates a missing one with mode 0700), or unset it"));
    return fs::path(keep);
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

// The user's options in the host compiler's words. They were checked (CompileOptions::validate,
// core/option_policy.cpp): only the allowlist gets here. NVRTC options without a host meaning are
// noted in the log; check mode keeps its own optimisation level.
std::vector<std::string> translate_options(const CompileOptions& options, bool check_mode, std::string& notes) {
    using Kind = CompileOption::Kind;
    std::vector<std::string> flags;
    auto ignore = [&](const CompileOption& option, std::string_view why) {
        notes += concat("gpukit simulator: ignoring ", option.nvrtc.empty() ? "-O" + option.name : option.nvrtc, ": ",
                        why, "\n");
    };
    for (const CompileOption& option : options.parsed()) {
        switch (option.kind) {
            case Kind::define:
            case Kind::undefine: flags.push_back(option.nvrtc); break;
            // The compiler runs in the scratch directory: a relative directory is taken from here.
            case Kind::include_dir:
                flags.push_back("-I" + fs::absolute(option.name).lexically_normal().string());
                break;
            case Kind::std: flags.push_back("-std=" + option.name); break;
            case Kind::optimisation:
                if (check_mode)
                    ignore(option, "check mode compiles at the level its tools need");
                else
                    flags.push_back("-O" + option.name);
                break;
            case Kind::fast_math: flags.insert(flags.end(), {"-fno-math-errno", "-fno-trapping-math"}); break;
            case Kind::fast_math_part:
                if (option.name == "fmad")
                    flags.push_back(option.value == "true" ? "-ffp-contract=fast" : "-ffp-contract=off");
                else
                    ignore(option, "the host's arithmetic has no such mode");
                break;
            case Kind::device_debug:
            case Kind::debug_info: flags.push_back("-g"); break;
            case Kind::line_info:           // check mode always knows lines; plain runs need none
            case Kind::no_warnings: break;  // the simulator compiles with -w always
            case Kind::max_registers: ignore(option, "simulated threads have no register limit"); break;
            case Kind::restrict_pointers:
            case Kind::device_only: ignore(option, "an NVRTC option without a meaning on the simulator"); break;
        }
    }
    return flags;
}

// The directories the host compiler searches for <...> headers by itself, each absolute and
// normal: files under them are the compiler's and the C library's own, which any kernel may use.
const std::vector<fs::path>& compiler_include_directories(const std::string& compiler) {
    static const std::vector<fs::path> directories = [&] {
        std::vector<fs::path> found;
        const auto listed = run_process({compiler, "-xc++", "-E", "-v", "/dev/null"});
        const std::string& out = listed.output;
        const std::size_t start = out.find("#include <...> search starts here:");
        const std::size_t end = out.find("End of search list.", start);
        if (start == std::string::npos || end == std::string::npos) return found;
        std::size_t at = out.find('\n', start);
        while (at != std::string::npos && at < end) {
            const std::size_t next = out.find('\n', at + 1);
            std::string line = out.substr(at + 1, std::min(next, end) - at - 1);
            if (const auto framework = line.find(" (framework directory)"); framework != std::string::npos)
                line.erase(framework);
            if (const auto first = line.find_first_not_of(" \t"); first != std::string::npos)
                found.push_back(fs::path(line.substr(first)).lexically_normal());
            at = next;
        }
        return found;
    }();
    return directories;
}

// The files a make-style dependency file `<target>: a b \<newline> c` lists; nullopt when it is
// not one.
std::optional<std::vector<std::string>> dependencies_in(std::string_view text, std::string_view target) {
    if (!text.starts_with(target) || text.substr(target.size(), 1) != ":") return std::nullopt;
    std::vector<std::string> files;
    std::string current;
    for (std::size_t i = target.size() + 1; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
            ++i;
        } else if (i + 1 < text.size() &&
                   ((c == '\\' && (text[i + 1] == ' ' || text[i + 1] == '#')) || (c == '$' && text[i + 1] == '$'))) {
            current += text[++i];  // an escaped space or '#', or "$$" for '$'
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (!current.empty()) files.push_back(std::move(current));
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty()) files.push_back(std::move(current));
    return files;
}

bool is_within(const fs::path& path, const fs::path& root) {
    auto [root_end, path_at] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
    return root_end == root.end() || (std::next(root_end) == root.end() && root_end->empty());
}

// The first file the compile read that lies outside every allowed directory (the scratch
// directory, the -I directories, the compiler's own), by its path as written and as resolved.
// Behind the include rules the cache checks before compiling (source/include_resolver.hpp): what
// a reader of the source cannot see (an include in a header, through a macro) the compiler's own
// list of what it read still shows.
std::optional<std::string> file_outside_roots(const std::vector<std::string>& files,
                                              const std::vector<fs::path>& roots) {
    std::vector<fs::path> resolved_roots;
    for (const fs::path& root : roots) {
        std::error_code error;
        fs::path resolved = fs::weakly_canonical(root, error);
        if (!error) resolved_roots.push_back(std::move(resolved));
    }
    auto inside = [](const fs::path& path, const std::vector<fs::path>& candidates) {
        return std::any_of(candidates.begin(), candidates.end(),
                           [&](const fs::path& root) { return is_within(path, root); });
    };
    for (const std::string& file : files) {
        if (inside(fs::absolute(file).lexically_normal(), roots)) continue;
        std::error_code error;
        const fs::path resolved = fs::weakly_canonical(file, error);
        if (!error && inside(resolved, resolved_roots)) continue;
        return file;
    }
    return std::nullopt;
}

// Whether a text handed in with the source names a file in a `#line` directive: GCC quotes a
// diagnostic's line from the file the line is attributed to, so that file could be any file.
bool names_files_in_line_directives(std::string_view text) {
    if (text.find('#') == std::string_view::npos && text.find("%:") == std::string_view::npos) return false;
    return Preprocessor(text, PreprocessorOptions{.multi_char_puncts = {}, .keep_tokens = false})
        .names_files_in_line_directives();
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
    if (may_include(input.source))  // refused headers: the cache refused the compile already
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

// What a compile is refused with when the compiler read a file it must not have, or when what it
// read cannot be told: its log might quote that file, so only this is said.
[[noreturn]] void refuse_files_read(const CompileInput& input, const std::vector<std::string>& user_flags,
                                    const std::string& why) {
    throw CompileError(input.options.program_name, input.target,
                       concat(input.options.program_name, ": error: ", why,
                              "; headers come only from string headers, the include directories (-I), and gpukit's "
                              "and the compiler's own headers, so the compile is refused and the compiler's log "
                              "withheld"),
                       user_flags, std::string(input.source));
}

// module.s, the check-mode compile's assembly, as module.o with red zones around its variables
// (red_zones.hpp). Should the assembler refuse the padded text, the module goes without them,
// and says so: memcheck then misses an index that lands inside a neighbouring variable.
void assemble_with_red_zones(const PrivateDirectory& work, const std::string& compiler, const CompileInput& input,
                             const std::vector<std::string>& user_flags) {
    const fs::path user_dir = work.path() / "user";
    work.write_file("module.padded.s", add_red_zones(read_all(work.path() / "module.s")));
    // No -g: the compiler's assembly carries its debug lines already.
    auto assemble = [&](const char* source) {
        return run_process({compiler, "-c", (work.path() / source).string(), "-o", (work.path() / "module.o").string()},
                           user_dir);
    };
    const auto padded = assemble("module.padded.s");
    if (padded.exit_code == 0) return;
    warn_once(
        concat("gpukit simulator: check mode could not put red zones around the variables of a module (the "
               "assembler refused them: ",
               clean_log(padded.output, work.path()),
               "); memcheck misses an index that runs from one __constant__, __device__ or __shared__ "
               "variable into its neighbour. Please report this with the kernel's source"));
    const auto plain = assemble("module.s");
    if (plain.exit_code != 0)
        throw CompileError(input.options.program_name, input.target, clean_log(plain.output, work.path()), user_flags,
                           std::string(input.source));
}

CompiledImage compile_in(const PrivateDirectory& work, const CompileInput& input) {
    const std::string compiler = host_compiler_path();
    const auto& options = input.options;
    const auto& system_directories = compiler_include_directories(compiler);
    if (system_directories.empty())
        throw BackendUnavailableError(concat("The simulator could not read the host compiler's header search list (",
                                             compiler,
                                             " -xc++ -E -v /dev/null), which it needs to check what a "
                                             "compile reads; set GPUKIT_SIM_CXX to a g++ or clang++"));
    const fs::path prelude_dir = work.make_directory("prelude");
    const fs::path header_dir = work.make_directory("headers");
    // The compiler runs in user/, which holds only the source, under its own name: a diagnostic
    // quotes its lines from there (GCC reads the file a `#line` names), and from nothing else.
    const fs::path user_dir = work.make_directory("user");
    for (const auto& file : prelude_files()) work.write_file(concat("prelude/", file.name), file.text);
    for (const auto& header : options.headers) work.write_file(concat("headers/", header.name), header.source);
    work.write_file(concat("user/", options.program_name), input.source);

    const auto texts = source_texts(input);
    std::vector<std::string_view> text_views(texts.begin(), texts.end());
    const auto analysis = analyse_synchronisation(text_views);
    const auto registrations = kernels_to_register(input, texts);

    const std::string unit =
        concat("#include \"gpukit_sim.h\"\n#line 1 \"", options.program_name, "\"\n", input.source, "\n#line 1 \"",
               registry_file_name, "\"\n", registry_source(registrations, analysis, input.check.bits()),
               input.check.empty() ? std::string() : source_records(options.program_name, texts));
    work.write_file("module.cpp", unit);

    std::string notes;
    std::vector<std::string> user_flags = translate_options(options, !input.check.empty(), notes);
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
                     {every_store ? "-Og" : "-O2", "-g1", "-fsanitize=thread", "-fno-optimize-sibling-calls",
                      "-Wno-tsan", concat("-DGPUKIT_SIM_CHECK=", input.check.bits())});
        // Each variable alone in a section named after it, reached through its own symbol: the
        // red zones go around it there (red_zones.hpp).
        flags.emplace_back("-fdata-sections");
        // No call at every function's entry and exit: the runtime keeps no shadow call stack.
        if (compiler.find("clang") == std::string::npos) {
            flags.emplace_back("-fno-section-anchors");
            flags.emplace_back("--param=tsan-instrument-func-entry-exit=0");
            // g++'s -Og leaves small aggregates (the uint3 of threadIdx and friends) on the stack,
            // written a field at a time and read back whole: a store-forwarding stall at every
            // use, half of racecheck's time on vector add. Scalar replacement keeps them in
            // registers and never touches a store to memory (clang's -Og does it already).
            if (every_store) flags.emplace_back("-ftree-sra");
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
    // `stage`: -c for an object, -S for assembly.
    auto compile_unit = [&](const std::string& source, const std::string& output, std::vector<std::string> more,
                            const char* stage = "-c") {
        std::vector<std::string> args = command;
        args.insert(args.end(), more.begin(), more.end());
        args.insert(args.end(), {stage, (work.path() / source).string(), "-o", (work.path() / output).string()});
        return run_process(args, user_dir);
    };

    // -MD: the compiler lists every file it read, even when the compile fails; checked below before
    // its log is shown. GCC quotes a diagnostic's line from the file a `#line` names: where the
    // source names one itself, no line is quoted.
    std::vector<std::string> module_flags = {"-MD", "-MF", (work.path() / "module.d").string(), "-MT", "gpukit-module"};
    const bool quotes_named_files = compiler.find("clang") == std::string::npos;  // clang quotes what it read
    if (quotes_named_files && (names_files_in_line_directives(input.source) ||
                               std::any_of(options.headers.begin(), options.headers.end(), [](const Header& header) {
                                   return names_files_in_line_directives(header.source);
                               })))
        module_flags.push_back("-fno-diagnostics-show-caret");
    // Check mode compiles to assembly, puts red zones around the variables, and assembles that.
    const bool red_zones = !input.check.empty();
    const auto compiled = red_zones ? compile_unit("module.cpp", "module.s", std::move(module_flags), "-S")
                                    : compile_unit("module.cpp", "module.o", std::move(module_flags));
    const std::optional<std::vector<std::string>> files_read =
        dependencies_in(read_all(work.path() / "module.d"), "gpukit-module");
    if (!files_read) refuse_files_read(input, user_flags, "gpukit could not read the list of files the compiler read");
    std::vector<fs::path> roots = {work.path().lexically_normal()};
    for (const CompileOption& option : options.parsed())
        if (option.kind == CompileOption::Kind::include_dir)
            roots.push_back(fs::absolute(option.name).lexically_normal());
    roots.insert(roots.end(), system_directories.begin(), system_directories.end());
    if (const auto outside = file_outside_roots(*files_read, roots))
        refuse_files_read(input, user_flags, concat("the compile read ", *outside, ", which is not allowed"));

    if (compiled.exit_code != 0)
        throw CompileError(options.program_name, input.target, clean_log(compiled.output, work.path()), user_flags,
                           std::string(input.source));
    std::string log = notes + clean_log(compiled.output, work.path());
    if (red_zones) assemble_with_red_zones(work, compiler, input, user_flags);

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
        work.write_file("dynamic_shared.cpp", dynamic_shared_source(dynamic_arrays, init_functions));
        const auto aliases = compile_unit("dynamic_shared.cpp", "dynamic_shared.o", {});
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
    const auto linked = run_process(link, user_dir);
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
    const std::optional<fs::path> keep = kept_files_directory();
    // Every file of the compile is created in here, exclusively; see util/private_files.hpp.
    const PrivateDirectory work("gpukit-sim-");
    try {
        CompiledImage image = compile_in(work, input);
        if (keep) work.copy_to(*keep);
        return image;
    } catch (const CompileError&) {
        // The files of a failed compile are the ones worth keeping; the compile's error comes first.
        if (keep) {
            try {
                work.copy_to(*keep);
            } catch (const Error& error) {
                warn_once(concat("GPUKIT_SIM_KEEP: ", error.what()));
            }
        }
        throw;
    }
}

const HostCompiler& host_compiler() {
    static const HostCompiler compiler;
    return compiler;
}

}  // namespace gpukit::detail::sim
