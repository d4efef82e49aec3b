// src/core/option_policy.cpp: which compiler options and CompileOptions values gpukit accepts.
//
// One allowlist for every backend, in NVRTC's spellings, so that a program means the same on a
// GPU and on the simulator and no option reaches a compiler unchecked. On the simulator the host
// C++ compiler is a general-purpose tool: -fplugin=, -B, -Wp, and -o would run or overwrite other
// programs, so "pass through what looks like a flag" is not safe. Values are checked too: a
// program name becomes a file name and a `#line` string, a define a command-line argument.
#include "core/option_policy.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <set>
#include <system_error>

#include "gpukit/error.hpp"
#include "gpukit/module.hpp"
#include "util/private_files.hpp"
#include "util/text.hpp"

namespace gpukit {

namespace {

using Kind = CompileOption::Kind;
using detail::concat;

constexpr std::string_view accepted_text =
    "-D<name>[=<value>] (--define-macro=), -U<name> (--undefine-macro=), -I<dir> (--include-path=, an existing "
    "directory), -std=c++11|c++14|c++17|c++20 (--std=), -O0 -O1 -O2 -O3 -Os -Og (the simulator's optimisation), "
    "--use_fast_math, --ftz= --prec-div= --prec-sqrt= --fmad= (true or false), -G (--device-debug), -lineinfo "
    "(--generate-line-info), -g, -maxrregcount=<1-255>, --restrict, -w (--disable-warnings), and the NVRTC options "
    "--extra-device-vectorization, --dopt=on|off, --device-as-default-execution-space (-default-device), "
    "--builtin-move-forward= --builtin-initializer-list= (true or false), --diag-suppress= --diag-warn= "
    "--diag-error= (warning numbers, comma-separated), --display-error-number, --no-display-error-number; the "
    "target architecture is CompileOptions::target (Python: -arch=)";

[[noreturn]] void refuse(std::string_view option, std::string_view why) {
    throw InvalidArgumentError(concat("The compiler option '", option, "' is not accepted", why.empty() ? "" : ": ",
                                      why, ". Accepted options: ", accepted_text));
}

bool is_identifier(std::string_view text) {
    if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_')) return false;
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// NAME, or a function-like macro's NAME(a, b) or NAME(a, ...).
bool is_macro_name(std::string_view text) {
    const std::size_t open = text.find('(');
    if (open == std::string_view::npos) return is_identifier(text);
    if (!is_identifier(text.substr(0, open)) || text.back() != ')') return false;
    std::string_view parameters = text.substr(open + 1, text.size() - open - 2);
    if (parameters.find_first_not_of(" \t") == std::string_view::npos) return true;  // F()
    while (true) {
        const std::size_t comma = parameters.find(',');
        std::string_view parameter = parameters.substr(0, comma);
        parameter.remove_prefix(std::min(parameter.find_first_not_of(" \t"), parameter.size()));
        parameter.remove_suffix(parameter.size() - std::min(parameter.find_last_not_of(" \t") + 1, parameter.size()));
        const bool last = comma == std::string_view::npos;
        if (!(is_identifier(parameter) || (last && parameter == "..."))) return false;
        if (last) return true;
        parameters.remove_prefix(comma + 1);
    }
}

bool has_control_character(std::string_view text) {
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    });
}

// "NAME" or "NAME=VALUE" (the part after -D).
CompileOption parse_define(std::string_view option, std::string_view definition) {
    const std::size_t equals = definition.find('=');
    const std::string_view name = definition.substr(0, equals);
    const std::string_view value = equals == std::string_view::npos ? "" : definition.substr(equals + 1);
    if (!is_macro_name(name))
        refuse(option, concat("'", name, "' is not a macro name (a C identifier, or F(a, b) for a function-like one)"));
    if (value.find_first_of(std::string_view("\n\r\0", 3)) != std::string_view::npos)
        refuse(option, "a macro's value is one line, without NUL characters");
    std::string nvrtc = concat("-D", definition);
    return {Kind::define, std::string(name), std::string(value), std::move(nvrtc)};
}

CompileOption parse_include_dir(std::string_view option, std::string_view dir) {
    if (dir.empty()) refuse(option, "-I needs its directory in the same option (-I/path/to/headers)");
    if (dir.find('\0') != std::string_view::npos) refuse(option, "a directory name has no NUL characters");
    std::error_code error;
    if (!std::filesystem::is_directory(std::filesystem::path(dir), error))
        refuse(option, concat("'", dir, "' is not an existing directory"));
    return {Kind::include_dir, std::string(dir), {}, concat("-I", dir)};
}

CompileOption parse_std(std::string_view option, std::string_view value) {
    static constexpr std::string_view standards[] = {"c++11", "c++14", "c++17", "c++20"};
    if (std::find(std::begin(standards), std::end(standards), value) == std::end(standards))
        refuse(option, "the language standard must be c++11, c++14, c++17 or c++20");
    return {Kind::std, std::string(value), {}, concat("-std=", value)};
}

std::string_view after(std::string_view option, std::string_view prefix) { return option.substr(prefix.size()); }

bool starts(std::string_view option, std::string_view prefix) { return option.starts_with(prefix); }

// A long option "--name=value" also spelled "-name=value", as NVRTC takes both.
bool is_valued(std::string_view option, std::string_view name, std::string_view& value) {
    for (std::string_view dashes : {"--", "-"}) {
        if (starts(option, dashes) && starts(after(option, dashes), name) &&
            after(after(option, dashes), name).starts_with("=")) {
            value = option.substr(dashes.size() + name.size() + 1);
            return true;
        }
    }
    return false;
}

// "--name" or "-name" (NVRTC takes both), or "-short".
bool is_flag(std::string_view option, std::string_view long_name, std::string_view short_name = {}) {
    if (!option.starts_with("-")) return false;
    option.remove_prefix(1);
    if (option == long_name || (!short_name.empty() && option == short_name)) return true;
    return option.starts_with("-") && option.substr(1) == long_name;
}

bool is_boolean(std::string_view value) { return value == "true" || value == "false"; }

bool is_number_list(std::string_view value) {
    if (value.empty() || value.front() == ',' || value.back() == ',') return false;
    return value.find_first_not_of("0123456789,") == std::string_view::npos &&
           value.find(",,") == std::string_view::npos;
}

CompileOption device_only(std::string_view option, std::string nvrtc) {
    return {Kind::device_only, std::string(option), {}, std::move(nvrtc)};
}

}  // namespace

