// src/core/compile_options.cpp: CompileOptions builders and their command-line form.
#include "gpukit/module.hpp"

#include "util/text.hpp"

namespace gpukit {

CompileOptions& CompileOptions::define(std::string name, std::string value) {
    defines.emplace_back(std::move(name), std::move(value));
    return *this;
}

CompileOptions& CompileOptions::include_dir(std::filesystem::path dir) {
    include_dirs.push_back(std::move(dir));
    return *this;
}

CompileOptions& CompileOptions::header(std::string name, std::string source) {
    headers.push_back({std::move(name), std::move(source)});
    return *this;
}

CompileOptions& CompileOptions::name_expression(std::string expression) {
    name_expressions.push_back(std::move(expression));
    return *this;
}

CompileOptions& CompileOptions::option(std::string raw) {
    extra_options.push_back(std::move(raw));
    return *this;
}

std::vector<std::string> CompileOptions::to_arguments() const {
    std::vector<std::string> args;
    for (CompileOption& option : parsed())
        if (!option.nvrtc.empty()) args.push_back(std::move(option.nvrtc));
    return args;
}

std::string_view to_string(ImageFormat format) {
    switch (format) {
        case ImageFormat::cubin: return "cubin";
        case ImageFormat::ptx: return "ptx";
        case ImageFormat::fatbin: return "fatbin";
        case ImageFormat::shared_object: return "shared object";
    }
    return "unknown";
}

}  // namespace gpukit
