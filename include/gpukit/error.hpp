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
//   │   ├── KernelArgumentError   argument count or sizes against the kernel's parameters
//   │   ├── KernelFaultError      a kernel faulted (bad access, assert, trap, ...): kernel, block, thread, line
//   │   ├── LaunchTimeoutError    a launch ran past its time limit: kernel, blocks done
//   │   └── LaunchAbandonedError  a launch given up with the device's work (a fault elsewhere, an interrupt)
//   ├── KernelNotFoundError       the name asked for and the kernels the module has
//   ├── InvalidArgumentError      a bad value given to an API call (sizes that do not match, ...)
//   │   └── AxisError             an axis outside an array's dimensions
//   ├── LinAlgError               a matrix linear algebra cannot take (singular, not positive definite, not square)
//   ├── DTypeError                no ufunc loop takes these dtypes, or a cast the casting rule forbids
//   ├── ScalarOverflowError       a Python-like integer out of the range of the dtype it must take
//   ├── IndexError                an index outside an array's bounds, more indices than dimensions
//   ├── UsageError                an object used in a state that forbids it (moved-from, destroyed)
//   ├── WaitTimeoutError          a wait for the device (synchronize with a timeout) ran out of time
//   └── WaitInterruptedError      a wait for the device was interrupted (Ctrl-C in Python)
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "gpukit/geometry.hpp"

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

// What went wrong in a faulting kernel.
enum class FaultKind : std::uint8_t {
    memory_access,        // a read or write of memory the kernel cannot reach (SIGSEGV, SIGBUS)
    stack_overflow,       // a simulated thread overflowed its stack
    integer_division,     // integer division by zero, or INT_MIN / -1 (SIGFPE)
    illegal_instruction,  // SIGILL: __builtin_trap(), code the CPU cannot run
    assertion,            // assert() failed
    trap,                 // __trap() or __brkpt()
    abort,                // abort() or std::terminate
    exit,                 // exit() or its kin, which a kernel must not call
    process_ended,        // the simulator's device process ended for a reason it could not report
};
// "memory_access", "assertion", ...: as Python's KernelFaultError.reason reads.
std::string_view to_string(FaultKind kind);

// Where a kernel faulted. The thread and the source line are known where the simulator could
// tell (a fault outside any simulated thread has neither).
struct FaultSite {
    std::string kernel;
    Dim3 block{0, 0, 0};
    Dim3 thread{0, 0, 0};
    bool thread_known = false;
    std::string file;  // the source's name as compiled ("kernel.cu"); empty when unknown
    int line = 0;
    std::string function;       // the function the line is in, where known
    std::uint64_t address = 0;  // the address a bad access touched; 0 when none
};

// A kernel faulted on the simulator: the launch ended there, the rest of its blocks did not run.
// The simulator contains the fault (kernels run in a device process of their own) and the device
// stays usable: device memory keeps what the kernel wrote before it faulted, and the work queued
// after it on the same stream is skipped until this error has been reported.
class KernelFaultError : public LaunchError {
public:
    KernelFaultError(FaultKind kind, const std::string& message, FaultSite site)
        : LaunchError(message), kind_(kind), site_(std::move(site)) {}

    FaultKind kind() const noexcept { return kind_; }
    const FaultSite& site() const noexcept { return site_; }

private:
    FaultKind kind_;
    FaultSite site_;
};

// A launch ran past the time limit set for launches (GPUKIT_SIM_LAUNCH_TIMEOUT, `gpukit check
// --time-limit`); it was abandoned with the device's other running work.
class LaunchTimeoutError : public LaunchError {
public:
    LaunchTimeoutError(const std::string& message, std::string kernel, double limit_seconds, std::uint64_t blocks_done,
                       std::uint64_t blocks_total)
        : LaunchError(message),
          kernel_(std::move(kernel)),
          limit_seconds_(limit_seconds),
          blocks_done_(blocks_done),
          blocks_total_(blocks_total) {}

    const std::string& kernel() const noexcept { return kernel_; }
    double limit_seconds() const noexcept { return limit_seconds_; }
    std::uint64_t blocks_done() const noexcept { return blocks_done_; }
    std::uint64_t blocks_total() const noexcept { return blocks_total_; }

private:
    std::string kernel_;
    double limit_seconds_;
    std::uint64_t blocks_done_;
    std::uint64_t blocks_total_;
};

// Work that was running or queued when the device's work was given up (a kernel faulted on
// another stream, a wait was interrupted or timed out): it did not run to its end.
class LaunchAbandonedError : public LaunchError {
public:
    using LaunchError::LaunchError;
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

// NumPy raises TypeError (UFuncTypeError) for these: no loop of a ufunc takes the operands' dtypes,
// a result cannot be cast to `out` under the casting rule, an operation a dtype has none of.
class DTypeError : public Error {
public:
    using Error::Error;
};

// numpy.linalg.LinAlgError, in NumPy's words: a singular matrix to solve or invert ("Singular
// matrix"), a Cholesky factor of one not positive definite, arrays of the wrong shape ("Last 2
// dimensions of the array must be square"), an SVD or eigensolver that did not converge.
class LinAlgError : public Error {
public:
    using Error::Error;
};

// A dtype gpukit arrays do not hold (object, strings, structured, datetime, float128). NumPy and CuPy
// raise either ValueError or TypeError for one, and code tells the two apart (Dask catches the
// TypeError of a structured empty_like to take its CuPy path): Python gets gpukit.UnsupportedDTypeError,
// both a ValueError (through InvalidArgumentError) and a TypeError (through DTypeError).
class UnsupportedDTypeError : public InvalidArgumentError {
public:
    using InvalidArgumentError::InvalidArgumentError;
};

// A weak (Python) integer that does not fit the integer dtype NEP 50 gives it: NumPy's OverflowError.
class ScalarOverflowError : public Error {
public:
    using Error::Error;
};

// NumPy raises IndexError for these, not ValueError, and so do gpukit arrays.
class IndexError : public Error {
public:
    using Error::Error;
};

// An axis outside an array's dimensions. NumPy's AxisError is both a ValueError and an IndexError;
// Python gets gpukit.AxisError, a numpy.exceptions.AxisError.
class AxisError : public InvalidArgumentError {
public:
    using InvalidArgumentError::InvalidArgumentError;
};

// A division by zero NumPy refuses instead of giving inf (numpy.average of weights summing to 0).
class ZeroDivisionError : public Error {
public:
    using Error::Error;
};

class UsageError : public Error {
public:
    using Error::Error;
};

// A wait for the device with a timeout (Device::synchronize(timeout), ...) ran out of time. On
// the simulator the device's work was given up so that the device is usable again; on a GPU it
// goes on running.
class WaitTimeoutError : public Error {
public:
    WaitTimeoutError(const std::string& message, double timeout_seconds)
        : Error(message), timeout_seconds_(timeout_seconds) {}
    double timeout_seconds() const noexcept { return timeout_seconds_; }

private:
    double timeout_seconds_;
};

// A wait for the device was interrupted by the check installed with set_wait_interrupt_check
// (the Python bindings: Ctrl-C). On the simulator the device's work was given up.
class WaitInterruptedError : public Error {
public:
    using Error::Error;
};

}  // namespace gpukit