std::string_view accepted_compile_options() { return accepted_text; }

CompileOption parse_compile_option(std::string_view option) {
    std::string_view value;
    // Definitions, include paths, the standard.
    if (starts(option, "--define-macro=")) return parse_define(option, after(option, "--define-macro="));
    if (starts(option, "-D")) {
        if (option.size() == 2) refuse(option, "-D needs its definition in the same option (-DNAME=1)");
        return parse_define(option, after(option, "-D"));
    }
    if (starts(option, "--undefine-macro=") || starts(option, "-U")) {
        const std::string_view name = after(option, starts(option, "-U") ? "-U" : "--undefine-macro=");
        if (!is_identifier(name)) refuse(option, concat("'", name, "' is not a macro name (a C identifier)"));
        return {Kind::undefine, std::string(name), {}, concat("-U", name)};
    }
    if (starts(option, "--include-path=")) return parse_include_dir(option, after(option, "--include-path="));
    if (starts(option, "-I")) return parse_include_dir(option, after(option, "-I"));
    if (is_valued(option, "std", value)) return parse_std(option, value);
    // Code generation.
    static constexpr std::string_view levels[] = {"-O0", "-O1", "-O2", "-O3", "-Os", "-Og"};
    if (std::find(std::begin(levels), std::end(levels), option) != std::end(levels))
        return {Kind::optimisation, std::string(option.substr(2)), {}, {}};
    if (is_flag(option, "use_fast_math")) return {Kind::fast_math, {}, {}, "--use_fast_math"};
    for (std::string_view part : {"ftz", "prec-div", "prec-sqrt", "fmad"}) {
        if (!is_valued(option, part, value)) continue;
        if (!is_boolean(value)) refuse(option, concat("--", part, " takes true or false"));
        return {Kind::fast_math_part, std::string(part), std::string(value), concat("--", part, "=", value)};
    }
    if (option == "-G" || is_flag(option, "device-debug")) return {Kind::device_debug, {}, {}, "--device-debug"};
    if (option == "-lineinfo" || is_flag(option, "generate-line-info"))
        return {Kind::line_info, {}, {}, "--generate-line-info"};
    if (option == "-g") return {Kind::debug_info, {}, {}, "--generate-line-info"};
    if (is_valued(option, "maxrregcount", value)) {
        int registers = 0;
        const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), registers);
        if (error != std::errc{} || end != value.data() + value.size() || registers < 1 || registers > 255)
            refuse(option, "-maxrregcount takes a number of registers from 1 to 255");
        return {Kind::max_registers, std::string(value), {}, concat("--maxrregcount=", value)};
    }
    if (is_flag(option, "restrict")) return {Kind::restrict_pointers, {}, {}, "--restrict"};
    if (option == "-w" || is_flag(option, "disable-warnings")) return {Kind::no_warnings, {}, {}, "--disable-warnings"};
    // NVRTC's own, without a host meaning.
    if (is_flag(option, "extra-device-vectorization")) return device_only(option, "--extra-device-vectorization");
    if (is_valued(option, "dopt", value)) {
        if (value != "on" && value != "off") refuse(option, "--dopt takes on or off");
        return device_only(option, concat("--dopt=", value));
    }
    if (is_flag(option, "device-as-default-execution-space", "default-device"))
        return device_only(option, "--device-as-default-execution-space");
    for (std::string_view name : {"builtin-move-forward", "builtin-initializer-list"}) {
        if (!is_valued(option, name, value)) continue;
        if (!is_boolean(value)) refuse(option, concat("--", name, " takes true or false"));
        return device_only(option, concat("--", name, "=", value));
    }
    for (std::string_view name : {"diag-suppress", "diag-warn", "diag-error"}) {
        if (!is_valued(option, name, value)) continue;
        if (!is_number_list(value)) refuse(option, concat("--", name, " takes warning numbers separated by commas"));
        return device_only(option, concat("--", name, "=", value));
    }
    if (is_flag(option, "display-error-number", "err-no")) return device_only(option, "--display-error-number");
    if (is_flag(option, "no-display-error-number", "no-err-no"))
        return device_only(option, "--no-display-error-number");
    if (is_valued(option, "gpu-architecture", value) || is_valued(option, "arch", value))
        refuse(option, "the target architecture is CompileOptions::target (Python: -arch= sets it)");
    refuse(option, "");
}

