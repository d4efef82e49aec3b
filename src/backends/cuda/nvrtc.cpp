// src/backends/cuda/nvrtc.cpp: the NVRTC compiler, loaded at run time.
#include "backends/cuda/nvrtc.hpp"

#include <nvrtc.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "backends/cuda/toolkit_library.hpp"
#include "util/dynamic_library.hpp"
#include "util/library_search.hpp"
#include "util/once.hpp"
#include "util/text.hpp"

namespace gpukit::detail::cuda {

namespace {

// One line per group of entry points: clang-format would stack the list in a staircase.
// clang-format off
#define GPUKIT_NVRTC_FUNCTIONS(X)                                                                          \
    X(nvrtcVersion) X(nvrtcGetErrorString) X(nvrtcCreateProgram) X(nvrtcDestroyProgram)                    \
    X(nvrtcCompileProgram) X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog) X(nvrtcGetCUBINSize)            \
    X(nvrtcGetCUBIN) X(nvrtcGetPTXSize) X(nvrtcGetPTX) X(nvrtcAddNameExpression) X(nvrtcGetLoweredName)    \
    X(nvrtcGetNumSupportedArchs) X(nvrtcGetSupportedArchs)
// clang-format on

struct NvrtcApi {
// `name` is an entry point's name, which no parentheses may enclose.
#define GPUKIT_DECLARE_NVRTC_ENTRY(name) decltype(&::name) name = nullptr;  // NOLINT(bugprone-macro-parentheses)
    GPUKIT_NVRTC_FUNCTIONS(GPUKIT_DECLARE_NVRTC_ENTRY)
#undef GPUKIT_DECLARE_NVRTC_ENTRY
    int major = 0;
    int minor = 0;
    std::string library_path;
    std::vector<int> architectures;              // e.g. 75, 80, ..., 120
    std::optional<std::string> toolkit_include;  // <toolkit>/include, for <cuda_fp16.h> and friends
};

std::vector<std::string> nvrtc_candidates() {
    // A bare "libnvrtc.so" (the toolkit's development link) last, after the versioned ones.
    std::vector<std::string> candidates =
        toolkit_library_candidates("GPUKIT_NVRTC", {"libnvrtc.so.13", "libnvrtc.so.12"});
    if (candidates.size() > 1) candidates.insert(candidates.begin() + 2, "libnvrtc.so");
    return candidates;
}

std::optional<std::string> toolkit_include_for(const std::string& library_path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path lib = fs::weakly_canonical(library_path, ec);
    for (fs::path dir = lib.parent_path(); !dir.empty() && dir != dir.root_path(); dir = dir.parent_path()) {
        if (fs::exists(dir / "include" / "cuda_fp16.h", ec)) return (dir / "include").string();
    }
    return std::nullopt;
}

// The NVRTC file this process uses, found without loading it (see library_search.hpp); empty
// when no candidate is on disk where the dynamic linker looks.
const std::string& nvrtc_file() {
    static const std::string file = [] {
        for (const auto& candidate : nvrtc_candidates())
            if (auto found = find_library_file(candidate)) return *found;
        return std::string();
    }();
    return file;
}

NvrtcApi load_nvrtc() {
    // Load the very file the cache key named; fall back to the loader's own search otherwise.
    const auto& file = nvrtc_file();
    auto library = DynamicLibrary::open_first(
        "NVRTC (libnvrtc.so), the CUDA run-time compiler,", file.empty() ? nvrtc_candidates() : std::vector{file},
        "It comes with the CUDA toolkit or the nvidia-cuda-nvrtc Python wheel. Set GPUKIT_NVRTC to its path, or "
        "CUDA_HOME to the toolkit's root.");
    NvrtcApi api;
    api.library_path = library.path();
    std::string missing;
#define GPUKIT_RESOLVE_NVRTC(name) library.resolve(api.name, #name, missing);
    GPUKIT_NVRTC_FUNCTIONS(GPUKIT_RESOLVE_NVRTC)
#undef GPUKIT_RESOLVE_NVRTC
    if (!missing.empty())
        throw BackendUnavailableError(concat("NVRTC at ", api.library_path, " lacks ", missing, "; it is too old"));
    api.nvrtcVersion(&api.major, &api.minor);
    int count = 0;
    api.nvrtcGetNumSupportedArchs(&count);
    api.architectures.resize(static_cast<std::size_t>(count));
    if (count > 0) api.nvrtcGetSupportedArchs(api.architectures.data());
    std::sort(api.architectures.begin(), api.architectures.end());
    api.toolkit_include = toolkit_include_for(api.library_path);
    return api;
}

const NvrtcApi& nvrtc() {
    return once([] { return load_nvrtc(); });
}

void check_nvrtc(nvrtcResult status, const char* action) {
    if (status == NVRTC_SUCCESS) return;
    const auto& api = nvrtc();
    throw CudaError(action, api.nvrtcGetErrorString(status), static_cast<int>(status), "NVRTC call failed");
}

// Owns an nvrtcProgram.
class Program {
public:
    explicit Program(nvrtcProgram program) : program_(program) {}
    ~Program() {
        // Destroying a program we created only fails on a null handle; nothing to report.
        if (program_) nvrtc().nvrtcDestroyProgram(&program_);
    }
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;
    nvrtcProgram get() const { return program_; }

private:
    nvrtcProgram program_;
};

// "sm_90" -> 90; "compute_90a" -> 90.
int architecture_number(const std::string& target) {
    const auto underscore = target.find('_');
    if (underscore == std::string::npos) return 0;
    return std::atoi(target.c_str() + underscore + 1);
}

std::string effective_target(const NvrtcApi& api, const std::string& target) {
    const int wanted = architecture_number(target);
    if (api.architectures.empty() || wanted <= api.architectures.back()) return target;
    return concat("compute_", api.architectures.back());  // PTX the driver compiles for the newer GPU
}

// The file's full version (libnvrtc.so.13.0.88), size and time identify it without the
// milliseconds that loading it costs, so a cache hit in a new process stays cheap.
std::string describe_nvrtc_file() {
    const auto& file = nvrtc_file();
    std::error_code ec;
    const auto size = file.empty() ? 0 : std::filesystem::file_size(file, ec);
    const auto written = file.empty() ? std::filesystem::file_time_type{} : std::filesystem::last_write_time(file, ec);
    if (file.empty() || ec) {
        const auto& api = nvrtc();  // found only by the loader: ask the library itself
        return concat("NVRTC ", api.major, ".", api.minor, " (", api.library_path, ")");
    }
    const auto name = std::filesystem::path(file).filename().string();
    const auto version =
        name.find(".so.") == std::string::npos ? std::string("unknown") : name.substr(name.find(".so.") + 4);
    return concat("NVRTC ", version, " (", file, ", ", size, " bytes, written ", written.time_since_epoch().count(),
                  ")");
}

}  // namespace

