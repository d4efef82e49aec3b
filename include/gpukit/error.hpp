// gpukit/error.hpp: the one exception hierarchy every gpukit call throws from.
//
//   Error                         base of everything gpukit throws
//   ├── BackendUnavailableError   a backend's libraries or devices are missing
//   ├── CudaError                 a driver or NVRTC call failed (CUDA name, code, action)
//   │   ├── OutOfMemoryError      requested and free bytes
//   │   └── ContextUnusableError  an earlier sticky error poisoned the device's context
//   ├── CompileError              the compiler's log, options and source
//   ├── LaunchError               a launch that cannot run as asked
//   │   ├── LaunchConfigError     grid, block or shared memory against the limits
//   │   └── KernelArgumentError   argument count or sizes against the kernel's parameters
//   ├── KernelNotFoundError       the name asked for and the kernels the module has
//   ├── InvalidArgumentError      a bad value given to an API call (sizes that do not match, ...)
//   ├── IndexError                an index outside an array's bounds, more indices than dimensions
//   └── UsageError                an object used in a state that forbids it (moved-from, destroyed)
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpukit {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class BackendUnavailableError : public Error {
public:
    using Error::Error;
};

// A failed CUDA driver or NVRTC call. what() reads
// "<action>: <NAME> (<code>): <description>".
class CudaError : public Error {
public:
    CudaError(const std::string& action, const std::string& name, int code, const std::string& description);

    const std::string& action() const noexcept { return action_; }
    const std::string& name() const noexcept { return name_; }  // e.g. "CUDA_ERROR_INVALID_VALUE"
    int code() const noexcept { return code_; }
    const std::string& description() const noexcept { return description_; }

protected:
    CudaError(const std::string& message, std::string action, std::string name, int code, std::string description);

private:
    std::string action_;
    std::string name_;
    int code_;
    std::string description_;
};

class OutOfMemoryError : public CudaError {
public:
    OutOfMemoryError(const std::string& action, const std::string& name, int code, const std::string& description,
                     std::size_t requested_bytes, std::size_t free_bytes, std::size_t total_bytes);

    std::size_t requested_bytes() const noexcept { return requested_; }
    std::size_t free_bytes() const noexcept { return free_; }
    std::size_t total_bytes() const noexcept { return total_; }

private:
    std::size_t requested_;
    std::size_t free_;
    std::size_t total_;
};

// Raised by every call on a device whose context an earlier sticky error (an illegal address, a
// kernel trap) has made unusable: the CUDA driver cannot recover it inside this process.
class ContextUnusableError : public CudaError {
public:
    ContextUnusableError(const std::string& action, const std::string& device, const CudaError& first_failure);

    const std::string& first_failure() const noexcept { return first_failure_; }

private:
    std::string first_failure_;
};

class CompileError : public Error {
public:
    CompileError(std::string program_name, std::string target, std::string log, std::vector<std::string> options,
                 std::string source);

    const std::string& program_name() const noexcept { return program_name_; }
    const std::string& target() const noexcept { return target_; }
    const std::string& log() const noexcept { return log_; }
    const std::vector<std::string>& options() const noexcept { return options_; }
    const std::string& source() const noexcept { return source_; }
    // The source with right-aligned line numbers, for reading the log against.
    std::string numbered_source() const;

private:
    std::string program_name_;
    std::string target_;
    std::string log_;
    std::vector<std::string> options_;
    std::string source_;
};

class LaunchError : public Error {
public:
    using Error::Error;
};

class LaunchConfigError : public LaunchError {
public:
    using LaunchError::LaunchError;
};

class KernelArgumentError : public LaunchError {
public:
    // parameter_index is -1 when the error is about the argument count.
    KernelArgumentError(const std::string& message, int parameter_index)
        : LaunchError(message), parameter_index_(parameter_index) {}

    int parameter_index() const noexcept { return parameter_index_; }

private:
    int parameter_index_;
};

class KernelNotFoundError : public Error {
public:
    KernelNotFoundError(std::string name, std::vector<std::string> available);

    const std::string& name() const noexcept { return name_; }
    const std::vector<std::string>& available() const noexcept { return available_; }

private:
    std::string name_;
    std::vector<std::string> available_;
};

class InvalidArgumentError : public Error {
public:
    using Error::Error;
};

// NumPy raises IndexError for these, not ValueError, and so do gpukit arrays.
class IndexError : public Error {
public:
    using Error::Error;
};

class UsageError : public Error {
public:
    using Error::Error;
};

}  // namespace gpukit