std::vector<CompileOption> CompileOptions::parsed() const {
    std::vector<CompileOption> options;
    std::vector<CompileOption> extras;
    extras.reserve(extra_options.size());
    bool extra_std = false;
    for (const std::string& option : extra_options) {
        extras.push_back(parse_compile_option(option));
        extra_std |= extras.back().kind == Kind::std;
    }
    if (!std.empty() && !extra_std) {
        try {
            options.push_back(parse_std("-std=" + std, std));
        } catch (const InvalidArgumentError&) {
            throw InvalidArgumentError(
                concat("CompileOptions::std must be c++11, c++14, c++17 or c++20, or empty for the compiler's default; "
                       "got '",
                       std, "'"));
        }
    }
    for (const auto& [name, value] : defines) {
        const std::string option = value.empty() ? concat("-D", name) : concat("-D", name, "=", value);
        if (!is_macro_name(name))
            throw InvalidArgumentError(concat("CompileOptions::define: '", name,
                                              "' is not a macro name (a C identifier, or F(a, b) for a function-like "
                                              "one)"));
        options.push_back(parse_define(option, option.substr(2)));
    }
    for (const std::filesystem::path& dir : include_dirs) {
        std::error_code error;
        if (dir.empty() || !std::filesystem::is_directory(dir, error))
            throw InvalidArgumentError(
                concat("CompileOptions::include_dir: '", dir.string(), "' is not an existing directory"));
        options.push_back({Kind::include_dir, dir.string(), {}, concat("-I", dir.string())});
    }
    const bool extra_fast_math =
        std::any_of(extras.begin(), extras.end(), [](auto& o) { return o.kind == Kind::fast_math; });
    const bool extra_line_info =
        std::any_of(extras.begin(), extras.end(), [](auto& o) { return o.kind == Kind::line_info; });
    if (fast_math && !extra_fast_math) options.push_back({Kind::fast_math, {}, {}, "--use_fast_math"});
    if (line_info && !extra_line_info) options.push_back({Kind::line_info, {}, {}, "--generate-line-info"});
    options.insert(options.end(), std::make_move_iterator(extras.begin()), std::make_move_iterator(extras.end()));
    return options;
}