std::string NvrtcCompiler::identity() const {
    // Asked on every cache lookup; the library a process uses does not change under it.
    static const std::string identity = describe_nvrtc_file();
    return identity;
}

CompiledImage NvrtcCompiler::compile(const CompileInput& input) const {
    const auto& api = nvrtc();
    const std::string target = effective_target(api, input.target);
    const auto& options = input.options;

    std::vector<const char*> header_sources;
    std::vector<const char*> header_names;
    for (const auto& header : options.headers) {
        header_sources.push_back(header.source.c_str());
        header_names.push_back(header.name.c_str());
    }
    const std::string source(input.source);
    nvrtcProgram raw = nullptr;
    check_nvrtc(
        api.nvrtcCreateProgram(&raw, source.c_str(), options.program_name.c_str(),
                               static_cast<int>(header_sources.size()), header_sources.data(), header_names.data()),
        "Failed to create an NVRTC program");
    Program program(raw);
    for (const auto& expression : options.name_expressions)
        check_nvrtc(api.nvrtcAddNameExpression(program.get(), expression.c_str()), "Failed to add a name expression");

    // Only checked options (CompileOptions::parsed, one allowlist for every backend), in NVRTC's
    // spellings; what has none (-O, the host's optimisation level) is noted in the log.
    std::vector<std::string> arguments;
    std::string notes;
    for (CompileOption& option : options.parsed()) {
        if (!option.nvrtc.empty())
            arguments.push_back(std::move(option.nvrtc));
        else if (option.kind == CompileOption::Kind::optimisation)
            notes += concat("gpukit: -O", option.name, " sets the simulator's optimisation; NVRTC optimises device ",
                            "code by default (--dopt=off to turn it off)\n");
    }
    arguments.push_back("--gpu-architecture=" + target);
    if (api.toolkit_include) arguments.push_back("-I" + *api.toolkit_include);
    std::vector<const char*> argv;
    argv.reserve(arguments.size());
    for (const auto& argument : arguments) argv.push_back(argument.c_str());

    const nvrtcResult status = api.nvrtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());
    std::size_t log_size = 0;
    api.nvrtcGetProgramLogSize(program.get(), &log_size);
    std::string log(log_size, '\0');
    if (log_size) api.nvrtcGetProgramLog(program.get(), log.data());
    log = trim_trailing(std::move(log));  // the size counts the terminating NUL

    if (status != NVRTC_SUCCESS) {
        if (log.empty()) log = api.nvrtcGetErrorString(status);
        throw CompileError(options.program_name, target, std::move(log), std::move(arguments), source);
    }

    CompiledImage image;
    image.log = trim_trailing(notes + log);
    const bool cubin = target.rfind("sm_", 0) == 0;
    std::size_t size = 0;
    if (cubin) {
        image.format = ImageFormat::cubin;
        check_nvrtc(api.nvrtcGetCUBINSize(program.get(), &size), "Failed to read the cubin size");
        image.data.resize(size);
        check_nvrtc(api.nvrtcGetCUBIN(program.get(), image.data.data()), "Failed to read the cubin");
    } else {
        image.format = ImageFormat::ptx;
        check_nvrtc(api.nvrtcGetPTXSize(program.get(), &size), "Failed to read the PTX size");
        image.data.resize(size);
        check_nvrtc(api.nvrtcGetPTX(program.get(), image.data.data()), "Failed to read the PTX");
        image.data = trim_trailing(std::move(image.data));
    }
    for (const auto& expression : options.name_expressions) {
        const char* lowered = nullptr;
        check_nvrtc(api.nvrtcGetLoweredName(program.get(), expression.c_str(), &lowered),
                    "Failed to read the lowered name of a name expression");
        image.lowered_names.emplace_back(expression, lowered);
    }
    return image;
}

const NvrtcCompiler& nvrtc_compiler() {
    static const NvrtcCompiler compiler;
    return compiler;
}

NvrtcLibrary nvrtc_library() {
    const auto& api = nvrtc();
    return {api.library_path, api.major, api.minor};
}

std::string nvrtc_library_file() { return nvrtc_file(); }

}  // namespace gpukit::detail::cuda
