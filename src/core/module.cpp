// src/core/module.cpp: compiling, loading, and looking up kernels and globals.
#include "gpukit/module.hpp"

#include <fstream>
#include <iterator>
#include <optional>

#include "cache/compile_cache.hpp"
#include "core/check_report.hpp"
#include "core/module_state.hpp"
#include "core/option_policy.hpp"
#include "gpukit/array_memory.hpp"
#include "gpukit/dtype.hpp"
#include "gpukit/error.hpp"
#include "gpukit/kernel.hpp"
#include "source/kernel_declarations.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

namespace detail {

ModuleState::~ModuleState() {
    if (launched.load(std::memory_order_relaxed)) wait_for_device_quietly(Device(*backend, device));
    backend->release_module(device, handle);
}

namespace {

// A module compiled elsewhere (PTX, a cubin): loaded as it is, not cached, without source.
std::shared_ptr<ModuleState> load_image(const Device& device, ImageFormat format, std::string_view image) {
    auto& backend = device.backend();
    return std::make_shared<ModuleState>(backend, device.ordinal(),
                                         backend.load_module(device.ordinal(), format, image));
}

// A C++ kernel (declared without extern "C") by its name or qualified name, as the simulator finds
// it: NVRTC mangles the symbol, and one unambiguous match among the module's kernels is enough.
// Templates and overloads still need a name expression (CompileOptions::name_expression).
std::optional<std::string> mangled_kernel_named(const std::vector<std::string>& symbols, std::string_view name) {
    std::optional<std::string> match;
    for (const auto& symbol : symbols) {
        const std::string shown = demangle(symbol);
        const auto parameters = shown.find('(');
        if (shown == symbol || parameters == std::string::npos || shown.find('<') < parameters) continue;
        const std::string qualified = shown.substr(0, parameters);
        const auto scope = qualified.rfind("::");
        const std::string plain = scope == std::string::npos ? qualified : qualified.substr(scope + 2);
        if (name != qualified && name != plain && name != "::" + qualified) continue;
        if (match) return std::nullopt;  // ambiguous
        match = symbol;
    }
    return match;
}

std::unique_ptr<KernelState> open_kernel(ModuleState& module, std::string_view name) {
    auto& backend = *module.backend;
    std::string symbol(name);
    for (const auto& [expression, lowered] : module.lowered_names)
        if (expression == name) symbol = lowered;

    auto function = backend.find_function(module.device, module.handle, symbol);
    if (!function) {
        const auto symbols = backend.function_symbols(module.device, module.handle);
        if (symbol == name)
            if (auto mangled = mangled_kernel_named(symbols, name)) {
                symbol = *mangled;
                function = backend.find_function(module.device, module.handle, symbol);
            }
        if (!function) {
            std::vector<std::string> available;
            for (const auto& found : symbols) {
                std::string shown = demangle(found);
                for (const auto& [expression, lowered] : module.lowered_names)
                    if (lowered == found) shown = expression;
                available.push_back(shown);
            }
            if (available.empty() && !module.source.empty()) available = declared_kernel_names(module.source);
            throw KernelNotFoundError(std::string(name), std::move(available));
        }
    }

    auto kernel = std::make_unique<KernelState>();
    kernel->name = std::string(name);
    kernel->symbol = symbol;
    kernel->function = *function;
    const auto& properties = backend.properties(module.device);
    kernel->device_description = concat("device ", module.device, " (", properties.name, ")");
    kernel->limits = &properties.limits;
    if (auto params = backend.function_params(module.device, *function)) {
        kernel->params = std::move(*params);
        kernel->params_known = true;
        if (!module.source.empty()) {
            auto declared = parse_kernel_params(module.source, name);
            if (declared && declared->size() == kernel->params.size())
                for (std::size_t i = 0; i < declared->size(); ++i) {
                    kernel->params[i].type = (*declared)[i].type;
                    kernel->params[i].name = (*declared)[i].name;
                }
        }
    }
    static_assert(std::size(dtype_table) <= 32, "array_dtypes holds one bit a dtype");
    for (const KernelParam& param : kernel->params) {
        std::uint32_t taken = 0;
        for (const DTypeInfo& info : dtype_table)
            if (param.takes_array_of(info.dtype)) taken |= 1U << static_cast<unsigned>(info.dtype);
        kernel->array_dtypes.push_back(taken);
        kernel->param_kinds.push_back(param.kind());
    }
    kernel->attributes = backend.function_attributes(module.device, *function);
    kernel->max_dynamic_shared_bytes = kernel->attributes.max_dynamic_shared_bytes;
    return kernel;
}

}  // namespace

}  // namespace detail

