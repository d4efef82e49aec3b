// gpukit/module.hpp: compiling CUDA C source at run time and loading compiled code.
//
//   auto module = gpukit::Module::compile(source, gpukit::CompileOptions{}.define("N", "256"));
//   auto add = module.kernel("vector_add");
//
// Compilation goes through the compile cache (gpukit/cache.hpp): the same source, headers,
// options, target and compiler give the same module without compiling again, in this process
// and across processes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpukit/check.hpp"
#include "gpukit/device.hpp"
#include "gpukit/memory.hpp"

namespace gpukit {

class Kernel;

namespace detail {
struct ModuleState;
}

// One compiler option as gpukit reads it. Every backend takes the same fixed set, in NVRTC's
// spellings (accepted_compile_options lists them), and refuses anything else: a host compiler's
// -fplugin=, -B, -Wp, or -o would let a compile run or overwrite other programs.
struct CompileOption {
    enum class Kind {
        define,             // -DNAME, -DNAME=VALUE, --define-macro=: name is NAME (or F(x)), value VALUE
        undefine,           // -UNAME, --undefine-macro=NAME
        include_dir,        // -I<dir>, --include-path=<dir>: an existing directory
        std,                // -std=c++11|c++14|c++17|c++20, --std=
        optimisation,       // -O0..-O3, -Os, -Og (name "0".."3", "s", "g"): the simulator's; no device meaning
        fast_math,          // --use_fast_math
        fast_math_part,     // --ftz=, --prec-div=, --prec-sqrt=, --fmad=: name "ftz"..., value "true"/"false"
        device_debug,       // -G, --device-debug
        line_info,          // -lineinfo, --generate-line-info
        debug_info,         // -g: debug information on the simulator, line information on a GPU
        max_registers,      // -maxrregcount=N, --maxrregcount=N (name N)
        restrict_pointers,  // --restrict
        no_warnings,        // -w, --disable-warnings
        device_only,        // an NVRTC option without a meaning on the host (accepted_compile_options)
    };
    Kind kind = Kind::define;
    std::string name;
    std::string value;
    std::string nvrtc;  // NVRTC's spelling; empty for what has no device meaning (optimisation)
};

// Reads one option of CompileOptions::extra_options. Throws InvalidArgumentError naming the option
// and listing what is accepted.
CompileOption parse_compile_option(std::string_view option);
// The options parse_compile_option accepts, as text for messages and help.
std::string_view accepted_compile_options();

// A header handed to the compiler as a string: `#include "name"` finds it.
struct Header {
    std::string name;
    std::string source;
};

struct CompileOptions {
    std::vector<std::pair<std::string, std::string>> defines;  // -DNAME or -DNAME=VALUE
    std::vector<std::filesystem::path> include_dirs;           // -I
    std::vector<Header> headers;
    std::string std = "c++17";  // -std=; empty for the compiler's default
    bool fast_math = false;     // --use_fast_math
    bool line_info = true;      // -lineinfo: source lines for profilers and sanitizers
    // Template kernels to instantiate and look up by these names, e.g. "axpy<float>".
    std::vector<std::string> name_expressions;
    // More options, each one of accepted_compile_options() (NVRTC's spellings); anything else is
    // refused with InvalidArgumentError. A -std= here replaces `std`.
    std::vector<std::string> extra_options;
    std::string program_name = "kernel.cu";  // the file name compile errors mention: no '/', no quotes
    std::string target;                      // e.g. "sm_80"; empty compiles for the device's own architecture
    // Check mode's tools (gpukit/check.hpp), on backends that run them; GPUKIT_CHECK adds to them.
    CheckTools check;

    CompileOptions& define(std::string name, std::string value = {});
    CompileOptions& include_dir(std::filesystem::path dir);
    CompileOptions& header(std::string name, std::string source);
    CompileOptions& name_expression(std::string expression);
    CompileOptions& option(std::string raw);

    // Every setting above as checked options, in the order the compiler sees them: the -std, the
    // defines, the include directories, fast math, line information, then extra_options. Throws
    // InvalidArgumentError naming the bad field or option and what is accepted.
    std::vector<CompileOption> parsed() const;
    // Checks every field: parsed(), and the program name (a file name: no '/', quotes or control
    // characters), the headers' names (relative, no ".."; each once), the name expressions (no
    // control characters, '#' or quotes) and the target. Throws InvalidArgumentError.
    void validate() const;
    // The NVRTC command-line options these settings amount to (without the target): parsed()'s
    // NVRTC spellings. Throws as parsed() does.
    std::vector<std::string> to_arguments() const;
};

enum class ImageFormat { cubin, ptx, fatbin, shared_object };
std::string_view to_string(ImageFormat format);

// What a compiler produced: the image, the compiler's log (warnings), and the mangled names of
// the name expressions.
struct CompiledImage {
    ImageFormat format = ImageFormat::cubin;
    std::string data;
    std::string log;
    std::vector<std::pair<std::string, std::string>> lowered_names;  // expression -> mangled
};

// A `__constant__` or `__device__` variable of a loaded module.
struct GlobalSymbol {
    std::string name;
    BufferView memory;
};

class Module {
public:
    // Compiles for the device's target (or options.target) with its backend's compiler, through the cache.
    static Module compile(std::string_view source, const CompileOptions& options = {},
                          Device device = Device::current());
    // Compiles with the compiler of the named backend without loading: needs no device, only the
    // compiler. `target` as DeviceProperties::target names it, e.g. "sm_90".
    static CompiledImage compile_image(std::string_view source, const CompileOptions& options, std::string_view target,
                                       std::string_view backend);
    // Loads PTX, a cubin or a fatbin produced elsewhere.
    static Module load(ImageFormat format, std::string_view image, Device device = Device::current());
    // Loads a .ptx, .cubin or .fatbin file, the format chosen by the extension.
    static Module load_file(const std::filesystem::path& path, Device device = Device::current());

    Device device() const;
    // The compiler's warnings, empty when it had nothing to say.
    const std::string& compile_log() const;

    // A kernel by its extern "C" name, its name expression, or its mangled name. Throws
    // KernelNotFoundError listing the kernels the module has.
    Kernel kernel(std::string_view name) const;
    std::vector<std::string> kernel_names() const;

    // A __constant__ or __device__ variable by name. Throws InvalidArgumentError if absent.
    GlobalSymbol global(std::string_view name) const;
    // Copies host data into a global; the sizes must match.
    template <class T>
    void write_global(std::string_view name, std::span<const T> values) const {
        static_assert(std::is_trivially_copyable_v<T>);
        write_global_bytes(name, std::as_bytes(values));
    }
    template <class T>
    std::vector<T> read_global(std::string_view name) const {
        static_assert(std::is_trivially_copyable_v<T>);
        auto symbol = global(name);
        std::vector<T> values(symbol.memory.size_bytes() / sizeof(T));
        copy(std::span<T>(values), symbol.memory.subview(0, values.size() * sizeof(T)));
        return values;
    }

    explicit Module(std::shared_ptr<detail::ModuleState> state) : state_(std::move(state)) {}

private:
    void write_global_bytes(std::string_view name, std::span<const std::byte> bytes) const;
    std::shared_ptr<detail::ModuleState> state_;
};

}  // namespace gpukit