void CompileOptions::validate() const {
    parsed();
    // A relative name ("kernels/fill.cu": check mode reports files as the user named them), never
    // one that leaves the compile's directory.
    if (program_name.size() > 255 || !detail::is_contained_name(program_name) ||
        program_name.find_first_of("\\\"") != std::string::npos || has_control_character(program_name))
        throw InvalidArgumentError(concat(
            "CompileOptions::program_name must be a relative file name of at most 255 bytes without '..', '\\\\', "
            "quotes or control characters (it names the source in compile errors), got '",
            program_name, "'"));
    std::set<std::string_view> header_names;
    for (const Header& header : headers) {
        if (!detail::is_contained_name(header.name) || header.name.find_first_of("\\\"<>") != std::string::npos ||
            has_control_character(header.name))
            throw InvalidArgumentError(concat("CompileOptions::header: '", header.name,
                                              "' is not a header name: plain names separated by '/' (\"util/math.h\"), "
                                              "not absolute, without '..', quotes, '<', '>', '\\\\' or control "
                                              "characters"));
        if (!header_names.insert(header.name).second)
            throw InvalidArgumentError(concat("CompileOptions::header: '", header.name, "' is given twice"));
    }
    for (const std::string& expression : name_expressions) {
        if (expression.empty() || expression.size() > 4096 || has_control_character(expression) ||
            expression.find_first_of("#\"'\\") != std::string::npos)
            throw InvalidArgumentError(concat("CompileOptions::name_expression: '", expression,
                                              "' is not a kernel name expression such as \"axpy<float>\" (no control "
                                              "characters, '#', quotes or backslashes)"));
    }
    if (target.size() > 32 || !std::all_of(target.begin(), target.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
        }))
        throw InvalidArgumentError(
            concat("CompileOptions::target must name an architecture such as sm_90 or compute_80, got '", target, "'"));
}

namespace detail {

namespace {

// ISO C++ before C++17 replaces trigraphs, two question marks and one of = / ' ( ) ! < > -, before
// anything else (GCC in -std=c++11 and c++14): the trigraph of '#' followed by "include" is an
// include that no reader of source/ sees.
bool has_trigraph(std::string_view text) {
    for (std::size_t at = text.find("??"); at != std::string_view::npos; at = text.find("??", at + 1)) {
        if (at + 2 < text.size() && std::string_view("=/'()!<>-").find(text[at + 2]) != std::string_view::npos)
            return true;
    }
    return false;
}

}  // namespace

void check_source_policy(std::string_view source, const CompileOptions& options) {
    std::string_view std = options.std;
    for (const std::string& extra : options.extra_options)
        if (std::string_view value; is_valued(extra, "std", value)) std = value;
    if (std != "c++11" && std != "c++14") return;
    auto refuse_trigraphs = [&](std::string_view where) {
        throw InvalidArgumentError(
            concat(where, " holds a trigraph (two question marks and one of =/'()!<>-), which -std=", std,
                   " would read as another character: gpukit cannot check what it means. "
                   "Write the character itself, or compile with -std=c++17"));
    };
    if (has_trigraph(source)) refuse_trigraphs(concat("The source ", options.program_name));
    for (const Header& header : options.headers)
        if (has_trigraph(header.source)) refuse_trigraphs(concat("The header ", header.name));
}

}  // namespace detail

}  // namespace gpukit