Module Module::compile(std::string_view source, const CompileOptions& options, Device device) {
    options.validate();
    detail::check_source_policy(source, options);
    auto& backend = device.backend();
    std::string target = options.target.empty() ? device.properties().target : options.target;
    CheckTools check;
    if (backend.info().capabilities.check_mode) {
        check = options.check | CheckTools::from_environment();
        if (!check.empty()) detail::start_check_report();
    }
    return Module(detail::get_or_load(device, {source, options, std::move(target), check}));
}

CompiledImage Module::compile_image(std::string_view source, const CompileOptions& options, std::string_view target,
                                    std::string_view backend) {
    options.validate();
    detail::check_source_policy(source, options);
    CheckTools check;
    if (backend_info(backend).capabilities.check_mode) check = options.check | CheckTools::from_environment();
    const detail::CompileInput input{source, options, std::string(target), check};
    return *detail::get_or_compile(detail::compiler(backend), input).image;
}

Module Module::load(ImageFormat format, std::string_view image, Device device) {
    return Module(detail::load_image(device, format, image));
}

Module Module::load_file(const std::filesystem::path& path, Device device) {
    const auto extension = path.extension().string();
    ImageFormat format;
    if (extension == ".ptx")
        format = ImageFormat::ptx;
    else if (extension == ".cubin")
        format = ImageFormat::cubin;
    else if (extension == ".fatbin")
        format = ImageFormat::fatbin;
    else
        throw InvalidArgumentError(
            concat("Module::load_file(", path.string(), "): the extension must be .ptx, .cubin or .fatbin"));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InvalidArgumentError(concat("Module::load_file: cannot open ", path.string()));
    std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return load(format, image, device);
}

Device Module::device() const { return Device(*state_->backend, state_->device); }

const std::string& Module::compile_log() const { return state_->compile_log; }

Kernel Module::kernel(std::string_view name) const {
    std::lock_guard lock(state_->mutex);
    auto it = state_->kernels.find(name);
    if (it == state_->kernels.end())
        it = state_->kernels.emplace(std::string(name), detail::open_kernel(*state_, name)).first;
    return Kernel(state_, it->second.get());
}

std::vector<std::string> Module::kernel_names() const {
    auto names = state_->backend->function_symbols(state_->device, state_->handle);
    for (auto& name : names) {
        std::string shown = detail::demangle(name);
        for (const auto& [expression, lowered] : state_->lowered_names)
            if (lowered == name) shown = expression;
        name = shown;
    }
    if (names.empty() && !state_->source.empty()) names = detail::declared_kernel_names(state_->source);
    return names;
}

GlobalSymbol Module::global(std::string_view name) const {
    auto symbol = state_->backend->find_global(state_->device, state_->handle, std::string(name));
    if (!symbol)
        throw InvalidArgumentError(concat("No __constant__ or __device__ variable named '", name,
                                          "' in the module (C++ names in a namespace need their qualified name)"));
    return *symbol;
}

void Module::write_global_bytes(std::string_view name, std::span<const std::byte> bytes) const {
    auto symbol = global(name);
    if (symbol.memory.size_bytes() != bytes.size())
        throw InvalidArgumentError(concat("Cannot write ", bytes.size(), " bytes to global '", name, "': it holds ",
                                          symbol.memory.size_bytes(), " bytes"));
    copy(symbol.memory, bytes);
}

}  // namespace gpukit
