// src/core/error.cpp: messages of the exception hierarchy.
#include "gpukit/error.hpp"

#include <cstdio>

#include "util/text.hpp"

namespace gpukit {

using detail::concat;

CudaError::CudaError(const std::string& action, const std::string& name, int code, const std::string& description)
    : CudaError(concat(action, ": ", name, " (", code, "): ", description), action, name, code, description) {}

CudaError::CudaError(const std::string& message, std::string action, std::string name, int code,
                     std::string description)
    : Error(message),
      action_(std::move(action)),
      name_(std::move(name)),
      code_(code),
      description_(std::move(description)) {}

OutOfMemoryError::OutOfMemoryError(const std::string& action, const std::string& name, int code,
                                   const std::string& description, std::size_t requested_bytes, std::size_t free_bytes,
                                   std::size_t total_bytes)
    : CudaError(concat(action, ": ", name, " (", code, "): ", description, "; requested ",
                       detail::format_bytes(requested_bytes), " (", requested_bytes, " bytes), ",
                       detail::format_bytes(free_bytes), " free of ", detail::format_bytes(total_bytes)),
                action, name, code, description),
      requested_(requested_bytes),
      free_(free_bytes),
      total_(total_bytes) {}

ContextUnusableError::ContextUnusableError(const std::string& action, const std::string& device,
                                           const CudaError& first_failure)
    : CudaError(
          concat(action, ": the CUDA context of ", device, " is unusable after an earlier sticky error (",
                 first_failure.what(),
                 "). The CUDA driver cannot recover a context in this state; restart the process. "
                 "Run the kernel under the simulator's check mode or compute-sanitizer to find the faulty access."),
          action, first_failure.name(), first_failure.code(), first_failure.description()),
      first_failure_(first_failure.what()) {}

namespace {
std::string compile_message(const std::string& program, const std::string& target, const std::string& log,
                            const std::vector<std::string>& options) {
    return concat("Compiling ", program, " for ", target, " failed",
                  options.empty() ? "" : " (options: ", detail::join(options, " "), options.empty() ? "" : ")", ":\n",
                  log);
}
}  // namespace

CompileError::CompileError(std::string program_name, std::string target, std::string log,
                           std::vector<std::string> options, std::string source)
    : Error(compile_message(program_name, target, detail::trim_trailing(log), options)),
      program_name_(std::move(program_name)),
      target_(std::move(target)),
      log_(detail::trim_trailing(std::move(log))),
      options_(std::move(options)),
      source_(std::move(source)) {}

std::string CompileError::numbered_source() const {
    std::size_t lines = 1;
    for (char c : source_) lines += c == '\n';
    const int width = static_cast<int>(std::to_string(lines).size());
    std::string out;
    std::size_t line = 1;
    std::size_t start = 0;
    while (start <= source_.size()) {
        std::size_t end = source_.find('\n', start);
        if (end == std::string::npos) end = source_.size();
        char number[32];
        std::snprintf(number, sizeof number, "%*zu ", width, line++);
        out += number;
        out.append(source_, start, end - start);
        out += '\n';
        start = end + 1;
    }
    return out;
}

std::string_view to_string(FaultKind kind) {
    switch (kind) {
        case FaultKind::memory_access: return "memory_access";
        case FaultKind::stack_overflow: return "stack_overflow";
        case FaultKind::integer_division: return "integer_division";
        case FaultKind::illegal_instruction: return "illegal_instruction";
        case FaultKind::assertion: return "assertion";
        case FaultKind::trap: return "trap";
        case FaultKind::abort: return "abort";
        case FaultKind::exit: return "exit";
        case FaultKind::process_ended: return "process_ended";
    }
    return "unknown";
}

namespace {
std::string not_found_message(const std::string& name, const std::vector<std::string>& available) {
    if (available.empty()) return concat("No kernel named '", name, "' in the module: it has no kernels");
    return concat("No kernel named '", name, "' in the module; it has: ", detail::join(available),
                  ". C++ kernels need extern \"C\" or a name expression (CompileOptions::name_expressions)");
}
}  // namespace

KernelNotFoundError::KernelNotFoundError(std::string name, std::vector<std::string> available)
    : Error(not_found_message(name, available)), name_(std::move(name)), available_(std::move(available)) {}

}  // namespace gpukit
